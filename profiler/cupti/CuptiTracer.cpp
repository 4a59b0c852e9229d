#include "profiler/cupti/CuptiTracer.hpp"

#include <cupti.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "profiler/capture/HostClock.hpp"
#include "profiler/cupti/CuptiActivityDecoder.hpp"
#include "profiler/cupti/CuptiError.hpp"
#include "profiler/cupti/detail/CuptiBufferQueue.hpp"

namespace trainscope::profiler {

namespace {

// CUPTI's callbacks carry no user pointer: the active tracer's queue is process-wide.
std::atomic<detail::CuptiBufferQueue*> g_active_queue{nullptr};
std::atomic<std::int64_t> g_dropped_records{0};
// Callbacks running now. A callback counts itself before it loads the queue, so once
// stop() has nulled the queue and seen this at zero, no callback can still hold it.
std::atomic<int> g_callbacks_in_flight{0};

struct CallbackInFlight {
    CallbackInFlight() { g_callbacks_in_flight.fetch_add(1); }
    ~CallbackInFlight() { g_callbacks_in_flight.fetch_sub(1); }
    CallbackInFlight(const CallbackInFlight&) = delete;
    CallbackInFlight& operator=(const CallbackInFlight&) = delete;
};

constexpr std::array kKernelKinds{CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                  CUPTI_ACTIVITY_KIND_MEMSET};
// Optional at level full: a kind this CUPTI or driver does not support is logged and
// skipped rather than failing the run.
constexpr std::array kFullKinds{CUPTI_ACTIVITY_KIND_DEVICE,          CUPTI_ACTIVITY_KIND_CONTEXT,
                                CUPTI_ACTIVITY_KIND_RUNTIME,         CUPTI_ACTIVITY_KIND_DRIVER,
                                CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, CUPTI_ACTIVITY_KIND_OVERHEAD,
                                CUPTI_ACTIVITY_KIND_MARKER};

uint64_t CUPTIAPI host_clock_timestamp() {
    return static_cast<uint64_t>(host_clock_now_ns());
}

void CUPTIAPI on_buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    *max_records = 0;  // fill the buffer
    const CallbackInFlight in_flight;
    detail::CuptiBufferQueue* queue = g_active_queue.load();
    std::size_t granted = 0;
    *buffer = queue != nullptr ? queue->request(granted) : nullptr;
    *size = granted;
}

void CUPTIAPI on_buffer_completed(CUcontext context, uint32_t stream_id, uint8_t* buffer, size_t,
                                  size_t valid) {
    std::size_t dropped = 0;
    if (TS_CUPTI_CHECK_NOEXCEPT(cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped))) {
        g_dropped_records.fetch_add(static_cast<std::int64_t>(dropped));
    }
    const CallbackInFlight in_flight;
    detail::CuptiBufferQueue* queue = g_active_queue.load();
    if (queue != nullptr) {
        queue->complete(buffer, valid);
    } else {
        std::free(buffer);  // a late buffer after stop: nobody will decode it
    }
}

}  // namespace

CuptiTracer::CuptiTracer(CuptiTracerOptions options)
    : options_(options),
      queue_(
          std::make_unique<detail::CuptiBufferQueue>(options.buffer_bytes, options.max_buffers)) {
    if (options_.level == TraceLevel::Off)
        return;
    detail::CuptiBufferQueue* expected = nullptr;
    if (!g_active_queue.compare_exchange_strong(expected, queue_.get())) {
        throw std::logic_error("a CuptiTracer is already capturing in this process");
    }
    g_dropped_records.store(0);
    trace_.base_ns = host_clock_now_ns();
    trace_.metadata["source.format"] = "cupti";
    trace_.metadata["capture.level"] = std::string(to_string(options_.level));
    decoder_ = std::make_unique<CuptiActivityDecoder>(trace_);
    try {
        // The clock first: records of kinds enabled later all use it.
        TS_CUPTI_CHECK(cuptiActivityRegisterTimestampCallback(host_clock_timestamp));
        // The default is pthread_self(); the host tracer and NVTX injection key threads by
        // gettid, and NVTX-to-GPU projection joins API calls to ranges on that key.
        trace_.metadata["cupti.thread_id_type"] =
            TS_CUPTI_CHECK_NOEXCEPT(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM))
                ? "system"
                : "default (system ids not supported: API calls and NVTX ranges on separate "
                  "lanes)";
        TS_CUPTI_CHECK(cuptiActivityRegisterCallbacks(on_buffer_requested, on_buffer_completed));
        for (const CUpti_ActivityKind kind : kKernelKinds)
            TS_CUPTI_CHECK(cuptiActivityEnable(kind));
        if (options_.level == TraceLevel::Full) {
            for (const CUpti_ActivityKind kind : kFullKinds) {
                TS_CUPTI_CHECK_NOEXCEPT(cuptiActivityEnable(kind));
            }
        }
    } catch (...) {
        disable_kinds();
        g_active_queue.store(nullptr);
        throw;
    }
    trace_.capture_begin_ns = 0;
    running_ = true;
    if (options_.drain_period.count() > 0) {
        drainer_ = std::thread([this] { drain_periodically(); });
    }
}

