#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <map>
#include <memory>

#include "harness/cli/Commands.hpp"
#include "harness/cli/UsageError.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "workloads/devices/DeviceQuery.hpp"
#include "workloads/models/ModelCatalog.hpp"
#include "workloads/tensor/Shape.hpp"

namespace trainscope::harness {

namespace {

void list_axes(bool memory_strategies) {
    for (const auto& axis : axis_catalog()) {
        const bool is_strategy = axis.name == "allocator" || axis.name == "host_memory" ||
                                 axis.name == "transfer" || axis.name == "placement" ||
                                 axis.name == "activations";
        if (memory_strategies && !is_strategy)
            continue;
        std::printf(
            "%-12s %-16s %s (default %s)%s\n", axis.name.c_str(), axis.flag.c_str(),
            axis.values.empty() ? "" : fmt::format("{}", fmt::join(axis.values, " | ")).c_str(),
            axis.default_value.c_str(), axis.gpu_only ? "  [CUDA only]" : "");
    }
}

void list_precisions() {
    std::puts(
        "fp32  fp32 storage and math, tensor cores off (cuDNN FMA math, cuBLAS pedantic)\n"
        "tf32  fp32 storage, TF32 tensor-core math (emulated by rounding on the CPU)\n"
        "fp16  mixed: fp16 activations/weights/gradients, fp32 master weights, dynamic loss "
        "scaling (emulated on the CPU)\n"
        "bf16  mixed like fp16, without loss scaling (emulated on the CPU)\n"
        "fp64  fp64 storage and math");
}

void list_devices() {
    const auto inventory = workloads::query_cuda_devices();
    std::printf("cpu   the CPU backend (always available)\n");
    for (const auto& d : inventory.devices) {
        std::printf("cuda:%d  %s  sm_%d%d  %d SMs  %.1f GiB  %s\n", d.ordinal, d.name.c_str(),
                    d.compute_major, d.compute_minor, d.sm_count,
                    static_cast<double>(d.memory_bytes) / (1024.0 * 1024.0 * 1024.0),
                    d.pci_bus_id.c_str());
    }
    if (inventory.devices.empty())
        std::printf("cuda  none: %s\n", inventory.status.c_str());
}

void list_models() {
    for (const auto& model : workloads::model_catalog()) {
        std::map<std::string, std::string> defaults;
        std::string params;
        for (const auto& p : model.parameters) {
            defaults[p.name] = p.default_value;
            params += fmt::format("\n      {} = {} ({})", p.name, p.default_value, p.allowed);
        }
        std::int64_t count = -1;
        try {
            count = workloads::parameter_count(model.name, defaults, workloads::Shape{1, 28, 28}, 10);
        } catch (const std::exception&) {
            // a model that cannot take 28x28 input shows no count
        }
        std::printf("%-10s %s\n      parameters for 1x28x28 input, 10 classes, defaults: %s%s\n",
                    model.name.c_str(), model.description.c_str(),
                    count >= 0 ? fmt::format("{}", count).c_str() : "n/a", params.c_str());
    }
}

void list_datasets() {
    std::puts(
        "fashion-mnist  IDX files, default /usr/share/datasets/fashion-mnist (Debian's "
        "dataset-fashion-mnist)\n"
        "mnist          IDX files in --data-dir\n"
        "synthetic      random images of --input CxHxW and --classes, for throughput runs\n"
        "PATH           a folder with {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz]");
}

}  // namespace

CommandAction add_list_command(CLI::App& app) {
    auto what = std::make_shared<std::string>();
    CLI::App* list = app.add_subcommand("list", "List what trainscope knows about.");
    list->add_option("what", *what, "models | axes | precisions | strategies | devices | datasets")
        ->required()
        ->check(CLI::IsMember({"models", "axes", "precisions", "strategies", "devices", "datasets"}));
    return [what]() {
        if (*what == "models") list_models();
        if (*what == "axes") list_axes(false);
        if (*what == "strategies")
            list_axes(true);
        if (*what == "precisions")
            list_precisions();
        if (*what == "devices")
            list_devices();
        if (*what == "datasets")
            list_datasets();
        return 0;
    };
}

}  // namespace trainscope::harness
