// The memory of a step captured into a CUDA graph: after one warm-up step a sealed arena
// serves the step again without its upstream, and refuses anything new.
#include <gtest/gtest.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/memory/StepArena.hpp"

namespace trainscope::workloads {
namespace {

// Hands out distinct fake addresses and counts the calls.
class CountingUpstream final : public RawAllocator {
  public:
    void* allocate(std::size_t bytes, TensorClass) override {
        ++allocations;
        blocks_.emplace_back(bytes);
        return blocks_.back().data();
    }
    void deallocate(void*, std::size_t, TensorClass) noexcept override { ++deallocations; }
    std::string name() const override { return "counting"; }

    int allocations = 0;
    int deallocations = 0;

  private:
    std::vector<std::vector<std::byte>> blocks_;
};

// One "step": two tensors live at once, one freed before a third is made.
std::vector<void*> fake_step(RawAllocator& arena) {
    void* a = arena.allocate(1000, TensorClass::other);
    void* b = arena.allocate(5000, TensorClass::other);
    arena.deallocate(a, 1000, TensorClass::other);
    void* c = arena.allocate(1000, TensorClass::other);
    arena.deallocate(b, 5000, TensorClass::other);
    arena.deallocate(c, 1000, TensorClass::other);
    return {a, b, c};
}

TEST(WorkloadsStepArena, ASealedArenaRepeatsTheWarmUpStepWithoutUpstream) {
    CountingUpstream upstream;
    {
        StepArena arena(upstream);
        fake_step(arena);
        const int after_warm_up = upstream.allocations;
        EXPECT_EQ(after_warm_up, 2);
        arena.seal();
        EXPECT_TRUE(arena.sealed());
        fake_step(arena);
        fake_step(arena);
        EXPECT_EQ(upstream.allocations, after_warm_up);
        EXPECT_EQ(upstream.deallocations, 0);  // blocks stay with the arena
        EXPECT_GE(arena.reserved_bytes(), 6000);
    }
    EXPECT_EQ(upstream.deallocations, 2);  // given back when the arena dies
}

TEST(WorkloadsStepArena, ASealedArenaRefusesANewBlockWithoutAskingUpstream) {
    CountingUpstream upstream;
    StepArena arena(upstream);
    fake_step(arena);
    arena.seal();
    void* first = arena.allocate(1000, TensorClass::other);
    // Only one 1000-byte block cached.
    EXPECT_THROW(arena.allocate(1000, TensorClass::other), std::logic_error);
    try {
        arena.allocate(1 << 20, TensorClass::other);
        FAIL() << "a sealed arena served a block its warm-up never made";
    } catch (const std::logic_error& error) {
        EXPECT_NE(std::string(error.what()).find("warm-up"), std::string::npos) << error.what();
    }
    EXPECT_EQ(upstream.allocations, 2);
    EXPECT_EQ(upstream.deallocations, 0);
    arena.deallocate(first, 1000, TensorClass::other);
}

}  // namespace
}  // namespace trainscope::workloads
