// Feeds the decoder real CUPTI record structs built in memory: no GPU needed.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "profiler/analysis/LaunchIndex.hpp"
#include "profiler/cupti/CuptiActivityDecoder.hpp"
#include "profiler/cupti/CuptiError.hpp"
#include "profiler/cupti/detail/KernelNameDemangler.hpp"

namespace trainscope::profiler {
namespace {

constexpr std::int64_t kBase = 1'000'000;

CUpti_ActivityKernel10 make_kernel(std::uint64_t start, std::uint64_t end,
                                   std::uint32_t correlation) {
    CUpti_ActivityKernel10 k{};
    k.kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.start = start;
    k.end = end;
    k.deviceId = 0;
    k.streamId = 7;
    k.correlationId = correlation;
    k.name = "_Z9saxpy_gpuifPfS_";
    k.gridX = 256;
    k.gridY = 1;
    k.gridZ = 1;
    k.blockX = 128;
    k.blockY = 1;
    k.blockZ = 1;
    k.registersPerThread = 40;
    k.staticSharedMemory = 1024;
    k.dynamicSharedMemory = 2048;
    k.graphId = 0;
    return k;
}

CUpti_ActivityAPI make_api(CUpti_ActivityKind kind, std::uint32_t cbid, std::uint64_t start,
                           std::uint64_t end, std::uint32_t correlation) {
    CUpti_ActivityAPI api{};
    api.kind = kind;
    api.cbid = cbid;
    api.start = start;
    api.end = end;
    api.processId = 1234;
    api.threadId = 5678;
    api.correlationId = correlation;
    return api;
}

CUpti_ActivityMarker2 make_marker(CUpti_ActivityFlag flag, std::uint32_t id,
                                  std::uint64_t timestamp, const char* name) {
    CUpti_ActivityMarker2 m{};
    m.kind = CUPTI_ACTIVITY_KIND_MARKER;
    m.flags = flag;
    m.id = id;
    m.timestamp = timestamp;
    m.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    m.objectId.pt.processId = 1234;
    m.objectId.pt.threadId = 5678;
    m.name = name;
    m.domain = nullptr;
    return m;
}

template <typename Record>
const CUpti_Activity& as_record(const Record& r) {
    return reinterpret_cast<const CUpti_Activity&>(r);
}

class CuptiDecoderTest : public ::testing::Test {
  protected:
    CuptiDecoderTest() { trace_.base_ns = kBase; }
    Trace trace_;
};

TEST_F(CuptiDecoderTest, KernelKeepsLaunchConfigurationAndDemangledName) {
    CuptiActivityDecoder decoder(trace_);
    decoder.decode_record(as_record(make_kernel(kBase + 100, kBase + 350, 42)));
    ASSERT_EQ(trace_.activities.size(), 1u);
    const Activity& a = trace_.activities[0];
    EXPECT_EQ(a.kind, ActivityKind::Kernel);
    EXPECT_EQ(a.start_ns, 100);
    EXPECT_EQ(a.end_ns, 350);
    EXPECT_EQ(trace_.strings.at(a.name), "saxpy_gpu(int, float, float*, float*)");
    EXPECT_EQ(a.grid, (std::array<std::int32_t, 3>{256, 1, 1}));
    EXPECT_EQ(a.block, (std::array<std::int32_t, 3>{128, 1, 1}));
    EXPECT_EQ(a.registers_per_thread, 40);
    EXPECT_EQ(a.shared_memory_bytes, 3072);
    EXPECT_EQ(a.correlation, 42u);
    EXPECT_EQ(trace_.lanes.at(a.lane).kind, LaneKind::GpuStream);
    EXPECT_EQ(trace_.lanes.at(a.lane).stream_or_thread, 7);
}

TEST_F(CuptiDecoderTest, RuntimeAndDriverCallsAreNamedAndJoinTheirKernels) {
    CuptiActivityDecoder decoder(trace_);
    // cbid 211 = cudaLaunchKernel_v7000 (runtime), 307 = cuLaunchKernel (driver).
    decoder.decode_record(
        as_record(make_api(CUPTI_ACTIVITY_KIND_RUNTIME, 211, kBase + 10, kBase + 20, 42)));
    decoder.decode_record(
        as_record(make_api(CUPTI_ACTIVITY_KIND_DRIVER, 307, kBase + 12, kBase + 18, 43)));
    decoder.decode_record(as_record(make_kernel(kBase + 100, kBase + 350, 42)));
    ASSERT_EQ(trace_.activities.size(), 3u);
    EXPECT_EQ(trace_.activities[0].kind, ActivityKind::RuntimeApi);
    EXPECT_EQ(trace_.strings.at(trace_.activities[0].name), "cudaLaunchKernel_v7000");
    EXPECT_EQ(trace_.activities[1].kind, ActivityKind::DriverApi);
    EXPECT_EQ(trace_.strings.at(trace_.activities[1].name), "cuLaunchKernel");
    const Lane& lane = trace_.lanes.at(trace_.activities[0].lane);
    EXPECT_EQ(lane.kind, LaneKind::HostThread);
    EXPECT_EQ(lane.process, 1234);
    EXPECT_EQ(lane.stream_or_thread, 5678);
    const LaunchIndex launches(trace_);
    EXPECT_EQ(launches.launch_of(trace_.activities[2]), 0u);
}

// CUPTI writes 0 for a timestamp it could not collect; such a record at -base_ns would
// stretch every span by the machine's uptime, so it is counted and left out.
TEST_F(CuptiDecoderTest, GpuRecordsWithoutTimestampsAreCountedAndLeftOut) {
    CuptiActivityDecoder decoder(trace_);
    decoder.decode_record(as_record(make_kernel(0, 0, 1)));
    decoder.decode_record(as_record(make_kernel(kBase + 10, 0, 2)));
    decoder.decode_record(as_record(make_kernel(kBase + 50, kBase + 40, 3)));
    CUpti_ActivityMemcpy6 copy{};
    copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    copy.start = 0;
    copy.end = kBase + 5;
    decoder.decode_record(as_record(copy));
    CUpti_ActivityMemset4 set{};
    set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    set.start = kBase + 5;
    set.end = 0;
    decoder.decode_record(as_record(set));
    decoder.decode_record(as_record(make_kernel(kBase + 100, kBase + 350, 4)));
    EXPECT_EQ(decoder.records_without_timestamps(), 5);
    ASSERT_EQ(trace_.activities.size(), 1u);
    EXPECT_EQ(trace_.activities[0].start_ns, 100);
    EXPECT_EQ(trace_.activities[0].correlation, 4u);
}

TEST_F(CuptiDecoderTest, MemcpyAndMemsetKeepBytesAndDirection) {
    CuptiActivityDecoder decoder(trace_);
    CUpti_ActivityMemcpy6 copy{};
    copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
    copy.bytes = 1 << 20;
    copy.start = kBase + 5;
    copy.end = kBase + 105;
    copy.deviceId = 1;
    copy.streamId = 13;
    copy.correlationId = 9;
    CUpti_ActivityMemset4 set{};
    set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
    set.bytes = 4096;
    set.start = kBase + 200;
    set.end = kBase + 210;
    set.deviceId = 1;
    set.streamId = 13;
    decoder.decode_record(as_record(copy));
    decoder.decode_record(as_record(set));
    ASSERT_EQ(trace_.activities.size(), 2u);
    EXPECT_EQ(trace_.activities[0].kind, ActivityKind::Memcpy);
    EXPECT_EQ(trace_.activities[0].copy_kind, CopyKind::HostToDevice);
    EXPECT_EQ(trace_.activities[0].bytes, 1 << 20);
    EXPECT_EQ(trace_.activities[0].device, 1);
    EXPECT_EQ(trace_.activities[1].kind, ActivityKind::Memset);
    EXPECT_EQ(trace_.activities[1].bytes, 4096);
    EXPECT_EQ(trace_.activities[0].lane, trace_.activities[1].lane);
}

TEST_F(CuptiDecoderTest, MarkerStartEndPairsBecomeNestedNvtxRanges) {
    CuptiActivityDecoder decoder(trace_);
    decoder.decode_record(
        as_record(make_marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 1, kBase + 0, "step")));
    decoder.decode_record(
        as_record(make_marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 2, kBase + 10, "forward")));
    CUpti_ActivityMarkerData2 data{};
    data.kind = CUPTI_ACTIVITY_KIND_MARKER_DATA;
    data.id = 2;
    decoder.decode_record(as_record(data));
    decoder.decode_record(
        as_record(make_marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 2, kBase + 50, nullptr)));
    decoder.decode_record(
        as_record(make_marker(CUPTI_ACTIVITY_FLAG_MARKER_END, 1, kBase + 90, nullptr)));
    decoder.decode_record(
        as_record(make_marker(CUPTI_ACTIVITY_FLAG_MARKER_START, 3, kBase + 95, "open")));
    EXPECT_EQ(decoder.open_markers(), 1);
    decoder.finish(kBase + 100);
    EXPECT_EQ(decoder.marker_data_records(), 1);
    ASSERT_EQ(trace_.activities.size(), 3u);
    std::map<std::string, Activity> by_name;
    for (const Activity& a : trace_.activities)
        by_name[trace_.strings.at(a.name)] = a;
    EXPECT_EQ(by_name["step"].depth, 0);
    EXPECT_EQ(by_name["step"].end_ns, 90);
    EXPECT_EQ(by_name["forward"].depth, 1);
    EXPECT_EQ(by_name["forward"].start_ns, 10);
    EXPECT_EQ(by_name["open"].end_ns, 100);  // closed at the end of the capture
    EXPECT_EQ(trace_.lanes.at(by_name["step"].lane).kind, LaneKind::Nvtx);
}

