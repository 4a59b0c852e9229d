// The per-step constants of a captured Adam step: what the host writes into the device
// block before each graph launch must be, bit for bit, the constants an eager step with
// the same step count passes as kernel arguments (label unit: no GPU needed).
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "workloads/backends/cuda/CapturedAdamScalars.hpp"

namespace trainscope::workloads::cuda {
namespace {

using Block = std::array<std::byte, CapturedAdamScalars::kBlockBytes>;

template <typename T>
void expect_slot_holds(const Block& block, std::size_t offset, const AdamSettings& settings,
                       double grad_factor) {
    const math::AdamConstants<T> expected = math::adam_constants<T>(settings, grad_factor);
    EXPECT_EQ(std::memcmp(block.data() + offset, &expected, sizeof(expected)), 0)
        << "step " << settings.step;
}

AdamSettings adam_at(std::int64_t step) {
    AdamSettings settings;
    settings.learning_rate = 3e-3;
    settings.step = step;
    return settings;
}

TEST(CapturedAdamScalars, ParametersOfOneStepShareOneSlot) {
    CapturedAdamScalars scalars;
    const std::size_t first = scalars.slot_offset(false, adam_at(3), 1.0);
    EXPECT_EQ(scalars.slot_offset(false, adam_at(3), 1.0), first);
    EXPECT_EQ(scalars.slots(), 1u);
    EXPECT_NE(scalars.slot_offset(true, adam_at(3), 1.0), first);
    EXPECT_NE(scalars.slot_offset(false, adam_at(3), 0.5), first);
    EXPECT_EQ(scalars.slots(), 3u);
}

TEST(CapturedAdamScalars, EveryReplayWritesTheEagerConstantsOfTheNextStep) {
    CapturedAdamScalars scalars;
    const std::int64_t captured_step = 3;  // two eager steps, then the capture
    const std::size_t f32 = scalars.slot_offset(false, adam_at(captured_step), 1.0);
    const std::size_t f64 = scalars.slot_offset(true, adam_at(captured_step), 1.0);
    Block block{};
    scalars.write(block.data());
    expect_slot_holds<float>(block, f32, adam_at(captured_step), 1.0);
    expect_slot_holds<double>(block, f64, adam_at(captured_step), 1.0);
    for (std::int64_t replay = 1; replay <= 2000; ++replay) {
        scalars.advance();
        scalars.write(block.data());
        expect_slot_holds<float>(block, f32, adam_at(captured_step + replay), 1.0);
        expect_slot_holds<double>(block, f64, adam_at(captured_step + replay), 1.0);
    }
}

TEST(CapturedAdamScalars, TooManyDistinctSettingsAreALogicError) {
    CapturedAdamScalars scalars;
    for (std::size_t i = 0; i < CapturedAdamScalars::kSlots; ++i) {
        scalars.slot_offset(false, adam_at(static_cast<std::int64_t>(i) + 1), 1.0);
    }
    EXPECT_THROW(scalars.slot_offset(false, adam_at(1000), 1.0), std::logic_error);
}

}  // namespace
}  // namespace trainscope::workloads::cuda
