#include <gtest/gtest.h>

#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "HandBuiltTrace.hpp"
#include "TraceFixtures.hpp"
#include "profiler/formats/ChromeTraceWriter.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler {
namespace {

using testing::HandBuiltTrace;
using testing::totals_of;

// WritesTheDocumentItAlwaysWrote's document.
constexpr const char* kSmallDocument =
    R"json({"schemaVersion":1,"displayTimeUnit":"ns","otherData":{"base_ns":0,"source":"test"},
"traceEvents":[
{"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"NVTX · main thread"}},
{"ph":"M","name":"thread_sort_index","pid":1,"tid":1,"args":{"sort_index":0}},
{"ph":"M","name":"thread_name","pid":1,"tid":2,"args":{"name":"CPU · main thread"}},
{"ph":"M","name":"thread_sort_index","pid":1,"tid":2,"args":{"sort_index":1}},
{"ph":"M","name":"thread_name","pid":1000000000,"tid":3,"args":{"name":"GPU 0 · stream 7"}},
{"ph":"M","name":"thread_sort_index","pid":1000000000,"tid":3,"args":{"sort_index":2}},
{"ph":"M","name":"thread_name","pid":1,"tid":4,"args":{"name":"CPU · thread 9"}},
{"ph":"M","name":"thread_sort_index","pid":1,"tid":4,"args":{"sort_index":3}},
{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"process 1"}},
{"ph":"M","name":"process_sort_index","pid":1,"tid":0,"args":{"sort_index":1001}},
{"ph":"M","name":"process_name","pid":1000000000,"tid":0,"args":{"name":"GPU 0"}},
{"ph":"M","name":"process_sort_index","pid":1000000000,"tid":0,"args":{"sort_index":0}},
{"ph":"X","cat":"user_annotation","name":"step","pid":1,"tid":1,"ts":0.000,"dur":10.000,"args":{"depth":0}},
{"ph":"X","cat":"user_annotation","name":"forward","pid":1,"tid":1,"ts":1.000,"dur":4.000,"args":{"depth":1}},
{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":2,"ts":1.500,"dur":0.200,"args":{"correlation":42,"depth":0}},
{"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":2,"ts":6.000,"dur":0.100,"args":{"correlation":43,"depth":0}},
{"ph":"X","cat":"kernel","name":"gemm_kernel","pid":1000000000,"tid":3,"ts":2.001,"dur":2.122,"args":{"correlation":42,"device":0,"stream":7,"grid":[64,2,1],"block":[256,1,1],"registers per thread":96,"shared memory":49152,"graph id":5}},
{"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pinned -> Device)","pid":1000000000,"tid":3,"ts":6.200,"dur":1.000,"args":{"correlation":43,"device":0,"stream":7,"bytes":1048576,"copy kind":"HtoD"}},
{"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":4,"ts":8.000,"dur":0.500,"args":{"depth":2}},
{"ph":"s","cat":"ac2g","name":"ac2g","id":1,"pid":1,"tid":2,"ts":1.500},
{"ph":"f","bp":"e","cat":"ac2g","name":"ac2g","id":1,"pid":1000000000,"tid":3,"ts":2.001},
{"ph":"s","cat":"ac2g","name":"ac2g","id":2,"pid":1,"tid":2,"ts":6.000},
{"ph":"f","bp":"e","cat":"ac2g","name":"ac2g","id":2,"pid":1000000000,"tid":3,"ts":6.200}
]}
)json";

nlohmann::json export_and_parse(const Trace& trace) {
    std::ostringstream out;
    write_chrome_trace(trace, out);
    return nlohmann::json::parse(out.str());
}

