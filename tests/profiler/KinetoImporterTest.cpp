#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <fstream>
#include <set>

#include "TraceFixtures.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope::profiler {
namespace {

using testing::kineto_fixture;
using testing::totals_of;

struct ReadmeRow {
    const char* stem;
    std::int64_t kernels;
    std::int64_t kernel_ns;
    std::set<std::int64_t> streams;
    std::int64_t memcpy_count;
    std::int64_t memcpy_bytes;  // -1: the README does not say
    std::int64_t memset_count;
};

// The table "Facts about them you can test against" in ../shared/traces/README.md.
const ReadmeRow kReadme[] = {
    {"h100_bert_small_inference", 60, 307197, {7}, 1, -1, 0},
    {"h100_vit_image_classification", 154, 1220926, {7}, 0, -1, 2},
    {"v100_resnet50_training", 8772, 591532000, {7}, 12, 115607040, 312},
    {"a100_two_streams_add", 79, 10728000, {7, 20}, 16, -1, 3},
};

class KinetoReadmeFacts : public ::testing::TestWithParam<ReadmeRow> {};

TEST_P(KinetoReadmeFacts, CountsAndTotalsMatchTheReadme) {
    const ReadmeRow& row = GetParam();
    const Trace& trace = kineto_fixture(row.stem);
    const auto kernels = totals_of(trace, ActivityKind::Kernel);
    EXPECT_EQ(kernels.count, row.kernels);
    EXPECT_EQ(kernels.duration_ns, row.kernel_ns);
    const auto memcpy = totals_of(trace, ActivityKind::Memcpy);
    EXPECT_EQ(memcpy.count, row.memcpy_count);
    if (row.memcpy_bytes >= 0) {
        EXPECT_EQ(memcpy.bytes, row.memcpy_bytes);
    }
    EXPECT_EQ(totals_of(trace, ActivityKind::Memset).count, row.memset_count);

    std::set<std::int64_t> streams;
    for (const Activity& a : trace.activities) {
        if (a.kind == ActivityKind::Kernel)
            streams.insert(trace.lanes.at(a.lane).stream_or_thread);
    }
    EXPECT_EQ(streams, row.streams);
    EXPECT_EQ(trace.metadata.at("source.format"), "kineto");
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, KinetoReadmeFacts, ::testing::ValuesIn(kReadme),
                         [](const auto& param_info) { return std::string(param_info.param.stem); });

TEST(KinetoImporter, ResNetHas67DistinctKernelNamesAndLegacyStyle) {
    const Trace& trace = kineto_fixture("v100_resnet50_training");
    std::set<StringId> names;
    for (const Activity& a : trace.activities) {
        if (a.kind == ActivityKind::Kernel)
            names.insert(a.name);
    }
    EXPECT_EQ(names.size(), 67u);
    EXPECT_EQ(trace.metadata.at("kineto.time_resolution"), "integer microseconds");
    EXPECT_EQ(trace.metadata.at("kineto.category_style"), "capitalised (PyTorch 1.x)");
    EXPECT_EQ(trace.metadata.at("device.0.name"), "Tesla V100-DGXS-32GB");
}

TEST(KinetoImporter, KeepsKernelLaunchDetailsAndExactNanoseconds) {
    const Trace& trace = kineto_fixture("h100_bert_small_inference");
    EXPECT_EQ(trace.metadata.at("device.0.name"), "NVIDIA H100 80GB HBM3");
    EXPECT_EQ(trace.metadata.at("kineto.time_resolution"),
              "fractional microseconds (ns resolution)");
    EXPECT_EQ(trace.source_clock_offset_ns, 1751410836000000000);
    // The indexSelectLargeIndex kernel: ts 1419247332972.313 is the first event's time;
    // the kernel starts at 1419247333430.849 µs, lasts 3.136 µs, correlation 8218.
    bool found = false;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::Kernel || a.correlation != 8218)
            continue;
        found = true;
        EXPECT_EQ(a.duration_ns(), 3136);
        EXPECT_EQ(trace.base_ns - trace.source_clock_offset_ns + a.start_ns, 1419247333430849);
        EXPECT_EQ(a.grid, (std::array<std::int32_t, 3>{564, 1, 1}));
        EXPECT_EQ(a.block, (std::array<std::int32_t, 3>{128, 1, 1}));
        EXPECT_EQ(a.registers_per_thread, 32);
        EXPECT_EQ(a.device, 0);
    }
    EXPECT_TRUE(found);
    // The launching call with the same correlation is on a host lane.
    bool launch_found = false;
    for (const Activity& a : trace.activities) {
        if (a.correlation == 8218 && a.kind != ActivityKind::Kernel) {
            launch_found = true;
            EXPECT_TRUE(a.kind == ActivityKind::RuntimeApi || a.kind == ActivityKind::DriverApi);
            EXPECT_EQ(trace.lanes.at(a.lane).kind, LaneKind::HostThread);
        }
    }
    EXPECT_TRUE(launch_found);
}

