#include <gtest/gtest.h>

#include "profiler/capture/TraceLevel.hpp"

namespace trainscope::profiler {
namespace {

TEST(TraceLevel, ParsesTheThreeLevelsAndRoundTrips) {
    for (const TraceLevel level : {TraceLevel::Off, TraceLevel::Kernels, TraceLevel::Full}) {
        EXPECT_EQ(parse_trace_level(to_string(level)), level);
    }
    EXPECT_EQ(parse_trace_level("kernels"), TraceLevel::Kernels);
}

TEST(TraceLevel, RejectsAnythingElse) {
    EXPECT_FALSE(parse_trace_level(""));
    EXPECT_FALSE(parse_trace_level("Full"));
    EXPECT_FALSE(parse_trace_level("kernel"));
    EXPECT_FALSE(parse_trace_level("full "));
}

}  // namespace
}  // namespace trainscope::profiler
