#include "profiler/formats/KinetoImporter.hpp"

#include <exception>
#include <string>
#include <string_view>
#include <thread>
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
            kept_.push_back({true, {}, {}, {}});
            detail::copy_into(kept_.back().object, d);
        };
        callbacks.on_top_level_scalar = [this](std::string_view key, const detail::KinetoField& v) {
            kept_.push_back({false, {}, std::string(key), v});
        };
    }
    // After the reading thread is joined.
    void build(detail::KinetoTraceBuilder& builder) const {
        for (const Kept& k : kept_) {
            if (k.device)
                builder.add_device(k.object);
            else
                builder.add_top_level(k.key, k.value);
        }
    }

  private:
    struct Kept {
        bool device = false;
        detail::KinetoRawObject object;  // a device
        std::string key;                 // a scalar
        detail::KinetoField value;
    };
    std::vector<Kept> kept_;
};

// Reads the file on a thread of its own and builds on the caller's: the builder sees
// exactly the calls the reader would make on one thread, in the same order.
void read_beside_builder(const std::filesystem::path& file, detail::KinetoTraceBuilder& builder) {
    detail::KinetoEventPipe pipe;
    std::exception_ptr reader_error;
    OutsideEvents outside;
    std::thread reader([&] {
        detail::KinetoEventPipe::Batch* batch = nullptr;
        try {
            batch = pipe.take_empty();
            detail::KinetoJsonCallbacks callbacks;
            callbacks.on_event = [&](detail::KinetoRawObject& e) {
                if (batch == nullptr)
                    throw BuilderStopped{};
                batch->take(e);
                if (batch->size == detail::KinetoEventPipe::kEventsPerBatch) {
                    pipe.send(batch);
                    batch = pipe.take_empty();
                }
            };
            outside.keep_from(callbacks);
            detail::read_kineto_json(file, callbacks);
        } catch (const BuilderStopped&) {
        } catch (...) {
            reader_error = std::current_exception();
        }
        // The events read before a fault are built first, as on one thread: an event
        // the builder refuses earlier in the file is the error to report.
        if (batch != nullptr && batch->size > 0)
            pipe.send(batch);
        pipe.close();
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
    while (detail::KinetoEventPipe::Batch* batch = pipe.receive()) {
        for (std::size_t i = 0; i < batch->size; ++i)
            builder.add_event(batch->events[i]);
        pipe.give_back(batch);
    }
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
    std::exception_ptr reader_error;
    OutsideEvents outside;
    // Events of a "traceEvents" key written with escapes: read with the rest of the
    // document after every batch, so built after them.
    std::vector<detail::KinetoRawObject> trailing;
    std::thread reader([&] {
        try {
            detail::KinetoJsonCallbacks callbacks;
            callbacks.on_event_batch = [&](const detail::KinetoEventBytes& batch) {
                if (!pool.submit(batch))
                    throw BuilderStopped{};
            };
            callbacks.on_event = [&](detail::KinetoRawObject& e) {
                detail::copy_into(trailing.emplace_back(), e);
            };
            outside.keep_from(callbacks);
            detail::read_kineto_json(file, callbacks);
        } catch (const BuilderStopped&) {
        } catch (...) {
            reader_error = std::current_exception();
        }
        // The batches submitted before a fault are built first, as on one thread.
        pool.close();
    });
    // However the builder leaves (an event it refuses), the pool and the reader stop.
    struct JoinReader {
        detail::KinetoParsePool& pool;
        std::thread& reader;
        ~JoinReader() {
            pool.stop();
            if (reader.joinable())
                reader.join();
        }
    } join{pool, reader};
    while (const detail::KinetoParsePool::Parsed* batch = pool.receive()) {
        for (std::size_t i = 0; i < batch->size; ++i)
            builder.add_event(batch->events[i]);
        if (batch->error)
            std::rethrow_exception(batch->error);
        pool.give_back();
    }
    reader.join();
    if (reader_error)
        std::rethrow_exception(reader_error);
    for (const detail::KinetoRawObject& e : trailing)
        builder.add_event(e);
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
