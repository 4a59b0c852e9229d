#pragma once

#include <cstddef>
#include <cstdint>

#include "workloads/memory/MemoryLedger.hpp"
#include "workloads/memory/RawAllocator.hpp"
#include "workloads/memory/StorageBlocks.hpp"
#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads {

// Makes tensors from a raw allocator (the backend's own or a pool over it) and keeps
// the live and peak bytes of tensor memory, the figure runs report as peak tensor bytes.
// Must outlive every tensor it made. A tensor's handle block (the shared_ptr control block
// holding its TensorStorage) comes from a free list (StorageBlocks), so a steady-state
// step's tensors cost no host allocation. Every tensor carries its class (TensorClass),
// counted by a MemoryLedger: the allocator's own, or one shared by the run's allocators.
class TensorAllocator {
  public:
    explicit TensorAllocator(RawAllocator& source) : source_(&source), ledger_(&own_ledger_) {}
    TensorAllocator(RawAllocator& source, MemoryLedger& ledger)
        : source_(&source), ledger_(&ledger) {}
    TensorAllocator(const TensorAllocator&) = delete;
    TensorAllocator& operator=(const TensorAllocator&) = delete;

    // `other` is for tests and tools; the engine names every tensor's class.
    Tensor allocate(const Shape& shape, DType dtype, TensorClass tensor_class = TensorClass::other);
    void release(void* data, std::size_t bytes, TensorClass tensor_class) noexcept;

    std::int64_t live_bytes() const { return live_bytes_; }
    std::int64_t peak_bytes() const { return peak_bytes_; }
    std::int64_t allocations() const { return allocations_; }
    std::int64_t releases() const { return releases_; }
    void reset_peak() { peak_bytes_ = live_bytes_; }
    const MemoryLedger& ledger() const { return *ledger_; }

  private:
    StorageBlocks blocks_;  // declared first, so destroyed last
    RawAllocator* source_;
    MemoryLedger own_ledger_;
    MemoryLedger* ledger_;
    std::int64_t live_bytes_ = 0;
    std::int64_t peak_bytes_ = 0;
    std::int64_t allocations_ = 0;
    std::int64_t releases_ = 0;
};

}  // namespace trainscope::workloads