HandBuiltTrace launch_trace() {
    HandBuiltTrace t;
    t.nvtx_range(1, "step", 0, 10'000);
    t.nvtx_range(1, "forward", 1'000, 5'000);
    t.runtime_call(1, "cudaLaunchKernel", 1'500, 1'700, 42);
    t.kernel(0, 7, "gemm_kernel", 2'001, 4'123, 42);
    Activity& k = t.trace().activities.back();
    k.grid = {64, 2, 1};
    k.block = {256, 1, 1};
    k.registers_per_thread = 96;
    k.shared_memory_bytes = 49152;
    t.runtime_call(1, "cudaMemcpyAsync", 6'000, 6'100, 43);
    t.memcpy(0, 7, 6'200, 7'200, 1 << 20, 43);
    assign_nesting_depths(t.trace());
    return t;
}

TEST(ChromeTraceWriter, NamesLanesAndKeepsKernelArgsWithNanosecondTimes) {
    auto t = launch_trace();
    const auto doc = export_and_parse(t.trace());
    std::map<std::string, int> thread_names;
    const nlohmann::json* kernel = nullptr;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "thread_name")
            ++thread_names[e["args"]["name"].get<std::string>()];
        if (e["ph"] == "X" && e["cat"] == "kernel")
            kernel = &e;
    }
    EXPECT_EQ(thread_names.size(), 3u);  // GPU stream, host thread, NVTX
    ASSERT_NE(kernel, nullptr);
    EXPECT_DOUBLE_EQ((*kernel)["ts"].get<double>(), 2.001);
    EXPECT_DOUBLE_EQ((*kernel)["dur"].get<double>(), 2.122);
    EXPECT_EQ((*kernel)["args"]["grid"], nlohmann::json::array({64, 2, 1}));
    EXPECT_EQ((*kernel)["args"]["block"], nlohmann::json::array({256, 1, 1}));
    EXPECT_EQ((*kernel)["args"]["registers per thread"], 96);
    EXPECT_EQ((*kernel)["args"]["shared memory"], 49152);
    EXPECT_EQ((*kernel)["args"]["correlation"], 42);
}

// Times are written as microsecond text from the integer nanoseconds: the fraction keeps
// its digits in place and its leading zeros, a time before the trace's base keeps its
// sign, and large integers (a 64-bit correlation id) are written exactly.
TEST(ChromeTraceWriter, WritesExactMicrosecondsAndIntegersAsText) {
    HandBuiltTrace t;
    t.kernel(0, 7, "early", -1'234'567, -5, 18'446'744'073'709'551'615ull);
    t.kernel(0, 7, "just before", -5, 0, 1);
    t.kernel(0, 7, "late", 7, 1'000'000'000'007, 2);
    t.kernel(0, 7, "first ever", std::numeric_limits<std::int64_t>::min(), -1, 3);
    std::ostringstream out;
    write_chrome_trace(t.trace(), out);
    const std::string text = out.str();
    EXPECT_NE(text.find(R"("ts":-1234.567,"dur":1234.562,)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("ts":-0.005,"dur":0.005,)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("ts":0.007,"dur":1000000000.000,)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("ts":-9223372036854775.808,)"), std::string::npos) << text;
    EXPECT_NE(text.find(R"("correlation":18446744073709551615)"), std::string::npos) << text;
    EXPECT_TRUE(nlohmann::json::accept(text));
}

// The whole document of a small trace, byte for byte: every kind of field (metadata, lane
// names and order, a kernel's launch configuration and graph, a copy's bytes and kind, a
// host op's depth, the flows). The bytes are those the writer wrote when it inserted each
// field into the ostream (before it formatted into a buffer), checked equal then on every
// shared trace.
TEST(ChromeTraceWriter, WritesTheDocumentItAlwaysWrote) {
    HandBuiltTrace t = launch_trace();
    for (Activity& a : t.trace().activities) {
        if (a.kind == ActivityKind::Kernel)
            a.graph_id = 5;
    }
    t.host_op(9, "aten::add", 8'000, 8'500, 2);
    t.trace().metadata["source"] = "test";
    std::ostringstream out;
    write_chrome_trace(t.trace(), out);
    EXPECT_EQ(out.str(), kSmallDocument);
}

TEST(ChromeTraceWriter, NvtxRangesNestOnTheirTrack) {
    auto t = launch_trace();
    const auto doc = export_and_parse(t.trace());
    std::map<std::string, nlohmann::json> ranges;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "X" && e["cat"] == "user_annotation")
            ranges[e["name"].get<std::string>()] = e;
    }
    ASSERT_EQ(ranges.size(), 2u);
    const auto& outer = ranges["step"];
    const auto& inner = ranges["forward"];
    EXPECT_EQ(outer["tid"], inner["tid"]);
    EXPECT_EQ(outer["args"]["depth"], 0);
    EXPECT_EQ(inner["args"]["depth"], 1);
    EXPECT_LE(outer["ts"].get<double>(), inner["ts"].get<double>());
    EXPECT_GE(outer["ts"].get<double>() + outer["dur"].get<double>(),
              inner["ts"].get<double>() + inner["dur"].get<double>());
}