TEST(KinetoImporter, MemcpyKeepsBytesAndDirection) {
    const Trace& trace = kineto_fixture("h100_bert_small_inference");
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::Memcpy)
            continue;
        EXPECT_EQ(a.copy_kind, CopyKind::DeviceToHost);
        EXPECT_EQ(a.bytes, 1);
        EXPECT_EQ(a.duration_ns(), 2240);
    }
}

TEST(KinetoImporter, UserAnnotationsBecomeNestedNvtxRanges) {
    const Trace& trace = kineto_fixture("a100_two_streams_add");
    int ranges = 0;
    int nested = 0;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::NvtxRange)
            continue;
        ++ranges;
        EXPECT_EQ(trace.lanes.at(a.lane).kind, LaneKind::Nvtx);
        if (a.depth > 0)
            ++nested;
    }
    EXPECT_EQ(ranges, 8);  // the file's 8 user_annotation events
    EXPECT_GT(nested, 0);  // "[param|cuda]" encloses the others
}

// --- malformed inputs -------------------------------------------------------------

class KinetoBadInput : public ::testing::Test {
  protected:
    std::filesystem::path write(const std::string& name, const std::string& content) {
        const auto dir = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs";
        std::filesystem::create_directories(dir);
        const auto path = dir / name;
        std::ofstream(path, std::ios::binary) << content;
        return path;
    }
    static void expect_format_error(const std::filesystem::path& path, const std::string& needle) {
        try {
            (void)import_kineto_trace(path);
            FAIL() << "no exception for " << path;
        } catch (const TraceFormatError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(path.string()), std::string::npos) << what;
            EXPECT_NE(what.find(needle), std::string::npos) << what;
            EXPECT_EQ(e.file(), path);
        }
    }
};

TEST_F(KinetoBadInput, MissingFile) {
    expect_format_error(std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "no_such_trace.json",
                        "no such file");
}

TEST_F(KinetoBadInput, EmptyFile) {
    expect_format_error(write("empty.json", ""), "empty");
}

TEST_F(KinetoBadInput, TruncatedJson) {
    expect_format_error(
        write("truncated.json", R"({"traceEvents": [{"ph": "X", "cat": "kernel", "ts": 1)"),
        "malformed JSON");
}

TEST_F(KinetoBadInput, NotATrace) {
    expect_format_error(write("array.json", "[1, 2, 3]"), "traceEvents");
    expect_format_error(write("object.json", R"({"a": 1})"), "traceEvents");
}

TEST_F(KinetoBadInput, HugeTimestamp) {
    expect_format_error(
        write(
            "huge.json",
            R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1e300, "dur": 1}]})"),
        "int64");
    expect_format_error(
        write(
            "huge_sum.json",
            R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 9223372036854775.000, "dur": 1}]})"),
        "overflow");
}

TEST_F(KinetoBadInput, TimestampThatIsNotANumber) {
    expect_format_error(
        write("string_ts.json",
              R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": "soon"}]})"),
        "ts");
}

