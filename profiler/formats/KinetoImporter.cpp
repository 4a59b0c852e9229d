#include "profiler/formats/KinetoImporter.hpp"

#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "profiler/formats/detail/KinetoEventPipe.hpp"
#include "profiler/formats/detail/KinetoJsonReader.hpp"
#include "profiler/formats/detail/KinetoParsePool.hpp"
#include "profiler/formats/detail/KinetoTraceBuilder.hpp"

namespace trainscope::profiler {

namespace {

// Thrown inside the reading thread when the builder stopped taking events.
struct BuilderStopped {};

// What the reader delivers beside the events (device properties, top-level scalars),
// kept in the order it read them and built after every event, as on one thread.
class OutsideEvents {
  public:
    // Sets the callbacks that keep them (called on the reading thread).
    void keep_from(detail::KinetoJsonCallbacks& callbacks) {
        callbacks.on_device = [this](detail::KinetoRawObject& d) {
            kept_.push_back({true, {}, {}, {}, false});
            kept_.back().object = d;
        };
        callbacks.on_top_level_scalar = [this](std::string_view key, const detail::KinetoField& v) {
            kept_.push_back({false, {}, std::string(key), std::string(v.text), v.is_string});
        };
    }
    // After the reading thread is joined.
    void build(detail::KinetoTraceBuilder& builder) const {
        for (const Kept& k : kept_) {
            if (k.device)
                builder.add_device(k.object);
            else
                builder.add_top_level(k.key, {k.key, k.text, k.is_string});
        }
    }

  private:
    struct Kept {
        bool device = false;
        detail::KinetoRawObject object;  // a device
        std::string key;                 // a scalar
        std::string text;
        bool is_string = false;
    };
    std::vector<Kept> kept_;
};

// The reading thread's end of a KinetoEventPipe: events go to the builder a batch at a
// time, so only the pipe's few batches are held whatever the number of events.
class PipeFeeder {
  public:
    explicit PipeFeeder(detail::KinetoEventPipe& pipe) : pipe_(pipe) {}
    // Throws BuilderStopped once the builder stopped taking events.
    void add(detail::KinetoRawObject& e) {
        if (batch_ == nullptr && (batch_ = pipe_.take_empty()) == nullptr)
            throw BuilderStopped{};
        std::swap(batch_->next_slot(), e);
        if (batch_->size == detail::KinetoEventPipe::kEventsPerBatch) {
            pipe_.send(batch_);
            batch_ = nullptr;
        }
    }
    // The events taken so far are sent (those before a fault are built first, as on one
    // thread: an event the builder refuses earlier in the file is the error to report), and
    // the pipe closed.
    void close() {
        if (batch_ != nullptr && batch_->size > 0)
            pipe_.send(batch_);
        batch_ = nullptr;
        pipe_.close();
    }

