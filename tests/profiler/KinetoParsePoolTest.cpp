// One Kineto file parsed on several threads (docs/sanitizers.md, "TSan"): the reader
// scans and hands batches of events to a pool of parsers (detail/KinetoParsePool), the
// builder takes their events in file order. The trace and the first error must be what
// one thread gives, and however the builder leaves, the reader and the workers are
// stopped and joined. In the executable the tsan preset runs.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>

#include "RecordFields.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/formats/detail/KinetoParsePool.hpp"

namespace trainscope::profiler {
namespace {

using detail::KinetoEventBytes;
using detail::KinetoParsePool;

// A JSON array of `count` events numbered from `first`, as the reader hands a batch.
std::string batch_json(int first, int count) {
    std::string json = "[";
    for (int i = first; i < first + count; ++i)
        json += (i == first ? "{\"n\": " : ", {\"n\": ") + std::to_string(i) + "}";
    return json + "]";
}

TEST(KinetoParsePool, EveryEventArrivesOnceInFileOrder) {
    for (const std::size_t workers : {std::size_t{2}, std::size_t{3}}) {
        constexpr int kBatches = 200;
        constexpr int kPerBatch = 37;
        KinetoParsePool pool("pool.json", workers);
        std::thread reader([&] {
            for (int b = 0; b < kBatches; ++b) {
                // Batches of different lengths, so that the workers finish out of order.
                const std::string json = batch_json(b * kPerBatch, b % 3 == 0 ? kPerBatch : 1);
                EXPECT_TRUE(pool.submit({json.data(), json.size(), 0}));
            }
            pool.close();
        });
        std::vector<int> seen;
        while (const KinetoParsePool::Parsed* batch = pool.receive()) {
            EXPECT_FALSE(batch->error);
            for (std::size_t i = 0; i < batch->size; ++i)
                seen.push_back(std::stoi(std::string(batch->events[i].text("n"))));
            pool.give_back();
        }
        reader.join();
        std::vector<int> expected;
        for (int b = 0; b < kBatches; ++b) {
            for (int i = 0; i < (b % 3 == 0 ? kPerBatch : 1); ++i)
                expected.push_back(b * kPerBatch + i);
        }
        EXPECT_EQ(seen, expected) << workers << " workers";
    }
}

TEST(KinetoParsePool, ABuilderThatStopsEarlyReleasesTheReader) {
    // Far more batches than the pool holds: without stop() the reader would wait forever.
    constexpr int kBatches = 1000;
    KinetoParsePool pool("pool.json", 2);
    std::atomic<int> submitted{0};
    std::thread reader([&] {
        const std::string json = batch_json(0, 10);
        for (int b = 0; b < kBatches && pool.submit({json.data(), json.size(), 0}); ++b)
            ++submitted;
        pool.close();
    });
    for (int taken = 0; taken < 2; ++taken) {
        ASSERT_NE(pool.receive(), nullptr);
        pool.give_back();
    }
    pool.stop();
    reader.join();
    EXPECT_LT(submitted.load(), kBatches);
    EXPECT_GE(submitted.load(), 2);
}

TEST(KinetoParsePool, AMalformedBatchGivesItsEventsThenItsError) {
    KinetoParsePool pool("pool.json", 2);
    const std::string good = batch_json(0, 5);
    const std::string bad = R"([{"n": 5}, {"n": 6}, {"n": 00.7}])";
    ASSERT_TRUE(pool.submit({good.data(), good.size(), 0}));
    ASSERT_TRUE(pool.submit({bad.data(), bad.size(), 1000}));
    pool.close();
    const KinetoParsePool::Parsed* first = pool.receive();
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(first->size, 5u);
    EXPECT_FALSE(first->error);
    pool.give_back();
    const KinetoParsePool::Parsed* second = pool.receive();
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->size, 2u);
    ASSERT_TRUE(second->error);
    EXPECT_THROW(std::rethrow_exception(second->error), TraceFormatError);
    pool.give_back();
    EXPECT_EQ(pool.receive(), nullptr);
}

class KinetoParsePoolImport : public ::testing::Test {
  protected:
    static constexpr int kEvents = 40'000;  // about 4 MB: some sixty batches in flight

