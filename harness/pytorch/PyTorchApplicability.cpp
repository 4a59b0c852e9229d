#include "harness/pytorch/PyTorchApplicability.hpp"

#include "harness/matrix/AxisCatalog.hpp"
#include "workloads/backend/BackendKind.hpp"
#include "workloads/backend/MemoryStrategy.hpp"
#include "workloads/numerics/Precision.hpp"

namespace trainscope::harness {

std::string pytorch_skip_reason(const Cell& cell, const PyTorchCapabilities& torch) {
    using workloads::Allocator;
    using workloads::Precision;
    if (!torch.found)
        return torch.missing_reason;
    const std::string version = " (PyTorch " + torch.torch_version + ")";
    const Precision precision = workloads::parse_precision(cell.at("precision"));
    const Allocator allocator = workloads::parse_allocator(cell.at("allocator"));
    const bool recompute =
        workloads::parse_activations(cell.at("activations")) == workloads::Activations::recompute;
    if (workloads::parse_backend_kind(cell.at("backend")) == workloads::BackendKind::cpu) {
        if (precision == Precision::tf32)
            return "precision=tf32: PyTorch has no TF32 on the CPU" + version;
        if (precision == Precision::fp16 && !torch.cpu_autocast_fp16)
            return "precision=fp16: PyTorch's CPU autocast takes bf16 only" + version;
        if (allocator == Allocator::device) {
            return "allocator=device: PyTorch's CPU allocator has no setting; the allocator=pool "
                   "cell runs it";
        }
        return {};
    }
    if (!torch.cuda_available)
        return "backend=cuda: PyTorch at " + torch.python + " has no CUDA device" + version;
    const std::string& device = cell.at("device");
    if (device != kNotApplicable && std::stoi(device) >= torch.cuda_devices) {
        return "device=" + device + ": PyTorch sees " + std::to_string(torch.cuda_devices) +
               " CUDA device(s)";
    }
    if (allocator == Allocator::managed)
        return "allocator=managed: PyTorch has no managed-memory allocator";
    if (allocator == Allocator::async && !torch.cuda_malloc_async)
        return "allocator=async: PyTorch's cudaMallocAsync backend needs PyTorch 2.0" + version;
    if (cell.at("cuda_graph") != kNotApplicable && parse_on_off(cell.at("cuda_graph"))) {
        if (precision == Precision::fp16)
            return "cuda_graph=on with fp16: GradScaler's step does not run inside a CUDA graph";
        if (recompute)
            return "cuda_graph=on with activations=recompute: torch.utils.checkpoint is not "
                   "captured in a CUDA graph here";
        if (allocator != Allocator::pool)
            return "cuda_graph=on: PyTorch captures graphs with its caching allocator only";
    }
    return {};
}

}  // namespace trainscope::harness
