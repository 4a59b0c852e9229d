#pragma once

#include <cstdint>

#include "workloads/tensor/TensorClass.hpp"

namespace trainscope::workloads {

// Told of every change of the bytes in use of a tensor class, right after it happened.
// The harness timestamps these into counter series (the engine knows no clock of a trace).
// Called on the thread that trains; must not throw.
class MemoryListener {
  public:
    virtual ~MemoryListener() = default;
    virtual void on_memory_change(TensorClass tensor_class, std::int64_t class_bytes,
                                  std::int64_t total_bytes) noexcept = 0;
};

// Bytes of tensor memory in use per class, and the peak of their sum with its breakdown
// at the moment it was reached. One per run, shared by every TensorAllocator of the run
// (the captured step's arena has its own allocator), so the peak is of all tensors alive
// at once.
class MemoryLedger {
  public:
    void allocated(TensorClass tensor_class, std::int64_t bytes) noexcept;
    void released(TensorClass tensor_class, std::int64_t bytes) noexcept;

    std::int64_t live_bytes() const { return live_bytes_; }
    std::int64_t live_bytes(TensorClass tensor_class) const {
        return live_[tensor_class_index(tensor_class)];
    }
    const ClassBytes& live() const { return live_; }
    std::int64_t peak_bytes() const { return peak_bytes_; }
    // The bytes of each class when the sum first reached peak_bytes(); sums to it.
    const ClassBytes& peak() const { return peak_; }
    // The most bytes each class held at any moment (not necessarily at the same one).
    const ClassBytes& class_max() const { return class_max_; }

    void set_listener(MemoryListener* listener) { listener_ = listener; }

  private:
    ClassBytes live_{};
    ClassBytes peak_{};
    ClassBytes class_max_{};
    std::int64_t live_bytes_ = 0;
    std::int64_t peak_bytes_ = 0;
    MemoryListener* listener_ = nullptr;
};

}  // namespace trainscope::workloads
