#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "workloads/memory/MemoryLedger.hpp"

namespace trainscope::workloads {

// Memory a backend's op uses outside the tensors (the CPU's im2col columns and partial
// sums, oneDNN's blocked operand copies and its scratchpad), told to the run's ledger as
// TensorClass::workspace while the op runs. The buffers only grow and are kept between
// ops, as the caching pool keeps freed blocks; like a pool block they are in use only
// while an op holds them, so the peak breakdown counts an op's workspace at its moment
// and a step ends with none. Used on the thread that runs the ops.
class WorkspaceUse {
  public:
    // The run's ledger (null: count nothing).
    void set_ledger(MemoryLedger* ledger) { ledger_ = ledger; }
    // `buffer` holds `bytes` for the op in flight; asked again, the larger figure stands.
    void use(const void* buffer, std::size_t bytes);
    // The op has ended: its workspace is free again.
    void end_op() noexcept;
    [[nodiscard]] std::int64_t in_use_bytes() const { return in_use_; }

  private:
    struct Held {
        const void* buffer;
        std::size_t bytes;
    };
    MemoryLedger* ledger_ = nullptr;
    std::vector<Held> held_;
    std::int64_t in_use_ = 0;
};

// Ends the op's workspace use when the op returns, however it returns.
class WorkspaceScope {
  public:
    explicit WorkspaceScope(WorkspaceUse& use) : use_(use) {}
    ~WorkspaceScope() { use_.end_op(); }
    WorkspaceScope(const WorkspaceScope&) = delete;
    WorkspaceScope& operator=(const WorkspaceScope&) = delete;

  private:
    WorkspaceUse& use_;
};

}  // namespace trainscope::workloads
