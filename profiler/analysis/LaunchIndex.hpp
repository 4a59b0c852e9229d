#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Joins GPU work to the runtime/driver API call that launched it through the
// correlation id (CUPTI's correlationId, Kineto's "correlation" argument, which the
// ac2g flow events repeat). Correlation 0 means "none" and never joins.
class LaunchIndex {
  public:
    explicit LaunchIndex(const Trace& trace);

    // Index into trace.activities of the API call with this correlation id.
    [[nodiscard]] std::optional<std::size_t> launch_of(std::uint64_t correlation) const;

  private:
    std::unordered_map<std::uint64_t, std::size_t> api_by_correlation_;
};

}  // namespace trainscope::profiler
