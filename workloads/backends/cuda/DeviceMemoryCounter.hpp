#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace trainscope::workloads::cuda {

// Live and peak bytes handed out by one raw allocator: the allocator high-water mark
// a run reports next to cudaMemGetInfo's view of the whole device.
class DeviceMemoryCounter {
  public:
    void allocated(std::size_t bytes) {
        live_bytes_ += static_cast<std::int64_t>(bytes);
        peak_bytes_ = std::max(peak_bytes_, live_bytes_);
        ++allocations_;
    }
    void released(std::size_t bytes) { live_bytes_ -= static_cast<std::int64_t>(bytes); }
    std::int64_t live_bytes() const { return live_bytes_; }
    std::int64_t peak_bytes() const { return peak_bytes_; }
    std::int64_t allocations() const { return allocations_; }

  private:
    std::int64_t live_bytes_ = 0;
    std::int64_t peak_bytes_ = 0;
    std::int64_t allocations_ = 0;
};

}  // namespace trainscope::workloads::cuda
