#include "workloads/memory/WorkspaceUse.hpp"

namespace trainscope::workloads {

void WorkspaceUse::use(const void* buffer, std::size_t bytes) {
    std::size_t grown = bytes;
    bool found = false;
    for (Held& h : held_) {
        if (h.buffer == buffer) {
            grown = bytes > h.bytes ? bytes - h.bytes : 0;
            h.bytes += grown;
            found = true;
            break;
        }
    }
    if (!found)
        held_.push_back({buffer, bytes});
    if (grown == 0)
        return;
    in_use_ += static_cast<std::int64_t>(grown);
    if (ledger_ != nullptr)
        ledger_->allocated(TensorClass::workspace, static_cast<std::int64_t>(grown));
}

void WorkspaceUse::end_op() noexcept {
    if (in_use_ > 0 && ledger_ != nullptr)
        ledger_->released(TensorClass::workspace, in_use_);
    in_use_ = 0;
    held_.clear();
}

}  // namespace trainscope::workloads
