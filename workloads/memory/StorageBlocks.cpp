#include "workloads/memory/StorageBlocks.hpp"

namespace trainscope::workloads {

StorageBlocks::~StorageBlocks() {
    while (free_ != nullptr) {
        Free* next = free_->next;
        ::operator delete(static_cast<void*>(free_));
        free_ = next;
    }
}

void* StorageBlocks::take() {
    if (free_ == nullptr) {
        ++blocks_;
        return ::operator new(kBlockBytes);
    }
    Free* block = free_;
    free_ = block->next;
    return block;
}

void StorageBlocks::give_back(void* block) noexcept {
    free_ = ::new (block) Free{free_};
}

}  // namespace trainscope::workloads