// The reader cuts "traceEvents" into batches at the commas between events while it
// streams the file in 2 MiB pieces: names full of what looks like structure ("},{",
// "]", escaped quotes, backslashes) must neither end an event nor hide one, wherever a
// piece ends. Metadata before and after the events is read too.
TEST_F(KinetoBadInput, StreamedBatchesKeepEveryEventWhateverItsNameHolds) {
    const std::vector<std::string> tricky = {
        R"(k},{\"ph\":\"X\"})", R"(k\"],[\"x)", R"(k\\)", R"(k\\\"{)", "k,\\u005d,", "plain"};
    const std::vector<std::string> decoded = {R"(k},{"ph":"X"})", R"(k"],["x)", R"(k\)",
                                              R"(k\"{)",          "k,],",       "plain"};
    std::string json = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "G"}],)"
                       "\n\"traceEvents\": [\n";
    constexpr int kEvents = 60000;  // about 6 MB: several pieces and batches
    for (int i = 0; i < kEvents; ++i) {
        json += i ? ",\n" : "";
        json += R"({"ph": "X", "cat": "kernel", "name": ")" + tricky[i % tricky.size()] +
                R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(i * 10) +
                R"(, "dur": 3, "args": {"stream": 7, "grid": [1, 2, 3], "shape": [[1], [2]]}})";
    }
    json += "\n], \"traceName\": \"t\", \"distributedInfo\": {\"rank\": 3}}\n";
    const Trace trace = import_kineto_trace(write("tricky.json", json));
    ASSERT_EQ(trace.activities.size(), static_cast<std::size_t>(kEvents));
    std::vector<int> seen(decoded.size());
    for (const Activity& a : trace.activities) {
        const std::string& name = trace.strings.at(a.name);
        const auto at = std::find(decoded.begin(), decoded.end(), name);
        ASSERT_NE(at, decoded.end()) << name;
        ++seen[static_cast<std::size_t>(at - decoded.begin())];
        EXPECT_EQ(a.duration_ns(), 3000);
        EXPECT_EQ(a.grid[2], 3);
    }
    for (const int n : seen)
        EXPECT_EQ(n, kEvents / static_cast<int>(decoded.size()));
    EXPECT_EQ(trace.metadata.at("device.0.name"), "G");
    EXPECT_EQ(trace.metadata.at("kineto.traceName"), "t");
    EXPECT_EQ(trace.metadata.at("distributed.rank"), "3");
}

TEST_F(KinetoBadInput, EmptyElementsAndMismatchedBracketsAreMalformed) {
    const std::string event = R"({"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 1})";
    expect_format_error(write("trailing_comma.json", "{\"traceEvents\": [" + event + ",]}"),
                        "malformed JSON");
    expect_format_error(
        write("double_comma.json", "{\"traceEvents\": [" + event + ",," + event + "]}"),
        "malformed JSON");
    expect_format_error(write("leading_comma.json", "{\"traceEvents\": [," + event + "]}"),
                        "malformed JSON");
    expect_format_error(write("no_comma.json", "{\"traceEvents\": [" + event + event + "]}"),
                        "malformed JSON");
    expect_format_error(write("mismatch.json", "{\"traceEvents\": [" + event + "}}"),
                        "malformed JSON");
    expect_format_error(write("after_end.json", "{\"traceEvents\": []} x"), "malformed JSON");
    // A lost quote turns the rest of the array inside out; simdjson refuses the batch
    // before any document exists (this once crashed asking it where).
    expect_format_error(
        write("lost_quote.json", R"({"traceEvents": [{"ph": "X, "cat": "kernel"}, {"a": 1}]})"),
        "malformed JSON");
    // Numbers are checked where they are kept and where they are not (shapes nested
    // deeper than the importer reads), as the whole-document parser did.
    expect_format_error(
        write("leading_zero.json", R"({"traceEvents": [{"ph": "X", "ts": 1, "dur": 00.5}]})"),
        "malformed JSON");
    expect_format_error(
        write("deep_number.json", R"({"traceEvents": [{"ph": "X", "args": {"s": [[1, [2.]]]}}]})"),
        "malformed JSON");
    expect_format_error(write("outside_number.json", R"({"x": {"y": [01]}, "traceEvents": []})"),
                        "malformed JSON");
    const Trace empty = import_kineto_trace(write("no_events.json", "{\"traceEvents\": [ ]}"));
    EXPECT_TRUE(empty.activities.empty());
}

TEST_F(KinetoBadInput, TruncatedGzip) {
    // Compress a valid trace, then cut the stream in half.
    const std::string json =
        R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, "args": {"stream": 7}}]})";
    const auto full =
        std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs" / "full.json.gz";
    std::filesystem::create_directories(full.parent_path());
    gzFile gz = gzopen(full.c_str(), "wb");
    ASSERT_NE(gz, nullptr);
    gzwrite(gz, json.data(), static_cast<unsigned>(json.size()));
    gzclose(gz);
    const Trace ok = import_kineto_trace(full);
    EXPECT_EQ(totals_of(ok, ActivityKind::Kernel).count, 1);

    std::ifstream in(full, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    expect_format_error(write("cut.json.gz", bytes.substr(0, bytes.size() / 2)), "truncated");
}

}  // namespace
}  // namespace trainscope::profiler