TEST_F(CuptiDecoderTest, DeviceContextSyncAndOverheadRecords) {
    CuptiActivityDecoder decoder(trace_);
    CUpti_ActivityDevice5 device{};
    device.kind = CUPTI_ACTIVITY_KIND_DEVICE;
    device.id = 0;
    device.name = "NVIDIA H100 80GB HBM3";
    device.computeCapabilityMajor = 9;
    device.computeCapabilityMinor = 0;
    device.numMultiprocessors = 132;
    CUpti_ActivityContext3 context{};
    context.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    context.contextId = 5;
    context.deviceId = 0;
    CUpti_ActivitySynchronization2 sync{};
    sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    sync.start = kBase + 1;
    sync.end = kBase + 2;
    sync.contextId = 5;
    sync.streamId = CUPTI_SYNCHRONIZATION_INVALID_VALUE;
    CUpti_ActivityOverhead3 overhead{};
    overhead.kind = CUPTI_ACTIVITY_KIND_OVERHEAD;
    overhead.overheadKind = CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH;
    overhead.objectKind = CUPTI_ACTIVITY_OBJECT_THREAD;
    overhead.start = kBase + 3;
    overhead.end = kBase + 9;
    for (const CUpti_Activity* r :
         {&as_record(device), &as_record(context), &as_record(sync), &as_record(overhead)}) {
        decoder.decode_record(*r);
    }
    EXPECT_EQ(trace_.metadata.at("device.0.name"), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(trace_.metadata.at("device.0.compute_capability"), "9.0");
    EXPECT_EQ(trace_.metadata.at("device.0.multiprocessors"), "132");
    ASSERT_EQ(trace_.activities.size(), 2u);
    EXPECT_EQ(trace_.activities[0].kind, ActivityKind::Synchronization);
    EXPECT_EQ(trace_.activities[0].device, 0);  // from the context record
    EXPECT_EQ(trace_.activities[1].kind, ActivityKind::Overhead);
    EXPECT_EQ(trace_.strings.at(trace_.activities[1].name), "CUPTI buffer flush");
}

// Buffers complete in any order: a synchronization decoded before its context's record
// is placed on the context's device when the decoding finishes.
TEST_F(CuptiDecoderTest, ASynchronizationBeforeItsContextRecordGetsTheContextsDevice) {
    CuptiActivityDecoder decoder(trace_);
    CUpti_ActivitySynchronization2 sync{};
    sync.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
    sync.start = kBase + 1;
    sync.end = kBase + 2;
    sync.contextId = 9;
    sync.streamId = 14;
    CUpti_ActivitySynchronization2 orphan = sync;
    orphan.contextId = 10;  // no context record ever comes
    CUpti_ActivityContext3 context{};
    context.kind = CUPTI_ACTIVITY_KIND_CONTEXT;
    context.contextId = 9;
    context.deviceId = 2;
    decoder.decode_record(as_record(sync));
    decoder.decode_record(as_record(orphan));
    decoder.decode_record(as_record(context));
    decoder.finish(kBase + 100);
    ASSERT_EQ(trace_.activities.size(), 2u);
    EXPECT_EQ(trace_.activities[0].device, 2);
    EXPECT_EQ(trace_.lanes.at(trace_.activities[0].lane).stream_or_thread, 14);
    EXPECT_EQ(trace_.activities[1].device, -1);
}

TEST_F(CuptiDecoderTest, UnknownKindsAreCountedNotDecoded) {
    CuptiActivityDecoder decoder(trace_);
    CUpti_ActivityAPI other{};
    other.kind = CUPTI_ACTIVITY_KIND_NAME;
    decoder.decode_record(as_record(other));
    EXPECT_TRUE(trace_.activities.empty());
    EXPECT_EQ(decoder.unknown_records(), 1);
}

// A buffer laid out as CUPTI fills it: records back to back, each the size of its
// kind's struct, iterated with cuptiActivityGetNextRecord (which needs no GPU).
TEST_F(CuptiDecoderTest, DecodesAWholeBufferThroughCuptiIteration) {
    std::vector<std::uint8_t> storage(4096 + 8);
    auto* buffer = reinterpret_cast<std::uint8_t*>(
        (reinterpret_cast<std::uintptr_t>(storage.data()) + 7) & ~std::uintptr_t{7});
    std::size_t offset = 0;
    auto append = [&](const auto& record) {
        std::memcpy(buffer + offset, &record, sizeof record);
        offset += sizeof record;
    };
    append(make_api(CUPTI_ACTIVITY_KIND_RUNTIME, 211, kBase + 10, kBase + 20, 42));
    append(make_kernel(kBase + 100, kBase + 350, 42));
    append(make_kernel(kBase + 400, kBase + 450, 43));
    CuptiActivityDecoder decoder(trace_);
    EXPECT_EQ(decoder.decode_buffer(buffer, offset), 3u);
    ASSERT_EQ(trace_.activities.size(), 3u);
    EXPECT_EQ(trace_.activities[2].start_ns, 400);
    EXPECT_EQ(decoder.decode_buffer(buffer, 0), 0u);
}

TEST(KernelNameDemangler, DemanglesItaniumNamesAndKeepsOthers) {
    EXPECT_EQ(detail::demangle_kernel_name("_Z3addPfS_i"), "add(float*, float*, int)");
    EXPECT_EQ(detail::demangle_kernel_name("ampere_sgemm_128x64_tn"), "ampere_sgemm_128x64_tn");
    EXPECT_EQ(detail::demangle_kernel_name(nullptr), "");
}

TEST(CuptiError, MessageNamesCallFileLineAndCuptiText) {
    try {
        TS_CUPTI_CHECK(cuptiActivityGetNextRecord(nullptr, 0, nullptr));
        FAIL() << "expected CuptiError";
    } catch (const CuptiError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("cuptiActivityGetNextRecord(nullptr, 0, nullptr)"), std::string::npos)
            << what;
        EXPECT_NE(what.find("CuptiActivityDecoderTest.cpp:"), std::string::npos) << what;
        EXPECT_NE(what.find("CUPTI_ERROR"), std::string::npos) << what;
        EXPECT_NE(what.find("CUPTI code " + std::to_string(static_cast<int>(e.code()))),
                  std::string::npos);
    }
    EXPECT_FALSE(TS_CUPTI_CHECK_NOEXCEPT(cuptiActivityGetNextRecord(nullptr, 0, nullptr)));
}

}  // namespace
}  // namespace trainscope::profiler
