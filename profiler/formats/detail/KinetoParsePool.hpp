#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "profiler/formats/detail/KinetoJsonReader.hpp"

namespace trainscope::profiler::detail {

// Parses the reader's batches of "traceEvents" on `workers` threads and hands their
// events to the builder in file order, so that one file's parse uses several cores: the
// reader only reads and scans (KinetoJsonReader's on_event_batch), the workers run
// simdjson and the flatten, the builder takes each batch's events as one thread would
// have passed them. Only workers + 2 batches exist (the reader waits for a free one), so
// memory stays a few batches whatever the file size.
class KinetoParsePool {
  public:
    struct Parsed {
        std::vector<KinetoRawObject> events;  // refilled in place: buffers keep capacity
        std::size_t size = 0;
        // What the parse threw after `size` events: the builder builds those, then throws.
        std::exception_ptr error;
    };

    KinetoParsePool(const std::filesystem::path& file, std::size_t workers);
    KinetoParsePool(const KinetoParsePool&) = delete;
    KinetoParsePool& operator=(const KinetoParsePool&) = delete;
    ~KinetoParsePool();  // stops and joins the workers

    // Reader: copies the batch into a free slot (waits for one) and queues its parse.
    // False once the builder stopped.
    bool submit(const KinetoEventBytes& batch);
    // Reader: no more batches will come.
    void close();

    // Builder: the next batch in file order once parsed (waits for it); nullptr once
    // closed and every batch was received.
    const Parsed* receive();
    // Builder: done with what receive gave.
    void give_back();
    // Builder: no more batches are wanted (it failed); submit says so, the workers end.
    void stop();

  private:
    struct Slot {
        std::vector<char> bytes;  // the batch and simdjson's padding
        std::size_t length = 0;
        std::uintmax_t file_offset = 0;
        Parsed parsed;
        bool done = false;
    };
    void work(const std::filesystem::path& file);

    std::mutex mutex_;
    // One condition per kind of waiter, so that a hand-over wakes only the thread that
    // can go on (waking all of them on every 64 KiB batch cost context switches).
    std::condition_variable slot_freed_;  // the reader
    std::condition_variable submitted_;   // the workers
    std::condition_variable parsed_;      // the builder
    std::vector<std::unique_ptr<Slot>> owned_;
    std::vector<Slot*> free_;
    std::deque<Slot*> to_parse_;  // submitted, no worker has taken them yet
    std::deque<Slot*> in_order_;  // submitted, not yet given back by the builder
    bool closed_ = false;
    bool stopped_ = false;
    std::vector<std::thread> workers_;  // last: they start once everything above exists
};

}  // namespace trainscope::profiler::detail
