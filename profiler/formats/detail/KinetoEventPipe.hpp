#pragma once

#include <condition_variable>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "profiler/formats/detail/KinetoJsonReader.hpp"

namespace trainscope::profiler::detail {

// Flattened events handed from the thread that reads a Kineto file (inflate, scan,
// simdjson, flatten) to the one that builds the trace, a batch at a time, so that one
// file keeps two cores busy. Only kBatches batches exist: the reader waits for the
// builder, and memory stays a few megabytes.
class KinetoEventPipe {
  public:
    static constexpr std::size_t kBatches = 4;
    static constexpr std::size_t kEventsPerBatch = 512;

    struct Batch {
        std::vector<KinetoRawObject> events;  // refilled in place: buffers keep capacity
        std::size_t size = 0;
        // Takes the event's content, leaving it an object emptied earlier (its buffer
        // keeps its capacity for the reader's next event).
        void take(KinetoRawObject& event);
    };

    KinetoEventPipe();

    // Reader: an empty batch to fill (waits for one); nullptr once the builder stopped.
    Batch* take_empty();
    void send(Batch* filled);
    // Reader: no more batches will come.
    void close();

    // Builder: the next filled batch (waits for one); nullptr once closed and drained.
    Batch* receive();
    void give_back(Batch* emptied);
    // Builder: no more batches are wanted (it failed); the reader's take_empty says so.
    void stop();

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::unique_ptr<Batch>> owned_;
    std::vector<Batch*> empty_;
    std::vector<Batch*> filled_;  // oldest first
    std::size_t next_filled_ = 0;
    bool closed_ = false;
    bool stopped_ = false;
};

}  // namespace trainscope::profiler::detail
