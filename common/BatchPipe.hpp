#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <memory>
#include <mutex>
#include <vector>

namespace trainscope {

// Items handed from a producing thread to a consuming one a batch at a time, so that one
// stream of work keeps two cores busy. Only the batches made at construction exist: the
// producer waits for the consumer, and memory stays that of those batches. Items are
// refilled in place, so that what they own (a buffer) keeps its capacity from batch to
// batch. Used by the Kineto import (reader → builder) and by the reads of stored runs
// (SQLite's row decoding → the analyses).
template <class Item>
class BatchPipe {
  public:
    struct Batch {
        std::vector<Item> items;
        std::size_t size = 0;
        // The producer's failure after these items: the consumer throws it once it has
        // taken them, so that it sees every item before the failure, as on one thread.
        std::exception_ptr error;
        // The next item to fill: one used by an earlier batch when there is one.
        Item& next_slot() {
            if (size == items.size())
                items.emplace_back();
            return items[size++];
        }
    };

    explicit BatchPipe(std::size_t batches) {
        // No allocation when batches are handed over: a producer thread's send cannot fail.
        empty_.reserve(batches);
        filled_.reserve(batches);
        for (std::size_t i = 0; i < batches; ++i) {
            owned_.push_back(std::make_unique<Batch>());
            empty_.push_back(owned_.back().get());
        }
    }
    BatchPipe(const BatchPipe&) = delete;
    BatchPipe& operator=(const BatchPipe&) = delete;

    // Producer: an empty batch to fill (waits for one); nullptr once the consumer stopped.
    Batch* take_empty() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [this] { return stopped_ || !empty_.empty(); });
        if (stopped_)
            return nullptr;
        Batch* batch = empty_.back();
        empty_.pop_back();
        batch->size = 0;
        batch->error = nullptr;
        return batch;
    }
    void send(Batch* filled) {
        {
            const std::lock_guard lock(mutex_);
            filled_.push_back(filled);
        }
        changed_.notify_all();
    }
    // Producer: no more batches will come.
    void close() {
        {
            const std::lock_guard lock(mutex_);
            closed_ = true;
        }
        changed_.notify_all();
    }

    // Consumer: the next filled batch (waits for one); nullptr once closed and drained.
    Batch* receive() {
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
    void give_back(Batch* emptied) {
        {
            const std::lock_guard lock(mutex_);
            empty_.push_back(emptied);
        }
        changed_.notify_all();
    }
    // Consumer: no more batches are wanted (it failed or has what it needs); the
    // producer's take_empty says so.
    void stop() {
        {
            const std::lock_guard lock(mutex_);
            stopped_ = true;
        }
        changed_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::unique_ptr<Batch>> owned_;
    std::vector<Batch*> empty_;
    std::vector<Batch*> filled_;  // oldest first
    std::size_t next_filled_ = 0;
    bool closed_ = false;
    bool stopped_ = false;
};

}  // namespace trainscope
