#include "profiler/cupti/detail/CuptiBufferQueue.hpp"

namespace trainscope::profiler::detail {

namespace {
// CUPTI requires activity buffers aligned to 8 bytes.
constexpr std::size_t kAlignment = 8;
}  // namespace

CuptiBufferQueue::CuptiBufferQueue(std::size_t buffer_bytes, std::size_t max_buffers)
    : buffer_bytes_((buffer_bytes + kAlignment - 1) / kAlignment * kAlignment),
      max_buffers_(max_buffers) {}

std::uint8_t* CuptiBufferQueue::request(std::size_t& size_bytes) noexcept {
    size_bytes = 0;
    if (outstanding_.fetch_add(1) >= max_buffers_) {
        outstanding_.fetch_sub(1);
        refused_requests_.fetch_add(1);
        return nullptr;
    }
    auto* buffer = static_cast<std::uint8_t*>(std::aligned_alloc(kAlignment, buffer_bytes_));
    if (buffer == nullptr) {
        outstanding_.fetch_sub(1);
        refused_requests_.fetch_add(1);
        return nullptr;
    }
    size_bytes = buffer_bytes_;
    return buffer;
}

void CuptiBufferQueue::complete(std::uint8_t* buffer, std::size_t valid_bytes) noexcept {
    ActivityBuffer owned(buffer);
    try {
        const std::lock_guard lock(mutex_);
        completed_.push_back(CompletedBuffer{std::move(owned), valid_bytes});
    } catch (...) {
        // Out of memory for the queue entry: the buffer's records are lost, not the run.
        outstanding_.fetch_sub(1);
    }
}

std::vector<CompletedBuffer> CuptiBufferQueue::take_completed() {
    const std::lock_guard lock(mutex_);
    std::vector<CompletedBuffer> taken;
    taken.swap(completed_);
    return taken;
}

void CuptiBufferQueue::release(CompletedBuffer& done) noexcept {
    if (done.buffer) {
        done.buffer.reset();
        outstanding_.fetch_sub(1);
    }
}

}  // namespace trainscope::profiler::detail
