#pragma once

#include <cstdint>
#include <string>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler::testing {

// Builds small traces with known answers for analysis tests.
class HandBuiltTrace {
  public:
    Activity& kernel(std::int32_t device, std::int64_t stream, const std::string& name,
                     std::int64_t start_ns, std::int64_t end_ns, std::uint64_t correlation = 0);
    Activity& memcpy(std::int32_t device, std::int64_t stream, std::int64_t start_ns,
                     std::int64_t end_ns, std::int64_t bytes, std::uint64_t correlation = 0);
    Activity& memset(std::int32_t device, std::int64_t stream, std::int64_t start_ns,
                     std::int64_t end_ns, std::uint64_t correlation = 0);
    Activity& runtime_call(std::int64_t thread, const std::string& name, std::int64_t start_ns,
                           std::int64_t end_ns, std::uint64_t correlation);
    // A CPU backend op on the thread's host lane (process 1), as HostTracer records it.
    Activity& host_op(std::int64_t thread, const std::string& name, std::int64_t start_ns,
                      std::int64_t end_ns, std::uint16_t depth = 0);
    Activity& nvtx_range(std::int64_t thread, const std::string& name, std::int64_t start_ns,
                         std::int64_t end_ns);

    Trace& trace() { return trace_; }

  private:
    Activity& add(Activity a);

    Trace trace_;
};

}  // namespace trainscope::profiler::testing
