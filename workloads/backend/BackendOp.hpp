#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace trainscope::workloads {

// Every operation of the Backend interface, for counting calls (CountingBackend). The
// names are the member functions' names, as the run metrics op_<name>_per_step use them.
#define TRAINSCOPE_BACKEND_OPS(X)     \
    X(synchronize)                    \
    X(copy_from_host)                 \
    X(copy_to_host)                   \
    X(copy)                           \
    X(fill)                           \
    X(convert)                        \
    X(gather_rows)                    \
    X(conv2d_forward)                 \
    X(conv2d_backward_data)           \
    X(conv2d_backward_filter)         \
    X(gemm)                           \
    X(add_bias)                       \
    X(bias_backward)                  \
    X(relu_forward)                   \
    X(relu_backward)                  \
    X(max_pool_forward)               \
    X(max_pool_backward)              \
    X(avg_pool_forward)               \
    X(avg_pool_backward)              \
    X(global_avg_pool_forward)        \
    X(global_avg_pool_backward)       \
    X(batch_norm_forward_training)    \
    X(batch_norm_forward_inference)   \
    X(batch_norm_backward)            \
    X(add)                            \
    X(softmax_cross_entropy)          \
    X(softmax_cross_entropy_deferred) \
    X(take_loss_totals)               \
    X(begin_step_capture)             \
    X(end_step_capture)               \
    X(replay_step)                    \
    X(abandon_step_capture)           \
    X(sgd_update)                     \
    X(adam_update)                    \
    X(round_storage)                  \
    X(flag_non_finite)

enum class BackendOp : unsigned char {
#define TRAINSCOPE_BACKEND_OP_ENUM(name) name,
    TRAINSCOPE_BACKEND_OPS(TRAINSCOPE_BACKEND_OP_ENUM)
#undef TRAINSCOPE_BACKEND_OP_ENUM
};

inline constexpr std::array<std::string_view, 36> kBackendOpNames = {
#define TRAINSCOPE_BACKEND_OP_NAME(name) #name,
    TRAINSCOPE_BACKEND_OPS(TRAINSCOPE_BACKEND_OP_NAME)
#undef TRAINSCOPE_BACKEND_OP_NAME
};
inline constexpr std::size_t kBackendOpCount = kBackendOpNames.size();
static_assert(static_cast<std::size_t>(BackendOp::flag_non_finite) + 1 == kBackendOpCount,
              "kBackendOpNames must list every BackendOp");

inline std::string_view to_string(BackendOp op) {
    return kBackendOpNames[static_cast<std::size_t>(op)];
}

// The operations on tensors, those the Backend contract checks; the rest (synchronize, the
// loss totals, step capture) take no tensor.
constexpr bool takes_tensors(BackendOp op) {
    return op != BackendOp::synchronize && op != BackendOp::take_loss_totals &&
           op != BackendOp::begin_step_capture && op != BackendOp::end_step_capture &&
           op != BackendOp::replay_step && op != BackendOp::abandon_step_capture;
}

}  // namespace trainscope::workloads
