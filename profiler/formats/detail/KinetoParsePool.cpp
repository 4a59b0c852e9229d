#include "profiler/formats/detail/KinetoParsePool.hpp"

#include <simdjson.h>

#include <cstring>
#include <utility>

#include "profiler/formats/detail/KinetoBatchParser.hpp"

namespace trainscope::profiler::detail {

namespace {

// The other side of a hand-over is usually a few microseconds away from it: yielding the
// core a while before sleeping on the condition spares the wake-up, which reached a
// sleeping thread late enough that the 1 GB import's reading phase left its two cores
// about a quarter idle with every thread waiting (docs/performance.md, "The import's tail
// on three threads, and hand-overs that yield before they sleep").
constexpr int kYieldsBeforeSleeping = 200;

template <typename Ready>
void wait_for(std::unique_lock<std::mutex>& lock, std::condition_variable& cv, Ready ready) {
    for (int i = 0; i < kYieldsBeforeSleeping && !ready(); ++i) {
        lock.unlock();
        std::this_thread::yield();
        lock.lock();
    }
    cv.wait(lock, ready);
}

}  // namespace

KinetoParsePool::KinetoParsePool(const std::filesystem::path& file, std::size_t workers) {
    const std::size_t slots = workers + 2;  // one parsing per worker, one built, one read
    for (std::size_t i = 0; i < slots; ++i) {
        owned_.push_back(std::make_unique<Slot>());
        free_.push_back(owned_.back().get());
    }
    try {
        for (std::size_t i = 0; i < workers; ++i)
            workers_.emplace_back([this, file] { work(file); });
    } catch (...) {
        stop();
        for (std::thread& t : workers_)
            t.join();
        throw;
    }
}

KinetoParsePool::~KinetoParsePool() {
    stop();
    for (std::thread& t : workers_)
        t.join();
}

bool KinetoParsePool::submit(const KinetoEventBytes& batch) {
    Slot* slot = nullptr;
    {
        std::unique_lock lock(mutex_);
        wait_for(lock, slot_freed_, [this] { return stopped_ || !free_.empty(); });
        if (stopped_)
            return false;
        slot = free_.back();
        free_.pop_back();
    }
    // The slot is the reader's alone until it is queued.
    slot->bytes.resize(batch.length + simdjson::SIMDJSON_PADDING);
    std::memcpy(slot->bytes.data(), batch.json, batch.length);
    slot->length = batch.length;
    slot->file_offset = batch.file_offset;
    slot->parsed.size = 0;
    slot->parsed.error = nullptr;
    slot->done = false;
    {
        const std::lock_guard lock(mutex_);
        to_parse_.push_back(slot);
        in_order_.push_back(slot);
    }
    submitted_.notify_one();
    return true;
}

void KinetoParsePool::close() {
    {
        const std::lock_guard lock(mutex_);
        closed_ = true;
    }
    submitted_.notify_all();
    parsed_.notify_all();
}

const KinetoParsePool::Parsed* KinetoParsePool::receive() {
    std::unique_lock lock(mutex_);
    wait_for(lock, parsed_, [this] {
        return stopped_ || (in_order_.empty() ? closed_ : in_order_.front()->done);
    });
    if (stopped_ || in_order_.empty())
        return nullptr;
    return &in_order_.front()->parsed;
}

void KinetoParsePool::give_back() {
    {
        const std::lock_guard lock(mutex_);
        free_.push_back(in_order_.front());
        in_order_.pop_front();
    }
    slot_freed_.notify_one();
}

void KinetoParsePool::stop() {
    {
        const std::lock_guard lock(mutex_);
        stopped_ = true;
    }
    slot_freed_.notify_all();
    submitted_.notify_all();
    parsed_.notify_all();
}

void KinetoParsePool::work(const std::filesystem::path& file) {
    KinetoBatchParser parser(file);
    for (;;) {
        Slot* slot = nullptr;
        {
            std::unique_lock lock(mutex_);
            wait_for(lock, submitted_,
                     [this] { return stopped_ || closed_ || !to_parse_.empty(); });
            if (stopped_ || to_parse_.empty())
                return;
            slot = to_parse_.front();
            to_parse_.pop_front();
        }
        // The slot is this worker's alone until it is marked done.
        Parsed& out = slot->parsed;
        try {
            parser.parse(slot->bytes.data(), slot->length, slot->bytes.size(), slot->file_offset,
                         [&out](KinetoRawObject& event) {
                             if (out.size == out.events.size())
                                 out.events.emplace_back();
                             // The event's content taken, the parser's scratch left an
                             // object emptied earlier (its buffer keeps its capacity).
                             std::swap(out.events[out.size++], event);
                         });
        } catch (...) {
            out.error = std::current_exception();
        }
        bool next_in_order = false;
        {
            const std::lock_guard lock(mutex_);
            slot->done = true;
            next_in_order = in_order_.front() == slot;  // else the builder waits for another
        }
        if (next_in_order)
            parsed_.notify_one();
    }
}

}  // namespace trainscope::profiler::detail