    // Kernels on two streams (a new name every 64 events: the names' ids follow the
    // order the events are built in), the runtime calls that launched them, nested CPU
    // ops on three threads and a thread's name; event `bad` (if any) has a time that is no
    // number (`malformed`: a number that is no JSON), and so has event `malformed_at` (a
    // number that is no JSON). `escaped_key`: "traceEvents" spelled with a JSON escape,
    // which the scan does not cut into batches.
    static std::filesystem::path write(const std::string& name, int bad = -1,
                                       bool malformed = false, bool truncated = false,
                                       bool escaped_key = false, int malformed_at = -1) {
        const auto dir = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs";
        std::filesystem::create_directories(dir);
        std::string json = R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "G"}],)";
        json += escaped_key ? R"( "trace\u0045vents": [)" : R"( "traceEvents": [)";
        json +=
            R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 2, "args": {"name": "main"}})";
        for (int i = 0; i < kEvents; ++i) {
            const std::string ts = i == malformed_at ? "01.5"
                                   : i == bad        ? (malformed ? "01.5" : R"("soon")")
                                                     : std::to_string(i * 10) + ".125";
            switch (i % 4) {
                case 0:
                    json += R"(, {"ph": "X", "cat": "kernel", "name": "k)" + std::to_string(i / 64);
                    json += R"(", "pid": 0, "tid": 7, "ts": )" + ts;
                    json += R"(, "dur": 3, "args": {"stream": )" + std::to_string(7 + i % 2);
                    json += R"(, "device": 0, "correlation": )" + std::to_string(i);
                    json += R"(, "grid": [)" + std::to_string(i % 5) + R"(, 1, 1]}})";
                    break;
                case 1:
                    json += R"(, {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",)";
                    json += R"( "pid": 1, "tid": 2, "ts": )" + ts;
                    json += R"(, "dur": 2, "args": {"correlation": )" + std::to_string(i) + "}}";
                    break;
                case 2:
                    json += R"(, {"ph": "X", "cat": "cpu_op", "name": "aten::op\"q\"",)";
                    json += R"( "pid": 1, "tid": )" + std::to_string(2 + i % 3);
                    json += R"(, "ts": )" + ts + R"(, "dur": 40})";
                    break;
                default:
                    json += R"(, {"ph": "f", "name": "flow", "pid": 1, "tid": 2, "ts": )" + ts;
                    json += R"(, "args": {"shapes": [[1, 2], [3]]}})";
                    break;
            }
        }
        json += R"(], "baseTimeNanoseconds": 1000})";
        if (truncated)
            json.resize(json.size() * 3 / 4);
        const auto path = dir / name;
        std::ofstream(path, std::ios::binary) << json;
        return path;
    }

    static KinetoStreamOptions threads(std::size_t parse_threads) {
        KinetoStreamOptions options;
        options.run_capacity = 4096;  // several runs on disk
        options.parse_threads = parse_threads;
        return options;
    }

    // Activity by activity, in order: what a pool of any size must build.
    static void expect_same_activities(const Trace& many, const Trace& one) {
        ASSERT_EQ(many.activities.size(), one.activities.size());
        for (std::size_t i = 0; i < one.activities.size(); ++i)
            ASSERT_EQ(fields(many.activities[i]), fields(one.activities[i])) << "activity " << i;
    }

    static std::string error_of(const std::filesystem::path& path, std::size_t parse_threads) {
        try {
            (void)stream_kineto_trace(path, threads(parse_threads));
        } catch (const TraceFormatError& e) {
            return e.what();
        }
        return "no error";
    }
};

