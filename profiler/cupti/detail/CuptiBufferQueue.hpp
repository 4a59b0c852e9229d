#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <vector>

namespace trainscope::profiler::detail {

struct AlignedFree {
    void operator()(std::uint8_t* p) const noexcept { std::free(p); }
};
using ActivityBuffer = std::unique_ptr<std::uint8_t, AlignedFree>;

struct CompletedBuffer {
    ActivityBuffer buffer;
    std::size_t valid_bytes = 0;
};

// The buffers CUPTI fills. request() hands out fixed-size, 8-byte aligned buffers while
// fewer than `max_buffers` are outstanding (allocated and not yet decoded), else
// nullptr, and CUPTI drops records (which it counts). complete() only queues: it runs on
// CUPTI's thread and must stay short. take_completed() moves the queue out under the
// lock; the decoding happens outside it. Never throws from request()/complete().
class CuptiBufferQueue {
  public:
    CuptiBufferQueue(std::size_t buffer_bytes, std::size_t max_buffers);

    std::uint8_t* request(std::size_t& size_bytes) noexcept;
    void complete(std::uint8_t* buffer, std::size_t valid_bytes) noexcept;
    std::vector<CompletedBuffer> take_completed();
    // A decoded buffer is gone: one more may be requested.
    void release(CompletedBuffer& done) noexcept;

    [[nodiscard]] std::int64_t refused_requests() const { return refused_requests_.load(); }
    [[nodiscard]] std::size_t buffer_bytes() const { return buffer_bytes_; }

  private:
    const std::size_t buffer_bytes_;
    const std::size_t max_buffers_;
    std::atomic<std::size_t> outstanding_{0};
    std::atomic<std::int64_t> refused_requests_{0};
    std::mutex mutex_;
    std::vector<CompletedBuffer> completed_;
};

}  // namespace trainscope::profiler::detail
