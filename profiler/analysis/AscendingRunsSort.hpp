#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace trainscope::profiler {

// Sorts [first, last) by `less`, stably, when it is made of a few ascending runs: a
// trace in trace order (by lane, then start) gives keys such as correlation ids that
// ascend within each lane, so the launches of a 14 M-activity trace are a handful of
// runs. Merging the runs costs n log(runs) instead of n log n; input with many runs
// falls back to std::stable_sort.
template <std::random_access_iterator It, class Less>
void sort_ascending_runs(It first, It last, Less less) {
    constexpr std::size_t kMaxRuns = 1024;
    const std::ptrdiff_t n = last - first;
    std::vector<std::ptrdiff_t> starts{0};  // where each run starts, then n
    for (std::ptrdiff_t i = 1; i < n; ++i) {
        if (less(first[i], first[i - 1])) {
            starts.push_back(i);
            if (starts.size() > kMaxRuns) {
                std::stable_sort(first, last, less);
                return;
            }
        }
    }
    starts.push_back(n);
    while (starts.size() > 2) {
        std::vector<std::ptrdiff_t> merged{0};
        for (std::size_t r = 0; r + 2 < starts.size(); r += 2) {
            std::inplace_merge(first + starts[r], first + starts[r + 1], first + starts[r + 2],
                               less);
            merged.push_back(starts[r + 2]);
        }
        if ((starts.size() - 1) % 2 == 1)  // an odd run out: carried to the next round
            merged.push_back(n);
        starts = std::move(merged);
    }
}

}  // namespace trainscope::profiler
