#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "profiler/cupti/detail/CuptiBufferQueue.hpp"

namespace trainscope::profiler::detail {
namespace {

TEST(CuptiBufferQueue, HandsOutAlignedBuffersUpToTheCapThenRefuses) {
    CuptiBufferQueue queue(1000, 2);
    std::size_t size = 0;
    std::uint8_t* first = queue.request(size);
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(size, 1000u);  // already a multiple of 8
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 8, 0u);
    std::uint8_t* second = queue.request(size);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(queue.request(size), nullptr);
    EXPECT_EQ(size, 0u);
    EXPECT_EQ(queue.refused_requests(), 1);

    first[0] = 42;
    queue.complete(first, 1);
    queue.complete(second, 0);
    auto completed = queue.take_completed();
    ASSERT_EQ(completed.size(), 2u);
    EXPECT_EQ(completed[0].buffer.get()[0], 42);
    EXPECT_EQ(completed[0].valid_bytes, 1u);
    EXPECT_TRUE(queue.take_completed().empty());
    // Still at the cap until a decoded buffer is released.
    EXPECT_EQ(queue.request(size), nullptr);
    queue.release(completed[0]);
    std::uint8_t* third = queue.request(size);
    ASSERT_NE(third, nullptr);
    queue.complete(third, 0);
    auto rest = queue.take_completed();
    for (auto& done : rest)
        queue.release(done);
    queue.release(completed[1]);
}

TEST(CuptiBufferQueue, RoundsTheSizeUpToTheAlignment) {
    CuptiBufferQueue queue(13, 1);
    std::size_t size = 0;
    std::uint8_t* buffer = queue.request(size);
    ASSERT_NE(buffer, nullptr);
    EXPECT_EQ(size, 16u);
    queue.complete(buffer, 0);
    auto done = queue.take_completed();
    queue.release(done.at(0));
}

// CUPTI completes buffers on its own threads while the tracer's drainer takes and decodes
// them (CuptiTracer::drain): every completed buffer reaches the drainer exactly once with
// its bytes, and never more than the cap are out at once. The tsan preset runs this.
TEST(CuptiBufferQueue, ConcurrentCompletionsAndDrainLoseNothing) {
    constexpr int kProducers = 3;
    constexpr int kBuffersEach = 200;
    constexpr std::size_t kCap = 4;
    CuptiBufferQueue queue(64, kCap);
    std::atomic<int> held{0};
    std::atomic<int> most_held{0};
    auto hold = [&] {
        const int now = held.fetch_add(1) + 1;
        int seen = most_held.load();
        while (now > seen && !most_held.compare_exchange_weak(seen, now)) {
        }
    };
    std::vector<std::thread> producers;
    for (int p = 0; p < kProducers; ++p) {
        producers.emplace_back([&queue, &hold, p] {
            for (int i = 0; i < kBuffersEach;) {
                std::size_t size = 0;
                std::uint8_t* buffer = queue.request(size);
                if (buffer == nullptr) {
                    std::this_thread::yield();  // CUPTI would drop records; we retry
                    continue;
                }
                hold();  // out until the drainer releases it
                const std::array<int, 2> tag{p, i};
                std::memcpy(buffer, &tag, sizeof tag);
                queue.complete(buffer, sizeof tag);
                ++i;
            }
        });
    }
    std::set<std::array<int, 2>> seen;
    while (seen.size() < std::size_t{kProducers * kBuffersEach}) {
        auto completed = queue.take_completed();
        for (CompletedBuffer& done : completed) {
            ASSERT_EQ(done.valid_bytes, sizeof(std::array<int, 2>));
            std::array<int, 2> tag;
            std::memcpy(&tag, done.buffer.get(), sizeof tag);
            EXPECT_TRUE(seen.insert(tag).second) << tag[0] << "/" << tag[1];
            held.fetch_sub(1);  // before release: a new request may follow it at once
            queue.release(done);
        }
        std::this_thread::yield();
    }
    for (auto& t : producers)
        t.join();
    EXPECT_TRUE(queue.take_completed().empty());
    EXPECT_LE(most_held.load(), static_cast<int>(kCap));
}

}  // namespace
}  // namespace trainscope::profiler::detail
