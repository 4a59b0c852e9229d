// Round-to-nearest-even to fp16, bf16 and tf32 on the edge cases, and the fp16 dynamic
// loss scaler.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "workloads/numerics/LossScaler.hpp"
#include "workloads/numerics/Rounding.hpp"

namespace trainscope::workloads {
namespace {

using numerics::float_from_bits;
using numerics::fp16_bits_from_float;
using numerics::round_to_bf16;
using numerics::round_to_fp16;
using numerics::round_to_tf32;

const float kInf = std::numeric_limits<float>::infinity();

TEST(WorkloadsRounding, Fp16ExactValuesStay) {
    for (float v :
         {0.0f, 1.0f, -2.5f, 65504.0f, 0.000061035156f /* 2^-14 */, std::ldexp(1.0f, -24)}) {
        EXPECT_EQ(round_to_fp16(v), v) << v;
    }
    EXPECT_TRUE(std::signbit(round_to_fp16(-0.0f)));
}

TEST(WorkloadsRounding, Fp16TiesGoToEven) {
    const float ulp = std::ldexp(1.0f, -10);                          // spacing of fp16 in [1, 2)
    EXPECT_EQ(round_to_fp16(1.0f + ulp / 2), 1.0f);                   // tie, 1 is even
    EXPECT_EQ(round_to_fp16(1.0f + 3 * ulp / 2), 1.0f + 2 * ulp);     // tie, rounds up to even
    EXPECT_EQ(round_to_fp16(1.0f + ulp / 2 + ulp / 64), 1.0f + ulp);  // above the tie
    EXPECT_EQ(round_to_fp16(-(1.0f + 3 * ulp / 2)), -(1.0f + 2 * ulp));
}

TEST(WorkloadsRounding, Fp16OverflowsToInfinity) {
    EXPECT_EQ(round_to_fp16(65519.0f), 65504.0f);  // below the midpoint to 2^16
    EXPECT_EQ(round_to_fp16(65520.0f), kInf);      // the midpoint ties away to infinity (even)
    EXPECT_EQ(round_to_fp16(1e6f), kInf);
    EXPECT_EQ(round_to_fp16(-1e6f), -kInf);
    EXPECT_EQ(round_to_fp16(kInf), kInf);
    EXPECT_EQ(fp16_bits_from_float(kInf), 0x7c00);
}

TEST(WorkloadsRounding, Fp16Subnormals) {
    const float tiny = std::ldexp(1.0f, -24);            // smallest fp16 subnormal
    EXPECT_EQ(round_to_fp16(tiny / 2), 0.0f);            // tie to even zero
    EXPECT_EQ(round_to_fp16(tiny / 2 * 1.0001f), tiny);  // just above the tie
    EXPECT_EQ(round_to_fp16(3 * tiny / 2), 2 * tiny);    // tie to even (2)
    EXPECT_EQ(round_to_fp16(5 * tiny / 2), 2 * tiny);    // tie to even (2)
    EXPECT_EQ(round_to_fp16(std::ldexp(1.0f, -30)), 0.0f);
    EXPECT_EQ(round_to_fp16(std::numeric_limits<float>::denorm_min()), 0.0f);
    // 1023.5 quanta: the tie rounds to 1024, the smallest normal 2^-14.
    EXPECT_EQ(round_to_fp16(1023.5f * tiny), std::ldexp(1.0f, -14));
    EXPECT_EQ(fp16_bits_from_float(1023.5f * tiny), 0x0400);
    EXPECT_EQ(round_to_fp16(100.25f * tiny), 100.0f * tiny);
}

TEST(WorkloadsRounding, Fp16NanStaysNan) {
    EXPECT_TRUE(std::isnan(round_to_fp16(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_TRUE(std::isnan(round_to_fp16(-std::numeric_limits<float>::quiet_NaN())));
}

TEST(WorkloadsRounding, Bf16) {
    const float ulp = std::ldexp(1.0f, -7);
    EXPECT_EQ(round_to_bf16(1.0f), 1.0f);
    EXPECT_EQ(round_to_bf16(1.0f + ulp / 2), 1.0f);
    EXPECT_EQ(round_to_bf16(1.0f + 3 * ulp / 2), 1.0f + 2 * ulp);
    EXPECT_EQ(round_to_bf16(std::numeric_limits<float>::max()), kInf);
    EXPECT_EQ(round_to_bf16(float_from_bits(0x7f7f0000u)), float_from_bits(0x7f7f0000u));
    EXPECT_EQ(round_to_bf16(float_from_bits(0x7f7f8000u)), kInf);  // tie above the largest
    EXPECT_EQ(round_to_bf16(float_from_bits(0x00008000u)), 0.0f);  // subnormal tie to even
    EXPECT_EQ(round_to_bf16(float_from_bits(0x00018000u)), float_from_bits(0x00020000u));
    EXPECT_EQ(round_to_bf16(-kInf), -kInf);
    EXPECT_TRUE(std::isnan(round_to_bf16(std::numeric_limits<float>::quiet_NaN())));
    // A NaN whose payload lives only in the dropped bits must not become infinity.
    EXPECT_TRUE(std::isnan(round_to_bf16(float_from_bits(0x7f800001u))));
}

TEST(WorkloadsRounding, Tf32) {
    const float ulp = std::ldexp(1.0f, -10);
    EXPECT_EQ(round_to_tf32(1.0f + ulp / 2), 1.0f);
    EXPECT_EQ(round_to_tf32(1.0f + 3 * ulp / 2), 1.0f + 2 * ulp);
    EXPECT_EQ(round_to_tf32(1.0f + ulp / 3), 1.0f);
    EXPECT_EQ(round_to_tf32(1.0f + 2 * ulp / 3), 1.0f + ulp);
    // tf32 keeps fp32's exponent range: 1e30 does not overflow, fp32 max does.
    EXPECT_TRUE(std::isfinite(round_to_tf32(1e30f)));
    EXPECT_EQ(round_to_tf32(std::numeric_limits<float>::max()), kInf);
    EXPECT_TRUE(std::isnan(round_to_tf32(std::numeric_limits<float>::quiet_NaN())));
}

TEST(WorkloadsLossScaler, HalvesAndSkipsOnOverflow) {
    LossScaler scaler;
    EXPECT_EQ(scaler.scale(), 65536.0);
    EXPECT_FALSE(scaler.update(false));
    EXPECT_EQ(scaler.scale(), 32768.0);
    EXPECT_FALSE(scaler.update(false));
    EXPECT_EQ(scaler.scale(), 16384.0);
    EXPECT_EQ(scaler.skipped_steps(), 2);
    EXPECT_TRUE(scaler.update(true));
    EXPECT_EQ(scaler.scale(), 16384.0);
}

TEST(WorkloadsLossScaler, GrowsAfterItsIntervalOfCleanSteps) {
    LossScaler scaler;
    scaler.update(false);  // 32768
    for (int i = 0; i < 1999; ++i) {
        ASSERT_TRUE(scaler.update(true));
    }
    EXPECT_EQ(scaler.scale(), 32768.0);
    EXPECT_TRUE(scaler.update(true));  // the 2000th clean step
    EXPECT_EQ(scaler.scale(), 65536.0);
    // An overflow restarts the count.
    for (int i = 0; i < 1000; ++i) {
        scaler.update(true);
    }
    scaler.update(false);
    for (int i = 0; i < 1999; ++i) {
        scaler.update(true);
    }
    EXPECT_EQ(scaler.scale(), 32768.0);
    scaler.update(true);
    EXPECT_EQ(scaler.scale(), 65536.0);
    EXPECT_EQ(scaler.skipped_steps(), 2);
}

}  // namespace
}  // namespace trainscope::workloads
