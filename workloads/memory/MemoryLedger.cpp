#include "workloads/memory/MemoryLedger.hpp"

namespace trainscope::workloads {

void MemoryLedger::allocated(TensorClass tensor_class, std::int64_t bytes) noexcept {
    std::int64_t& class_bytes = live_[tensor_class_index(tensor_class)];
    class_bytes += bytes;
    live_bytes_ += bytes;
    std::int64_t& class_max = class_max_[tensor_class_index(tensor_class)];
    if (class_bytes > class_max) {
        class_max = class_bytes;
    }
    if (live_bytes_ > peak_bytes_) {
        peak_bytes_ = live_bytes_;
        peak_ = live_;
    }
    if (listener_ != nullptr) {
        listener_->on_memory_change(tensor_class, class_bytes, live_bytes_);
    }
}

void MemoryLedger::released(TensorClass tensor_class, std::int64_t bytes) noexcept {
    std::int64_t& class_bytes = live_[tensor_class_index(tensor_class)];
    class_bytes -= bytes;
    live_bytes_ -= bytes;
    if (listener_ != nullptr) {
        listener_->on_memory_change(tensor_class, class_bytes, live_bytes_);
    }
}

}  // namespace trainscope::workloads