TEST(ChromeTraceWriter, FlowsGoFromTheLaunchToTheGpuWork) {
    auto t = launch_trace();
    const auto doc = export_and_parse(t.trace());
    std::map<std::uint64_t, nlohmann::json> starts;
    std::map<std::uint64_t, nlohmann::json> finishes;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> track_of_x;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "s")
            starts[e["id"].get<std::uint64_t>()] = e;
        if (e["ph"] == "f")
            finishes[e["id"].get<std::uint64_t>()] = e;
        if (e["ph"] == "X")
            track_of_x[{e["pid"].get<std::int64_t>(), e["tid"].get<std::int64_t>()}] = e["cat"];
    }
    ASSERT_EQ(starts.size(), 2u);
    ASSERT_EQ(finishes.size(), 2u);
    for (const auto& [id, s] : starts) {
        ASSERT_TRUE(finishes.count(id)) << id;
        const auto& f = finishes[id];
        EXPECT_EQ(f["bp"], "e");
        const std::pair<std::int64_t, std::int64_t> source{s["pid"].get<std::int64_t>(),
                                                           s["tid"].get<std::int64_t>()};
        EXPECT_EQ(track_of_x[source], "cuda_runtime");
        const std::string target =
            track_of_x[{f["pid"].get<std::int64_t>(), f["tid"].get<std::int64_t>()}];
        EXPECT_TRUE(target == "kernel" || target == "gpu_memcpy") << target;
        EXPECT_LT(s["ts"].get<double>(), f["ts"].get<double>());
    }
}

TEST(ChromeTraceWriter, RoundTripsThroughTheKinetoImporter) {
    const Trace& original = testing::kineto_fixture("h100_bert_small_inference");
    const auto path =
        std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs" / "bert_chrome.json";
    std::filesystem::create_directories(path.parent_path());
    write_chrome_trace(original, path);
    EXPECT_FALSE(std::filesystem::exists(path.string() + ".tmp"));
    const Trace copy = import_kineto_trace(path);
    for (const ActivityKind kind :
         {ActivityKind::Kernel, ActivityKind::Memcpy, ActivityKind::RuntimeApi,
          ActivityKind::DriverApi, ActivityKind::NvtxRange, ActivityKind::HostOp}) {
        const auto a = totals_of(original, kind);
        const auto b = totals_of(copy, kind);
        EXPECT_EQ(a.count, b.count) << to_string(kind);
        EXPECT_EQ(a.duration_ns, b.duration_ns) << to_string(kind);
        EXPECT_EQ(a.bytes, b.bytes) << to_string(kind);
    }
}

}  // namespace
}  // namespace trainscope::profiler

namespace trainscope::profiler {
namespace {

// Two ranks on two nodes may share a pid and a device ordinal: the export keeps them in
// processes of their own, named by rank.
TEST(ChromeTraceWriter, RanksOfAJobAreProcessesOfTheirOwn) {
    Trace trace;
    trace.world_size = 2;
    LaneRegistry rank0(trace, 0);
    LaneRegistry rank1(trace, 1);
    const LaneId host0 = rank0.host_thread(77, 77);
    const LaneId host1 = rank1.host_thread(77, 77);
    const LaneId gpu0 = rank0.gpu_stream(0, 7);
    const LaneId gpu1 = rank1.gpu_stream(0, 7);
    const StringId name = trace.strings.intern("work");
    for (const LaneId lane : {host0, host1, gpu0, gpu1}) {
        Activity a;
        a.lane = lane;
        a.name = name;
        a.start_ns = 0;
        a.end_ns = 10;
        a.kind = trace.lanes[lane].device >= 0 ? ActivityKind::Kernel : ActivityKind::HostOp;
        trace.activities.push_back(a);
    }
    const auto doc = export_and_parse(trace);
    std::map<std::int64_t, std::string> process_names;
    std::set<std::int64_t> work_pids;
    for (const auto& e : doc["traceEvents"]) {
        if (e["ph"] == "M" && e["name"] == "process_name")
            process_names[e["pid"].get<std::int64_t>()] = e["args"]["name"].get<std::string>();
        if (e["ph"] == "X")
            work_pids.insert(e["pid"].get<std::int64_t>());
    }
    EXPECT_EQ(work_pids.size(), 4u);
    std::set<std::string> names;
    for (const auto& [pid, text] : process_names)
        names.insert(text);
    EXPECT_EQ(names, (std::set<std::string>{"rank 0 · GPU 0", "rank 1 · GPU 0",
                                            "rank 0 · process 77", "rank 1 · process 77"}));
}

}  // namespace
}  // namespace trainscope::profiler
