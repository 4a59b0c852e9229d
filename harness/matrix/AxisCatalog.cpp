#include "harness/matrix/AxisCatalog.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>

#include "harness/cli/UsageError.hpp"

namespace trainscope::harness {

const std::vector<AxisInfo>& axis_catalog() {
    using K = AxisInfo::Kind;
    static const std::vector<AxisInfo> axes{
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
        {"precision",
         "--precision",
         "storage and math precision",
         "fp32",
         {"fp32", "tf32", "fp16", "bf16", "fp64"},
         K::Choice},
        {"batch", "--batch", "images per training step", "64", {}, K::PositiveInteger},
        {"optimizer", "--optimizer", "optimizer", "adam", {"adam", "sgd"}, K::Choice},
        {"learning_rate", "--lr", "learning rate", "0.001", {}, K::PositiveNumber},
        {"backend",
         "--backend",
         "where to train; auto picks CUDA when a device exists",
         "auto",
         {"auto", "cpu", "cuda"},
         K::Choice},
        {"device", "--device", "CUDA device ordinal", "0", {}, K::NonNegativeInteger},
        {"allocator",
         "--allocator",
         "tensor memory: caching pool (PyTorch's default), raw allocation per tensor, "
         "stream-ordered pool, managed",
         "pool",
         {"pool", "device", "async", "managed"},
         K::Choice},
        {"host_memory",
         "--host",
         "staging buffers for input batches",
         "pageable",
         {"pageable", "pinned"},
         K::Choice,
         true},
        {"transfer",
         "--transfer",
         "copy then compute, or overlap copies on a copy stream",
         "sync",
         {"sync", "overlap"},
         K::Choice,
         true},
        {"placement",
         "--placement",
         "copy batches each step, or keep the dataset on the device",
         "stream",
         {"stream", "resident"},
         K::Choice,
         true},
        {"activations",
         "--activations",
         "keep activations, or recompute checkpointed segments",
         "keep",
         {"keep", "recompute"},
         K::Choice},
        {"cuda_graph",
         "--cuda-graph",
         "capture a training step in a CUDA graph and replay it",
         "off",
         {"off", "on"},
         K::Choice,
         true},
        {"trace_level",
         "--trace",
         "tracing: off, kernels, or full (API calls and counters)",
         "off",
         {"off", "kernels", "full"},
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
