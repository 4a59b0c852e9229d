// An op range's payload (common/OpWorkPayload.hpp) becomes the host op's FLOPs and
// bytes, and OpWork totals them per name with the op's device time.
#include <gtest/gtest.h>

#include <algorithm>
#include <nvtx3/nvtx3.hpp>

#include "common/OpWorkPayload.hpp"
#include "profiler/analysis/OpWork.hpp"
#include "profiler/capture/HostClock.hpp"
#include "profiler/host/HostTracer.hpp"

namespace trainscope::profiler {
namespace {

struct OpsDomain {
    static constexpr char const* name{"trainscope.ops"};
};
struct PhaseDomain {
    static constexpr char const* name{"trainscope"};
};

void op(const char* name, OpWork work, std::int64_t busy_ns) {
    nvtx3::scoped_range_in<OpsDomain> range{
        nvtx3::event_attributes{name, nvtx3::payload{encode_op_work(work)}}};
    const std::int64_t until = host_clock_now_ns() + busy_ns;
    while (host_clock_now_ns() < until) {
    }
}

TEST(OpWorkPayload, RoundTripsBothNumbersToFloatPrecision) {
    const OpWork work = decode_op_work(encode_op_work(OpWork{1.5e12, 3.25e6}));
    EXPECT_NEAR(work.flops, 1.5e12, 1.5e12 * 1e-7);
    EXPECT_DOUBLE_EQ(work.bytes, 3.25e6);
    EXPECT_DOUBLE_EQ(decode_op_work(encode_op_work(OpWork{})).flops, 0.0);
}

TEST(HostTracerOpWork, OpRangesCarryTheirPayloadAndOpWorkTotalsThem) {
    HostTracer tracer;
    {
        nvtx3::scoped_range_in<PhaseDomain> step{
            nvtx3::event_attributes{"step", nvtx3::payload{encode_op_work(OpWork{9.0, 9.0})}}};
        op("conv_fwd", OpWork{15552.0, 3136.0}, 200'000);
        op("conv_fwd", OpWork{15552.0, 3136.0}, 200'000);
        op("relu_fwd", OpWork{288.0, 2304.0}, 100'000);
        nvtx3::scoped_range_in<OpsDomain> plain{"synchronize"};  // no payload: no work
    }
    const Trace trace = tracer.stop();
    ASSERT_TRUE(HostTracer::injection_attached());
    for (const Activity& a : trace.activities) {
        const std::string& name = trace.strings.at(a.name);
        if (name == "conv_fwd") {
            EXPECT_EQ(a.kind, ActivityKind::HostOp);
            EXPECT_DOUBLE_EQ(a.flops, 15552.0);
            EXPECT_EQ(a.bytes, 3136);
        } else if (name == "relu_fwd") {
            EXPECT_DOUBLE_EQ(a.flops, 288.0);
            EXPECT_EQ(a.bytes, 2304);
        } else {
            // A phase range's payload is not an op's work; a range without one has none.
            EXPECT_DOUBLE_EQ(a.flops, 0.0) << name;
            EXPECT_EQ(a.bytes, 0) << name;
        }
    }
    const std::vector<OpWorkTotals> totals = total_op_work_by_name(trace);
    ASSERT_EQ(totals.size(), 2u);  // synchronize carries no work
    // The busy loops are wall time, so a preempted relu_fwd can outlast both conv_fwd:
    // the order is by device time, whichever op that makes first.
    EXPECT_GE(totals[0].device_ns, totals[1].device_ns);
    const auto conv = std::find_if(totals.begin(), totals.end(),
                                   [](const OpWorkTotals& t) { return t.name == "conv_fwd"; });
    const auto relu = std::find_if(totals.begin(), totals.end(),
                                   [](const OpWorkTotals& t) { return t.name == "relu_fwd"; });
    ASSERT_NE(conv, totals.end());
    ASSERT_NE(relu, totals.end());
    EXPECT_EQ(conv->count, 2);
    EXPECT_DOUBLE_EQ(conv->flops, 2 * 15552.0);
    EXPECT_DOUBLE_EQ(conv->bytes, 2 * 3136.0);
    EXPECT_GE(conv->device_ns, 400'000);
    EXPECT_EQ(relu->count, 1);
    EXPECT_DOUBLE_EQ(relu->flops, 288.0);
    EXPECT_GE(relu->device_ns, 100'000);
    EXPECT_EQ(op_instances(trace, "conv_fwd").size(), 2u);
}

}  // namespace
}  // namespace trainscope::profiler
