#pragma once

#include <cstddef>
#include <new>

namespace trainscope::workloads {

// Recycles the host memory of tensor handles' shared control blocks (the block that
// std::allocate_shared makes to hold a TensorStorage and its counts), so that making a
// tensor in a steady-state step allocates nothing on the host: a training step makes and
// drops the same number of tensors every time, so after the first step every block comes
// from the free list. Blocks are all kBlockBytes; the list only grows (to the most tensors
// alive at once) and is given back when this dies. Not thread-safe, like the
// TensorAllocator that owns it; must outlive every block it handed out.
class StorageBlocks {
  public:
    static constexpr std::size_t kBlockBytes = 128;

    StorageBlocks() = default;
    StorageBlocks(const StorageBlocks&) = delete;
    StorageBlocks& operator=(const StorageBlocks&) = delete;
    ~StorageBlocks();

    void* take();
    void give_back(void* block) noexcept;
    std::size_t blocks() const { return blocks_; }

  private:
    struct Free {
        Free* next;
    };
    Free* free_ = nullptr;
    std::size_t blocks_ = 0;  // made from the heap (in use and free)
};

// The std::allocator_traits-conforming face of StorageBlocks, for std::allocate_shared.
template <typename T>
class StorageBlockAllocator {
  public:
    using value_type = T;

    explicit StorageBlockAllocator(StorageBlocks& blocks) : blocks_(&blocks) {}
    template <typename U>
    StorageBlockAllocator(const StorageBlockAllocator<U>& other) : blocks_(other.blocks()) {}

    T* allocate(std::size_t n) {
        static_assert(sizeof(T) <= StorageBlocks::kBlockBytes,
                      "raise StorageBlocks::kBlockBytes: the control block outgrew it");
        static_assert(alignof(T) <= alignof(std::max_align_t));
        if (n != 1) {
            throw std::bad_array_new_length();
        }
        return static_cast<T*>(blocks_->take());
    }
    void deallocate(T* p, std::size_t) noexcept { blocks_->give_back(p); }

    StorageBlocks* blocks() const { return blocks_; }
    template <typename U>
    bool operator==(const StorageBlockAllocator<U>& other) const {
        return blocks_ == other.blocks();
    }

  private:
    StorageBlocks* blocks_;
};

}  // namespace trainscope::workloads
