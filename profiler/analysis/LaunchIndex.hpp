#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// True for the calls that launch GPU work: runtime and driver API calls. With a correlation
// other than 0 such a call is a launch the index finds.
bool is_launch_call(ActivityKind kind);

// Joins GPU work to the runtime/driver API call that launched it through the
// correlation id (CUPTI's correlationId, Kineto's "correlation" argument, which the
// ac2g flow events repeat). Correlation 0 means "none" and never joins.
class LaunchIndex {
  public:
    explicit LaunchIndex(const Trace& trace);

    // Index into trace.activities of the API call with this correlation id.
    [[nodiscard]] std::optional<std::size_t> launch_of(std::uint64_t correlation) const;

  private:
    struct Entry {
        std::uint64_t correlation = 0;
        std::size_t index = 0;
    };
    // Sorted by correlation, ties in trace order (the first call of a correlation is its
    // launch): half the memory of a hash map on a trace of millions of launches.
    std::vector<Entry> api_by_correlation_;
};

}  // namespace trainscope::profiler
