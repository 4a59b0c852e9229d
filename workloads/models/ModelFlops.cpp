#include "workloads/models/ModelFlops.hpp"

#include <memory>

#include "workloads/backend/CountingBackend.hpp"
#include "workloads/backends/cpu/CpuBackend.hpp"
#include "workloads/layers/StepContext.hpp"
#include "workloads/memory/TensorAllocator.hpp"
#include "workloads/models/ModelCatalog.hpp"

namespace trainscope::workloads {

ModelFlops model_flops_per_image(const std::string& model,
                                 const std::map<std::string, std::string>& model_params,
                                 const Shape& input_shape, int classes) {
    CountingBackend backend(std::make_unique<CpuBackend>(1));
    TensorAllocator tensors(backend.raw_allocator());
    // After the allocator: the model's tensors go back to it before it goes.
    std::unique_ptr<Model> net = build_model(model, model_params, input_shape, classes);
    StepContext context{backend, tensors, policy_for(Precision::fp32), DType::f32, true, false};
    net->materialize(context, 1);
    Tensor x = context.make(input_shape.with_batch(1));
    backend.fill(x, 0.5);

    ModelFlops flops;
    const OpCost before_forward = backend.work();
    const Tensor y = net->forward(context, x);
    const OpCost after_forward = backend.work();
    Tensor dy = context.make(y.shape());
    backend.fill(dy, 1.0);  // no FLOPs
    net->backward(context, dy);
    const OpCost after_backward = backend.work();
    flops.forward = after_forward.flops - before_forward.flops;
    flops.backward = after_backward.flops - after_forward.flops;
    flops.conv_gemm_forward = after_forward.matmul_flops - before_forward.matmul_flops;
    flops.conv_gemm_backward = after_backward.matmul_flops - after_forward.matmul_flops;
    return flops;
}

}  // namespace trainscope::workloads
