// The Kineto import's two threads (docs/sanitizers.md, "TSan"): the reader fills batches
// of flattened events, the builder empties them (detail/KinetoEventPipe), and however the
// builder leaves, the reader is stopped and joined. In the executable the tsan preset
// runs, so that every hand-over is checked for races.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <utility>

#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/formats/detail/KinetoEventPipe.hpp"

namespace trainscope::profiler {
namespace {

using detail::KinetoEventPipe;
using detail::KinetoRawObject;

// An event whose one field says its number.
void fill(KinetoRawObject& event, std::size_t number) {
    event.clear();
    event.add({}, "n", std::to_string(number), false);
}

// The reader's side: `events` events in batches, until the builder stops taking them.
// Returns how many it handed over.
std::size_t read_events(KinetoEventPipe& pipe, std::size_t events) {
    KinetoRawObject scratch;
    std::size_t sent = 0;
    KinetoEventPipe::Batch* batch = pipe.take_empty();
    while (batch != nullptr && sent < events) {
        fill(scratch, sent++);
        std::swap(batch->next_slot(), scratch);
        if (batch->size == KinetoEventPipe::kEventsPerBatch) {
            pipe.send(batch);
            batch = pipe.take_empty();
        }
    }
    if (batch != nullptr && batch->size > 0)
        pipe.send(batch);
    pipe.close();
    return sent;
}

TEST(KinetoEventPipe, EveryEventArrivesOnceInOrder) {
    constexpr std::size_t kEvents = 20 * KinetoEventPipe::kEventsPerBatch + 7;
    KinetoEventPipe pipe;
    std::size_t sent = 0;
    std::thread reader([&] { sent = read_events(pipe, kEvents); });
    std::size_t received = 0;
    while (KinetoEventPipe::Batch* batch = pipe.receive()) {
        for (std::size_t i = 0; i < batch->size; ++i)
            EXPECT_EQ(batch->items[i].text("n"), std::to_string(received++));
        pipe.give_back(batch);
    }
    reader.join();
    EXPECT_EQ(sent, kEvents);
    EXPECT_EQ(received, kEvents);
}

TEST(KinetoEventPipe, ABuilderThatStopsEarlyReleasesTheReader) {
    // Far more events than the pipe holds: without stop() the reader would wait forever
    // for an empty batch.
    constexpr std::size_t kEvents = 100 * KinetoEventPipe::kEventsPerBatch;
    KinetoEventPipe pipe;
    std::atomic<std::size_t> sent{0};
    std::thread reader([&] { sent = read_events(pipe, kEvents); });
    for (int taken = 0; taken < 2; ++taken) {
        KinetoEventPipe::Batch* batch = pipe.receive();
        ASSERT_NE(batch, nullptr);
        pipe.give_back(batch);
    }
    pipe.stop();
    reader.join();
    EXPECT_LT(sent.load(), kEvents);
    EXPECT_GE(sent.load(), 2 * KinetoEventPipe::kEventsPerBatch);
}

class KinetoEventPipeImport : public ::testing::Test {
  protected:
    static constexpr int kEvents = 40'000;  // ~80 batches: the reader runs well ahead

    // A kernel every 10 µs; event `bad` (if any) has a time that is no number.
    static std::filesystem::path write(const std::string& name, int bad = -1,
                                       bool truncated = false) {
        const auto dir = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs";
        std::filesystem::create_directories(dir);
        std::string json = R"({"schemaVersion": 1, "traceEvents": [)";
        for (int i = 0; i < kEvents; ++i) {
            json += i == 0 ? "" : ",";
            json += R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )";
            json += i == bad ? R"("soon")" : std::to_string(i * 10);
            json += R"(, "dur": 3, "args": {"stream": 7, "device": 0}})";
        }
        json += "]}";
        if (truncated)
            json.resize(json.size() * 3 / 4);
        const auto path = dir / name;
        std::ofstream(path, std::ios::binary) << json;
        return path;
    }

    static void expect_error(const std::filesystem::path& path, const std::string& needle) {
        try {
            (void)stream_kineto_trace(path);
            FAIL() << "no exception for " << path;
        } catch (const TraceFormatError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    }
};

TEST_F(KinetoEventPipeImport, AWholeFileIsBuiltFromEveryBatch) {
    const StreamedTrace trace = stream_kineto_trace(write("pipe_whole.json"), {4096});
    EXPECT_EQ(trace.activity_count, kEvents);
}

TEST_F(KinetoEventPipeImport, AnEventTheBuilderRefusesStopsAndJoinsTheReader) {
    // The builder throws at an early event while the reader still has most of the file.
    expect_error(write("pipe_bad_event.json", kEvents / 8), "no numeric \"ts\"");
}

TEST_F(KinetoEventPipeImport, AReaderErrorMidFileReachesTheCaller) {
    expect_error(write("pipe_truncated.json", -1, true), "truncated");
}

}  // namespace
}  // namespace trainscope::profiler
