#include "profiler/formats/detail/KinetoEventPipe.hpp"

#include <utility>

namespace trainscope::profiler::detail {

void KinetoEventPipe::Batch::take(KinetoRawObject& event) {
    if (size == events.size())
        events.emplace_back();
    std::swap(events[size++], event);
}

KinetoEventPipe::KinetoEventPipe() {
    for (std::size_t i = 0; i < kBatches; ++i) {
        owned_.push_back(std::make_unique<Batch>());
        empty_.push_back(owned_.back().get());
    }
}

KinetoEventPipe::Batch* KinetoEventPipe::take_empty() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return stopped_ || !empty_.empty(); });
    if (stopped_)
        return nullptr;
    Batch* batch = empty_.back();
    empty_.pop_back();
    batch->size = 0;
    return batch;
}

void KinetoEventPipe::send(Batch* filled) {
    {
        const std::lock_guard lock(mutex_);
        filled_.push_back(filled);
    }
    changed_.notify_all();
}

void KinetoEventPipe::close() {
    {
        const std::lock_guard lock(mutex_);
        closed_ = true;
    }
    changed_.notify_all();
}

KinetoEventPipe::Batch* KinetoEventPipe::receive() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return closed_ || next_filled_ < filled_.size(); });
    if (next_filled_ == filled_.size())
        return nullptr;
    Batch* batch = filled_[next_filled_++];
    if (next_filled_ == filled_.size()) {
        filled_.clear();
        next_filled_ = 0;
    }
    return batch;
}

void KinetoEventPipe::give_back(Batch* emptied) {
    {
        const std::lock_guard lock(mutex_);
        empty_.push_back(emptied);
    }
    changed_.notify_all();
}

void KinetoEventPipe::stop() {
    {
        const std::lock_guard lock(mutex_);
        stopped_ = true;
    }
    changed_.notify_all();
}

}  // namespace trainscope::profiler::detail
