#include "workloads/distributed/GradientBuckets.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace trainscope::workloads {

std::vector<GradientBucket> plan_gradient_buckets(std::span<const GradientExtent> extents,
                                                  std::int64_t bucket_bytes) {
    std::vector<std::size_t> order(extents.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Reverse layout order: the later buffer first, and within one the higher offsets.
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (extents[a].span != extents[b].span) {
            return extents[a].span > extents[b].span;
        }
        return extents[a].begin > extents[b].begin;
    });
    std::vector<GradientBucket> buckets;
    std::int64_t bytes = 0;
    bool open = false;
    for (const std::size_t i : order) {
        const GradientExtent& extent = extents[i];
        if (open && buckets.back().span != extent.span) {
            open = false;
        }
        if (!open) {
            GradientBucket& bucket = buckets.emplace_back();
            bucket.span = extent.span;
            bucket.begin = extent.begin;
            bucket.end = extent.end;
            bytes = 0;
            open = true;
        }
        GradientBucket& bucket = buckets.back();
        if (extent.end != bucket.begin && !bucket.parameters.empty()) {
            throw std::logic_error("plan_gradient_buckets: parameter " + std::to_string(i) +
                                   " ends at " + std::to_string(extent.end) +
                                   " but the bucket begins at " + std::to_string(bucket.begin));
        }
        bucket.begin = extent.begin;
        bucket.parameters.push_back(i);
        bytes += (extent.end - extent.begin) * static_cast<std::int64_t>(extent.element_bytes);
        if (bucket_bytes > 0 && bytes >= bucket_bytes) {
            open = false;
        }
    }
    return buckets;
}

}  // namespace trainscope::workloads