void CuptiTracer::drain_periodically() {
    std::unique_lock<std::mutex> lock(drainer_mutex_);
    while (!drainer_wake_.wait_for(lock, options_.drain_period, [this] { return drainer_stop_; })) {
        lock.unlock();
        try {
            drain();
        } catch (const std::exception& e) {
            std::fprintf(stderr, "trainscope profiler: decoding CUPTI records failed: %s\n",
                         e.what());
        }
        lock.lock();
    }
}

void CuptiTracer::stop_drainer() noexcept {
    if (!drainer_.joinable())
        return;
    {
        std::lock_guard<std::mutex> lock(drainer_mutex_);
        drainer_stop_ = true;
    }
    drainer_wake_.notify_all();
    drainer_.join();
}

CuptiTracer::~CuptiTracer() {
    if (!running_) {
        stop_drainer();
        return;
    }
    try {
        (void)stop();
    } catch (const std::exception& e) {
        std::fprintf(stderr, "trainscope profiler: stopping CUPTI capture failed: %s\n", e.what());
    } catch (...) {
        std::fprintf(stderr, "trainscope profiler: stopping CUPTI capture failed\n");
    }
}

void CuptiTracer::disable_kinds() noexcept {
    for (const CUpti_ActivityKind kind : kKernelKinds)
        TS_CUPTI_CHECK_NOEXCEPT(cuptiActivityDisable(kind));
    if (options_.level == TraceLevel::Full) {
        for (const CUpti_ActivityKind kind : kFullKinds)
            cuptiActivityDisable(kind);  // some were never enabled
    }
}

void CuptiTracer::drain() {
    std::lock_guard<std::mutex> decoding(decode_mutex_);
    if (!decoder_)
        return;
    std::vector<detail::CompletedBuffer> completed =
        queue_->take_completed();  // lock held only here
    for (detail::CompletedBuffer& done : completed) {
        decoder_->decode_buffer(done.buffer.get(), done.valid_bytes);
        queue_->release(done);
    }
}

Trace CuptiTracer::stop() {
    if (!running_) {
        Trace empty;
        empty.metadata["capture.level"] = std::string(to_string(options_.level));
        return options_.level == TraceLevel::Off ? empty : std::move(trace_);
    }
    running_ = false;
    stop_drainer();
    // Disabled first, so no record is made after the flush that would never be handed
    // back. The forced flush returns even partly filled buffers; CUPTI calls
    // on_buffer_completed from inside it, which takes the queue lock: so no lock may be
    // held here.
    disable_kinds();
    const bool flushed =
        TS_CUPTI_CHECK_NOEXCEPT(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
    const std::int64_t end_ns = host_clock_now_ns();
    drain();
    // Drops while no buffer was outstanding reach no completion callback: ask once more
    // (the count resets on each query, so nothing is counted twice).
    std::size_t late_dropped = 0;
    if (TS_CUPTI_CHECK_NOEXCEPT(cuptiActivityGetNumDroppedRecords(nullptr, 0, &late_dropped)))
        g_dropped_records.fetch_add(static_cast<std::int64_t>(late_dropped));
    g_active_queue.store(nullptr);
    while (g_callbacks_in_flight.load() != 0) {
        std::this_thread::yield();  // a callback that loaded the queue before it was nulled
    }
    drain();  // a buffer completed between the first drain and the line above
    std::lock_guard<std::mutex> decoding(decode_mutex_);
    decoder_->finish(end_ns);
    trace_.capture_end_ns = end_ns - trace_.base_ns;
    trace_.dropped_records = g_dropped_records.exchange(0);
    trace_.metadata["cupti.refused_buffer_requests"] = std::to_string(queue_->refused_requests());
    trace_.metadata["cupti.unknown_records"] = std::to_string(decoder_->unknown_records());
    trace_.metadata["cupti.records_without_timestamps"] =
        std::to_string(decoder_->records_without_timestamps());
    if (!flushed)
        trace_.metadata["cupti.flush_failed"] = "true";
    return std::move(trace_);
}

}  // namespace trainscope::profiler
