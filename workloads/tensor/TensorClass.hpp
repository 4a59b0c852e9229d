#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace trainscope::workloads {

// What a tensor's memory is for: every allocation and free of the engine carries one, so
// that a run can say where its memory went (docs/workloads.md, "Memory by tensor class").
// - weights: master parameters, their compute copies, batch-norm running statistics;
// - gradients: parameter gradients;
// - optimizer_state: moments, velocities, fp16's overflow flag;
// - activations: forward outputs (kept for backward or not), what backward saves and
//   the gradients flowing back through the layers;
// - workspace: scratch an operation needs only while it runs;
// - input_batch: images and labels of a batch, its indices and its storage-dtype copy;
// - other: what fits none of these (tests, micro benchmarks).
enum class TensorClass : std::uint8_t {
    weights,
    gradients,
    optimizer_state,
    activations,
    workspace,
    input_batch,
    other,
};

inline constexpr std::size_t kTensorClassCount = 7;

inline constexpr std::array<TensorClass, kTensorClassCount> kTensorClasses{
    TensorClass::weights,     TensorClass::gradients, TensorClass::optimizer_state,
    TensorClass::activations, TensorClass::workspace, TensorClass::input_batch,
    TensorClass::other};

// The name in the database, the CSV and the GUI: "weights", "optimizer_state", ...
constexpr std::string_view tensor_class_name(TensorClass tensor_class) {
    switch (tensor_class) {
        case TensorClass::weights:
            return "weights";
        case TensorClass::gradients:
            return "gradients";
        case TensorClass::optimizer_state:
            return "optimizer_state";
        case TensorClass::activations:
            return "activations";
        case TensorClass::workspace:
            return "workspace";
        case TensorClass::input_batch:
            return "input_batch";
        case TensorClass::other:
            return "other";
    }
    return "other";
}

constexpr std::size_t tensor_class_index(TensorClass tensor_class) {
    return static_cast<std::size_t>(tensor_class);
}

// The classes that live for the whole run: what memory returns to between steps.
constexpr bool is_resident_class(TensorClass tensor_class) {
    return tensor_class == TensorClass::weights || tensor_class == TensorClass::gradients ||
           tensor_class == TensorClass::optimizer_state;
}

// Bytes per class, indexed by tensor_class_index.
using ClassBytes = std::array<std::int64_t, kTensorClassCount>;

}  // namespace trainscope::workloads