  private:
    detail::KinetoEventPipe& pipe_;
    detail::KinetoEventPipe::Batch* batch_ = nullptr;
};

// The builder's end: every event the pipe passes, in order, until it is closed.
void build_from(detail::KinetoEventPipe& pipe, detail::KinetoTraceBuilder& builder) {
    while (detail::KinetoEventPipe::Batch* batch = pipe.receive()) {
        for (std::size_t i = 0; i < batch->size; ++i)
            builder.add_event(batch->items[i]);
        pipe.give_back(batch);
    }
}

// Reads the file on a thread of its own and builds on the caller's: the builder sees
// exactly the calls the reader would make on one thread, in the same order.
void read_beside_builder(const std::filesystem::path& file, detail::KinetoTraceBuilder& builder) {
    detail::KinetoEventPipe pipe;
    std::exception_ptr reader_error;
    OutsideEvents outside;
    std::thread reader([&] {
        PipeFeeder events(pipe);
        try {
            detail::KinetoJsonCallbacks callbacks;
            callbacks.on_event = [&events](detail::KinetoRawObject& e) { events.add(e); };
            outside.keep_from(callbacks);
            detail::read_kineto_json(file, callbacks);
        } catch (const BuilderStopped&) {
        } catch (...) {
            reader_error = std::current_exception();
        }
        events.close();
    });
    // However the builder leaves (an event it refuses), the reader is stopped and joined.
    struct JoinReader {
        detail::KinetoEventPipe& pipe;
        std::thread& reader;
        ~JoinReader() {
            pipe.stop();
            if (reader.joinable())
                reader.join();
        }
    } join{pipe, reader};
    build_from(pipe, builder);
    pipe.stop();
    if (reader.joinable())
        reader.join();
    if (reader_error)
        std::rethrow_exception(reader_error);
    outside.build(builder);
}

// The same with the parse on `parse_threads` workers (KinetoParsePool): the reading
// thread only reads and scans, and the builder takes the batches in file order, so it
// still sees exactly the calls one thread would make, in the same order.
void read_parsed_in_parallel(const std::filesystem::path& file, std::size_t parse_threads,
                             detail::KinetoTraceBuilder& builder) {
    detail::KinetoParsePool pool(file, parse_threads);
    // Events of a "traceEvents" key written with escapes, which the scan does not cut into
    // batches: read with the rest of the document after every batch, so built after them,
    // through a pipe as on one thread (a few batches held, not every such event).
    detail::KinetoEventPipe trailing;
    std::exception_ptr reader_error;
    OutsideEvents outside;
    std::thread reader([&] {
        PipeFeeder events(trailing);
        // close() locks the pool and wakes its workers: once, not for every escaped event.
        bool pool_closed = false;
        const auto close_pool = [&] {
            if (!pool_closed)
                pool.close();
            pool_closed = true;
        };
        try {
            detail::KinetoJsonCallbacks callbacks;
            callbacks.on_event_batch = [&](const detail::KinetoEventBytes& batch) {
                if (!pool.submit(batch))
                    throw BuilderStopped{};
            };
            callbacks.on_event = [&](detail::KinetoRawObject& e) {
                // Every batch is submitted by now: the builder takes them, then these.
                close_pool();
                events.add(e);
            };
            outside.keep_from(callbacks);
            detail::read_kineto_json(file, callbacks);
        } catch (const BuilderStopped&) {
        } catch (...) {
            reader_error = std::current_exception();
        }
        // The batches and events read before a fault are built first, as on one thread.
        close_pool();
        events.close();
    });
    // However the builder leaves (an event it refuses), the pool, the pipe and the reader
    // stop.
    struct JoinReader {
        detail::KinetoParsePool& pool;
        detail::KinetoEventPipe& trailing;
        std::thread& reader;
        ~JoinReader() {
            pool.stop();
            trailing.stop();
            if (reader.joinable())
                reader.join();
        }
    } join{pool, trailing, reader};
    while (const detail::KinetoParsePool::Parsed* batch = pool.receive()) {
        for (std::size_t i = 0; i < batch->size; ++i)
            builder.add_event(batch->events[i]);
        if (batch->error)
            std::rethrow_exception(batch->error);
        pool.give_back();
    }
    build_from(trailing, builder);
    reader.join();
    if (reader_error)
        std::rethrow_exception(reader_error);
    outside.build(builder);
}

}  // namespace

StreamedTrace stream_kineto_trace(const std::filesystem::path& file,
                                  const KinetoStreamOptions& options) {
    detail::KinetoTraceBuilder builder(file, options.run_capacity, options.one_run);
    if (options.parse_threads > 1)
        read_parsed_in_parallel(file, options.parse_threads, builder);
    else
        read_beside_builder(file, builder);
    return std::move(builder).finish();
}

Trace import_kineto_trace(const std::filesystem::path& file) {
    return materialize(stream_kineto_trace(file));
}

}  // namespace trainscope::profiler
