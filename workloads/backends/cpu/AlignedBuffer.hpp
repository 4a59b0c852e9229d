#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>

#include "workloads/memory/WorkspaceUse.hpp"

namespace trainscope::workloads {

// Scratch memory for CPU kernels (im2col columns, partial sums) that only grows, so
// after the first step no kernel allocates. 64-byte aligned for vector loads. A buffer
// counted in a WorkspaceUse tells it what each op reserves: the op's workspace.
class AlignedBuffer {
  public:
    AlignedBuffer() = default;

    void count_in(WorkspaceUse* use) { use_ = use; }

    // Makes room for at least `bytes` for the op in flight; contents are not kept when it
    // grows.
    void reserve(std::size_t bytes) {
        if (use_ != nullptr) {
            use_->use(this, bytes);
        }
        if (bytes <= capacity_bytes_) {
            return;
        }
        const std::size_t rounded = (bytes + 63) / 64 * 64;
        void* data = std::aligned_alloc(64, rounded);
        if (data == nullptr) {
            throw std::bad_alloc();
        }
        data_.reset(data);
        capacity_bytes_ = rounded;
    }

    template <typename T>
    T* as() const {
        return static_cast<T*>(data_.get());
    }
    std::size_t capacity_bytes() const { return capacity_bytes_; }

  private:
    struct Free {
        void operator()(void* data) const noexcept { std::free(data); }
    };
    std::unique_ptr<void, Free> data_;
    std::size_t capacity_bytes_ = 0;
    WorkspaceUse* use_ = nullptr;
};

}  // namespace trainscope::workloads
