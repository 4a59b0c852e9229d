#include "harness/matrix/AxisCatalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>

#include "harness/cli/UsageError.hpp"
#include "harness/pytorch/Framework.hpp"
#include "profiler/capture/TraceLevel.hpp"
#include "workloads/backend/BackendKind.hpp"
#include "workloads/backend/MemoryStrategy.hpp"
#include "workloads/numerics/Precision.hpp"
#include "workloads/optim/OptimizerKind.hpp"
#include "workloads/training/TrainingConfig.hpp"

namespace trainscope::harness {

namespace {

// The spellings of an enum's values, in its own order, from its one to_string.
template <class E, std::size_t N>
std::vector<std::string> spellings(const std::array<E, N>& values) {
    std::vector<std::string> names;
    for (const E value : values)
        names.push_back(workloads::to_string(value));
    return names;
}

std::vector<std::string> framework_spellings() {
    std::vector<std::string> names;
    for (const Framework framework : kFrameworks)
        names.push_back(to_string(framework));
    return names;
}

std::vector<std::string> backend_spellings() {
    std::vector<std::string> names{std::string(kAutoBackend)};
    for (auto& name : spellings(workloads::kBackendKinds))
        names.push_back(std::move(name));
    return names;
}

}  // namespace

bool parse_on_off(std::string_view text) {
    return text == kOffOn[1];
}

const std::vector<AxisInfo>& axis_catalog() {
    using K = AxisInfo::Kind;
    // The engine's defaults are the matrix's defaults.
    static const workloads::TrainingConfig defaults;
    static const std::vector<AxisInfo> axes{
        {"framework", "--framework",
         "who trains the cell: trainscope's engine or PyTorch (the Python worker, see --python)",
         to_string(Framework::trainscope), framework_spellings(), K::Choice},
        {"model",
         "--model",
         "network to train (see `trainscope list models`)",
         "seed-cnn",
         {},
         K::Text},
        {"depth", "--depth", "resnet depth, 6n+2", "20", {}, K::PositiveInteger},
        {"width", "--width", "resnet channels of the first stage", "16", {}, K::PositiveInteger},
        {"dataset",
         "--dataset",
         "fashion-mnist, mnist, synthetic, or a folder of IDX files",
         "fashion-mnist",
         {},
         K::Text},
        {"precision", "--precision", "storage and math precision",
         workloads::to_string(defaults.precision), spellings(workloads::kPrecisions), K::Choice},
        {"batch", "--batch", "images per training step", "64", {}, K::PositiveInteger},
        {"optimizer", "--optimizer", "optimizer", workloads::to_string(defaults.optimizer),
         spellings(workloads::kOptimizerKinds), K::Choice},
        {"learning_rate", "--lr", "learning rate", "0.001", {}, K::PositiveNumber},
        {"backend", "--backend", "where to train; auto picks CUDA when a device exists",
         std::string(kAutoBackend), backend_spellings(), K::Choice},
        {"device", "--device", "CUDA device ordinal", "0", {}, K::NonNegativeInteger},
        {"allocator", "--allocator",
         "tensor memory: caching pool (PyTorch's default), raw allocation per tensor, "
         "stream-ordered pool, managed",
         workloads::to_string(defaults.allocator), spellings(workloads::kAllocators), K::Choice},
        {"host_memory", "--host", "staging buffers for input batches",
         workloads::to_string(defaults.host_memory), spellings(workloads::kHostMemories), K::Choice,
         true},
        {"transfer", "--transfer", "copy then compute, or overlap copies on a copy stream",
         workloads::to_string(defaults.transfer), spellings(workloads::kTransfers), K::Choice,
         true},
        {"placement", "--placement", "copy batches each step, or keep the dataset on the device",
         workloads::to_string(defaults.placement), spellings(workloads::kPlacements), K::Choice,
         true},
        {"activations", "--activations", "keep activations, or recompute checkpointed segments",
         workloads::to_string(defaults.activations), spellings(workloads::kActivations), K::Choice},
        {"cuda_graph",
         "--cuda-graph",
         "capture a training step in a CUDA graph and replay it",
         std::string(kOffOn[0]),
         {std::string(kOffOn[0]), std::string(kOffOn[1])},
         K::Choice,
         true},
        {"ranks",
         "--ranks",
         "data-parallel processes (MPI ranks, one GPU each); --batch stays the global batch",
         std::to_string(defaults.ranks),
         {},
         K::PositiveInteger},
        {"bucket_mb",
         "--bucket-mb",
         "gradient all-reduce bucket size in MiB (ranks > 1)",
         fmt::format("{:g}", defaults.bucket_mb),
         {},
         K::PositiveNumber},
        {"overlap", "--overlap",
         "start each gradient bucket's all-reduce during backward (on) or after it (off)",
         workloads::to_string(defaults.overlap), spellings(workloads::kOverlaps), K::Choice},
        {"trace_level",
         "--trace",
         "tracing: off, kernels, or full (API calls and counters)",
         std::string(to_string(profiler::TraceLevel::Off)),
         {std::string(to_string(profiler::TraceLevel::Off)),
          std::string(to_string(profiler::TraceLevel::Kernels)),
          std::string(to_string(profiler::TraceLevel::Full))},
         K::Choice},
    };
    return axes;
}

const AxisInfo* find_axis(std::string_view name) {
    for (const auto& axis : axis_catalog()) {
        if (axis.name == name)
            return &axis;
    }
    return nullptr;
}

void validate_axis_value(const AxisInfo& axis, const std::string& value) {
    const auto fail = [&](const std::string& expected) {
        throw UsageError(fmt::format("invalid value '{}' for {} ({}): expected {}", value,
                                     axis.name, axis.flag, expected));
    };
    switch (axis.kind) {
        case AxisInfo::Kind::Choice:
            if (std::find(axis.values.begin(), axis.values.end(), value) == axis.values.end()) {
                fail(fmt::format("one of {}", fmt::join(axis.values, ", ")));
            }
            break;
        case AxisInfo::Kind::PositiveInteger:
        case AxisInfo::Kind::NonNegativeInteger: {
            long long parsed = 0;
            const auto [end, ec] =
                std::from_chars(value.data(), value.data() + value.size(), parsed);
            const bool ok = ec == std::errc{} && end == value.data() + value.size();
            const bool positive = axis.kind == AxisInfo::Kind::PositiveInteger;
            if (!ok || (positive ? parsed <= 0 : parsed < 0)) {
                fail(positive ? "a positive integer" : "a non-negative integer");
            }
            break;
        }
        case AxisInfo::Kind::PositiveNumber: {
            double parsed = 0;
            const auto [end, ec] =
                std::from_chars(value.data(), value.data() + value.size(), parsed);
            if (ec != std::errc{} || end != value.data() + value.size() || !(parsed > 0)) {
                fail("a positive number");
            }
            break;
        }
        case AxisInfo::Kind::Text:
            if (value.empty())
                fail("a non-empty value");
            break;
    }
}

}  // namespace trainscope::harness