TEST_F(KinetoParsePoolImport, TheTraceIsOneThreadsForAnyNumberOfParsers) {
    const auto path = write("pool_whole.json");
    const Trace one = materialize(stream_kineto_trace(path, threads(1)));
    ASSERT_EQ(one.activities.size(), std::size_t{kEvents} / 4 * 3);
    for (const std::size_t parsers : {std::size_t{2}, std::size_t{3}}) {
        SCOPED_TRACE(parsers);
        const Trace many = materialize(stream_kineto_trace(path, threads(parsers)));
        expect_same_activities(many, one);
        ASSERT_EQ(many.strings.size(), one.strings.size());
        for (std::size_t i = 0; i < one.strings.size(); ++i) {
            EXPECT_EQ(many.strings.at(static_cast<StringId>(i)),
                      one.strings.at(static_cast<StringId>(i)));
        }
        ASSERT_EQ(many.lanes.size(), one.lanes.size());
        for (std::size_t i = 0; i < one.lanes.size(); ++i)
            EXPECT_EQ(fields(many.lanes[i]), fields(one.lanes[i]));
        EXPECT_EQ(many.metadata, one.metadata);
        EXPECT_EQ(std::make_tuple(many.base_ns, many.capture_begin_ns, many.capture_end_ns),
                  std::make_tuple(one.base_ns, one.capture_begin_ns, one.capture_end_ns));
    }
}

// "traceEvents" written with an escape: its events come with the rest of the document,
// after the scan, and are built as one thread builds them.
TEST_F(KinetoParsePoolImport, AnEscapedTraceEventsKeyGivesOneThreadsTrace) {
    const auto path = write("pool_escaped.json", -1, false, false, true);
    const Trace one = materialize(stream_kineto_trace(path, threads(1)));
    ASSERT_EQ(one.activities.size(), std::size_t{kEvents} / 4 * 3);
    for (const std::size_t parsers : {std::size_t{2}, std::size_t{3}}) {
        SCOPED_TRACE(parsers);
        const Trace many = materialize(stream_kineto_trace(path, threads(parsers)));
        expect_same_activities(many, one);
        EXPECT_EQ(many.metadata, one.metadata);
    }
}

// The events of an escaped key pass to the builder a few batches at a time, as on one
// thread, not held until the reader is done: the builder refuses an early one while the
// reader is still far from a malformed number late in the array, and that refusal is the
// error, as on one thread (events held until the end were built after the reader's fault).
TEST_F(KinetoParsePoolImport, AnEscapedKeysEventsAreNotHeldUntilTheEnd) {
    const auto path =
        write("pool_escaped_bad.json", kEvents / 8, false, false, true, kEvents * 7 / 8);
    const std::string expected = error_of(path, 1);
    EXPECT_NE(expected.find("no numeric \"ts\""), std::string::npos) << expected;
    EXPECT_EQ(error_of(path, 2), expected);
    EXPECT_EQ(error_of(path, 3), expected);
}

TEST_F(KinetoParsePoolImport, AnEventTheBuilderRefusesStopsAndJoinsEveryThread) {
    // The builder throws at an early event while the reader still has most of the file.
    const auto path = write("pool_bad_event.json", kEvents / 8);
    const std::string expected = error_of(path, 1);
    EXPECT_NE(expected.find("no numeric \"ts\""), std::string::npos) << expected;
    EXPECT_EQ(error_of(path, 2), expected);
    EXPECT_EQ(error_of(path, 3), expected);
}

TEST_F(KinetoParsePoolImport, MalformedJsonIsNamedAtTheSameByte) {
    const auto path = write("pool_malformed.json", kEvents / 2, true);
    const std::string expected = error_of(path, 1);
    EXPECT_NE(expected.find("malformed JSON at byte"), std::string::npos) << expected;
    EXPECT_EQ(error_of(path, 2), expected);
    EXPECT_EQ(error_of(path, 3), expected);
}

TEST_F(KinetoParsePoolImport, AReaderErrorMidFileReachesTheCaller) {
    const auto path = write("pool_truncated.json", -1, false, true);
    const std::string expected = error_of(path, 1);
    EXPECT_NE(expected.find("truncated"), std::string::npos) << expected;
    EXPECT_EQ(error_of(path, 2), expected);
}

}  // namespace
}  // namespace trainscope::profiler
