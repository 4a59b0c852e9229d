#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace trainscope::workloads {

// Where one parameter's gradient lies: in gradient buffer `span`, the layout elements
// [begin, end) (end is where the next parameter starts, so the padding between views
// travels with the parameter before it and buckets tile the buffer).
struct GradientExtent {
    std::size_t span = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::size_t element_bytes = 4;
};

// A contiguous range of one gradient buffer averaged by one all-reduce, and the
// parameters (indices into the extents) whose gradients it holds.
struct GradientBucket {
    std::size_t span = 0;
    std::int64_t begin = 0;
    std::int64_t end = 0;
    std::vector<std::size_t> parameters;
};

// PyTorch DDP's bucketing (reducer.cpp): parameters in reverse layout order (the model's
// last layers first, whose gradients backward produces first), a bucket closed once it
// holds at least bucket_bytes, and never across gradient buffers. bucket_bytes <= 0: one
// bucket per buffer. Buckets come in the order they should start.
std::vector<GradientBucket> plan_gradient_buckets(std::span<const GradientExtent> extents,
                                                  std::int64_t bucket_bytes);

}  // namespace trainscope::workloads
