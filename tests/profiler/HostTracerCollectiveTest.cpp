#include <gtest/gtest.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "common/CollectiveMessage.hpp"
#include "profiler/capture/HostClock.hpp"
#include "profiler/host/HostTracer.hpp"
#include "profiler/trace/Collective.hpp"

namespace trainscope::profiler {
namespace {

void busy_wait_ns(std::int64_t duration_ns) {
    const std::int64_t until = host_clock_now_ns() + duration_ns;
    while (host_clock_now_ns() < until) {
    }
}

// Marks a collective as the MPI communicator does (workloads/annotation/CollectiveRange.hpp):
// domain "trainscope.comm", message = kind, payload = bytes, category = sequence + 1.
nvtxDomainHandle_t comm_domain() {
    static const nvtxDomainHandle_t domain = nvtxDomainCreateA("trainscope.comm");
    return domain;
}

nvtxRangeId_t start_collective(const char* kind, std::uint64_t bytes, std::uint32_t category) {
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attributes.category = category;
    attributes.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    attributes.payload.ullValue = bytes;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = kind;
    return nvtxDomainRangeStartEx(comm_domain(), &attributes);
}

void end_collective(nvtxRangeId_t id) {
    nvtxDomainRangeEnd(comm_domain(), id);
}

const Lane& lane_of(const Trace& trace, LaneId id) {
    return trace.lanes.at(id);
}

TEST(HostTracerCollectives, StartEndRangesBecomeCollectivesOnTheStartingThreadsCommLane) {
    HostTracer tracer;
    // Two buckets started by this thread, the second completed by another thread (as an
    // MPI request tested elsewhere), and one started by a worker thread.
    const nvtxRangeId_t first = start_collective("all_reduce/float/4", 4096, 8);
    const nvtxRangeId_t second = start_collective("all_reduce", 1024, 9);
    busy_wait_ns(100'000);
    end_collective(first);
    std::thread completer([second] {
        busy_wait_ns(50'000);
        end_collective(second);
    });
    completer.join();
    std::thread worker([] {
        // No sequence from the caller (category 0): the tracer counts on.
        const nvtxRangeId_t id = start_collective("broadcast", 8, 0);
        busy_wait_ns(20'000);
        end_collective(id);
    });
    worker.join();
    // A push/pop in the same domain is not a collective's end and takes nothing away.
    nvtxRangePushA("step");
    nvtxRangePop();
    const Trace trace = tracer.stop();
    ASSERT_TRUE(HostTracer::injection_attached());

    ASSERT_EQ(trace.collectives.size(), 3u);
    std::vector<CollectiveCall> calls = trace.collectives;
    std::sort(calls.begin(), calls.end(), [](const CollectiveCall& a, const CollectiveCall& b) {
        return a.start_ns < b.start_ns;
    });
    EXPECT_EQ(calls[0].kind, CollectiveKind::AllReduce);
    EXPECT_EQ(calls[0].bytes, 4096);
    EXPECT_EQ(calls[0].sequence, 7);
    // The message's element type and size give the count bandwidth analyses read.
    EXPECT_EQ(calls[0].elements, 1024);
    EXPECT_EQ(trace.strings.at(calls[0].dtype), "float");
    EXPECT_EQ(calls[1].elements, 0) << "a bare kind says nothing of its elements";
    EXPECT_EQ(calls[1].dtype, kNoString);
    EXPECT_GE(calls[0].duration_ns(), 100'000);
    EXPECT_EQ(calls[1].bytes, 1024);
    EXPECT_EQ(calls[1].sequence, 8);
    EXPECT_GE(calls[1].duration_ns(), 150'000) << "ends when the other thread completes it";
    EXPECT_EQ(calls[2].kind, CollectiveKind::Broadcast);
    EXPECT_EQ(calls[2].sequence, 9);
    // Both of this thread's calls on one communication lane, the worker's on another.
    EXPECT_EQ(calls[0].lane, calls[1].lane);
    EXPECT_NE(calls[0].lane, calls[2].lane);
    EXPECT_EQ(lane_of(trace, calls[0].lane).kind, LaneKind::Communication);
    EXPECT_EQ(lane_of(trace, calls[2].lane).kind, LaneKind::Communication);

    int collective_activities = 0;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::Collective)
            continue;
        ++collective_activities;
        const auto match = std::find_if(calls.begin(), calls.end(), [&](const CollectiveCall& c) {
            return c.start_ns == a.start_ns && c.end_ns == a.end_ns && c.lane == a.lane;
        });
        ASSERT_NE(match, calls.end()) << "each activity has its CollectiveCall";
        EXPECT_EQ(a.bytes, match->bytes);
        EXPECT_EQ(trace.strings.at(a.name), to_string(match->kind));
    }
    EXPECT_EQ(collective_activities, 3);
    EXPECT_EQ(trace.activities.size(), 4u) << "the push/pop range stays an NVTX range";
}

TEST(CollectiveMessage, KindTypeAndSizeRoundTripAndForeignTextStaysAKind) {
    EXPECT_EQ(format_collective_message("all_reduce", "double", 8), "all_reduce/double/8");
    EXPECT_EQ(format_collective_message("barrier", "", 0), "barrier");
    const auto parsed = parse_collective_message("broadcast/byte/1");
    EXPECT_EQ(parsed.kind, "broadcast");
    EXPECT_EQ(parsed.dtype, "byte");
    EXPECT_EQ(parsed.element_bytes, 1);
    for (const char* foreign : {"all_reduce/x", "a/b/0", "a/b/c", "a/b/-4"}) {
        const auto f = parse_collective_message(foreign);
        EXPECT_EQ(f.kind, foreign);
        EXPECT_EQ(f.element_bytes, 0);
    }
}

// The communicator's control collectives (stop vote, loss sum) say their group: the
// tracer keeps it and names the activity so the timeline and the analyses tell them apart.
TEST(HostTracerCollectives, AControlCollectiveKeepsItsGroupAndSaysSoOnTheTimeline) {
    HostTracer tracer;
    const std::string message =
        format_collective_message("all_reduce", "double", 8, kControlCollectiveGroup);
    EXPECT_EQ(message, "all_reduce/double/8@trainscope.control");
    const nvtxRangeId_t id = start_collective(message.c_str(), 16, 3);
    end_collective(id);
    const nvtxRangeId_t gradient = start_collective("all_reduce/float/4", 64, 4);
    end_collective(gradient);
    const Trace trace = tracer.stop();
    ASSERT_EQ(trace.collectives.size(), 2u);
    const CollectiveCall& control = trace.collectives[0];
    EXPECT_EQ(control.kind, CollectiveKind::AllReduce);
    EXPECT_EQ(control.elements, 2);
    EXPECT_EQ(trace.strings.at(control.group), kControlCollectiveGroup);
    EXPECT_EQ(trace.collectives[1].group, kNoString) << "the gradients' communicator: the world";
    std::vector<std::string> names;
    for (const Activity& a : trace.activities)
        names.push_back(trace.strings.at(a.name));
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"all_reduce", "all_reduce (control)"}));
    const auto parsed = parse_collective_message(message);
    EXPECT_EQ(parsed.group, kControlCollectiveGroup);
    EXPECT_EQ(parsed.dtype, "double");
    EXPECT_EQ(parse_collective_message("barrier@trainscope.control").kind, "barrier");
}

TEST(HostTracerCollectives, RangesOpenWhenRecordingStopsAreLeftOut) {
    nvtxRangeId_t open = 0;
    Trace trace;
    {
        HostTracer tracer;
        open = start_collective("all_reduce", 64, 1);
        trace = tracer.stop();
    }
    end_collective(open);
    EXPECT_TRUE(trace.collectives.empty());
    EXPECT_TRUE(trace.activities.empty());
}

}  // namespace
}  // namespace trainscope::profiler
