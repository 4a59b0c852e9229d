#include <gtest/gtest.h>

#include <cstdint>

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

}  // namespace
}  // namespace trainscope::profiler::detail
