// The 16-bit storage math of the CUDA kernels (kernels/StorageMath.hpp), run on the host:
// storing a float as fp16/bf16 must give exactly the CPU emulation's value
// (numerics/Rounding.hpp), and the IEEE corner cases must come out right on their own.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "workloads/backends/cuda/kernels/LossMath.hpp"
#include "workloads/backends/cuda/kernels/PoolingMath.hpp"
#include "workloads/backends/cuda/kernels/StorageMath.hpp"
#include "workloads/numerics/Rounding.hpp"

namespace trainscope::workloads::cuda {
namespace {

using numerics::float_bits;
using numerics::float_from_bits;

bool same_value(float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || float_bits(a) == float_bits(b);
}

// Every float pattern class: a fixed list of corner cases plus random bit patterns.
std::vector<float> probe_values() {
    std::vector<float> values = {0.0f,
                                 -0.0f,
                                 1.0f,
                                 -1.0f,
                                 0.1f,
                                 1.0f / 3.0f,
                                 std::numeric_limits<float>::infinity(),
                                 -std::numeric_limits<float>::infinity(),
                                 std::numeric_limits<float>::quiet_NaN(),
                                 float_from_bits(0x7f800001u),  // signalling
                                 float_from_bits(0xffc00123u),
                                 std::numeric_limits<float>::max(),
                                 std::numeric_limits<float>::min(),
                                 std::numeric_limits<float>::denorm_min(),
                                 65504.0f,
                                 65519.0f,
                                 65520.0f,
                                 65536.0f,
                                 1e10f,
                                 -70000.0f,  // fp16 range edge
                                 std::ldexp(1.0f, -14),
                                 std::ldexp(1.0f, -24),
                                 std::ldexp(1.0f, -25),
                                 std::ldexp(3.0f, -26),
                                 std::ldexp(1.0f, -26),
                                 std::ldexp(1023.0f, -24),  // subnormals
                                 std::ldexp(1.0f, -133),
                                 3.3895313892515355e38f};
    std::mt19937 engine(2026);
    for (int i = 0; i < 200000; ++i) {
        values.push_back(float_from_bits(static_cast<std::uint32_t>(engine())));
    }
    // Values in the range the engine stores (activations, gradients): exponent near 0.
    std::uniform_real_distribution<float> moderate(-300.0f, 300.0f);
    for (int i = 0; i < 200000; ++i) {
        values.push_back(moderate(engine));
    }
    return values;
}

TEST(StorageMath, StoringFp16EqualsTheEmulationsRoundingBitForBit) {
    for (const float v : probe_values()) {
        const math::Fp16 stored = math::store<math::Fp16>(v);
        EXPECT_EQ(stored.bits, numerics::fp16_bits_from_float(v)) << v;
        EXPECT_TRUE(same_value(math::load(stored), numerics::round_to_fp16(v))) << v;
    }
}

TEST(StorageMath, StoringBf16EqualsTheEmulationsRoundingBitForBit) {
    for (const float v : probe_values()) {
        const math::Bf16 stored = math::store<math::Bf16>(v);
        const float loaded = math::load(stored);
        EXPECT_TRUE(same_value(loaded, numerics::round_to_bf16(v))) << v;
        if (!std::isnan(v)) {
            // Not NaN: the emulation's float is exactly the stored upper half.
            EXPECT_EQ(float_bits(numerics::round_to_bf16(v)), std::uint32_t{stored.bits} << 16)
                << v;
        }
    }
}

TEST(StorageMath, Fp16CornerCasesAreIeeeRoundToNearestEven) {
    auto bits = [](float v) { return math::store<math::Fp16>(v).bits; };
    EXPECT_EQ(bits(0.0f), 0x0000);
    EXPECT_EQ(bits(-0.0f), 0x8000);
    EXPECT_EQ(bits(1.0f), 0x3c00);
    EXPECT_EQ(bits(65504.0f), 0x7bff);                  // largest finite
    EXPECT_EQ(bits(65519.0f), 0x7bff);                  // below the midpoint to 65536
    EXPECT_EQ(bits(65520.0f), 0x7c00);                  // the midpoint rounds (to even) to inf
    EXPECT_EQ(bits(-1e10f), 0xfc00);                    // overflow keeps the sign
    EXPECT_EQ(bits(std::ldexp(1.0f, -14)), 0x0400);     // smallest normal
    EXPECT_EQ(bits(std::ldexp(1.0f, -24)), 0x0001);     // smallest subnormal
    EXPECT_EQ(bits(std::ldexp(1.0f, -25)), 0x0000);     // tie to even: zero
    EXPECT_EQ(bits(std::ldexp(3.0f, -26)), 0x0001);     // above the tie
    EXPECT_EQ(bits(std::ldexp(3.0f, -25)), 0x0002);     // tie 1.5 quanta -> 2 (even)
    EXPECT_EQ(bits(std::ldexp(1023.0f, -24)), 0x03ff);  // largest subnormal
    EXPECT_EQ(bits(std::numeric_limits<float>::denorm_min()), 0x0000);
    EXPECT_EQ(bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie between 1 and next: even
    EXPECT_EQ(bits(1.0f + std::ldexp(3.0f, -11)), 0x3c02);  // tie: to even upward
    EXPECT_EQ(bits(std::numeric_limits<float>::infinity()), 0x7c00);
    const std::uint16_t nan = bits(std::numeric_limits<float>::quiet_NaN());
    EXPECT_EQ(nan & 0x7c00, 0x7c00);
    EXPECT_NE(nan & 0x03ff, 0);
    EXPECT_NE(bits(float_from_bits(0x7f800001u)) & 0x03ff, 0);  // a signalling NaN stays NaN
}

TEST(StorageMath, Bf16CornerCasesAreRoundToNearestEven) {
    auto bits = [](float v) { return math::store<math::Bf16>(v).bits; };
    EXPECT_EQ(bits(1.0f), 0x3f80);
    EXPECT_EQ(bits(-0.0f), 0x8000);
    EXPECT_EQ(bits(float_from_bits(0x3f808000u)), 0x3f80);       // tie, even below
    EXPECT_EQ(bits(float_from_bits(0x3f818000u)), 0x3f82);       // tie, even above
    EXPECT_EQ(bits(float_from_bits(0x3f808001u)), 0x3f81);       // above the tie
    EXPECT_EQ(bits(std::numeric_limits<float>::max()), 0x7f80);  // rounds up to infinity
    EXPECT_EQ(bits(-std::numeric_limits<float>::infinity()), 0xff80);
    EXPECT_EQ(bits(std::numeric_limits<float>::denorm_min()), 0x0000);  // fp32 subnormal
    EXPECT_EQ(bits(float_from_bits(0x00018000u)), 0x0002);              // subnormal tie, to even
    // A NaN whose payload sits only in the dropped half is still NaN (quieted).
    const std::uint16_t nan = bits(float_from_bits(0x7f800001u));
    EXPECT_EQ(nan & 0x7f80, 0x7f80);
    EXPECT_NE(nan & 0x007f, 0);
}

TEST(StorageMath, EverySixteenBitValueLoadsExactlyAndStoresBackUnchanged) {
    for (std::uint32_t pattern = 0; pattern <= 0xffffu; ++pattern) {
        const auto b = static_cast<std::uint16_t>(pattern);
        const float half = math::load(math::Fp16{b});
        EXPECT_TRUE(same_value(half, numerics::float_from_fp16_bits(b))) << pattern;
        const float brain = math::load(math::Bf16{b});
        EXPECT_EQ(float_bits(brain), std::uint32_t{b} << 16);
        if (!std::isnan(half)) {
            ASSERT_EQ(math::store<math::Fp16>(half).bits, b) << pattern;
        }
        if (!std::isnan(brain)) {
            ASSERT_EQ(math::store<math::Bf16>(brain).bits, b) << pattern;
        }
        EXPECT_EQ(math::element_is_finite(math::Fp16{b}), std::isfinite(half)) << pattern;
        EXPECT_EQ(math::element_is_finite(math::Bf16{b}), std::isfinite(brain)) << pattern;
    }
}

TEST(StorageMath, ConversionsBetweenStorageTypes) {
    // f32 master -> 16-bit compute copy: the emulation's rounding.
    EXPECT_EQ(math::convert_element<math::Fp16>(0.1f).bits, numerics::fp16_bits_from_float(0.1f));
    EXPECT_EQ(math::load(math::convert_element<math::Bf16>(0.1f)), numerics::round_to_bf16(0.1f));
    // Widening is exact; f16 -> bf16 rounds the float it loads as.
    const math::Fp16 third = math::store<math::Fp16>(1.0f / 3.0f);
    EXPECT_EQ(math::convert_element<float>(third), math::load(third));
    EXPECT_EQ(math::convert_element<double>(third), static_cast<double>(math::load(third)));
    EXPECT_EQ(math::load(math::convert_element<math::Bf16>(third)),
              numerics::round_to_bf16(math::load(third)));
    EXPECT_EQ(math::convert_element<float>(0.1), 0.1f);
    EXPECT_EQ(math::convert_element<double>(0.1f), static_cast<double>(0.1f));
    EXPECT_FALSE(math::element_is_finite(std::numeric_limits<double>::infinity()));
    EXPECT_FALSE(math::element_is_finite(std::numeric_limits<float>::quiet_NaN()));
    EXPECT_TRUE(math::element_is_finite(std::numeric_limits<float>::max()));
    EXPECT_TRUE(math::element_is_finite(-std::numeric_limits<double>::denorm_min()));
}

// The loss kernel on 16-bit logits equals the float kernel on the same (exact) values,
// with its gradient rounded to the storage type: what the emulation computes (f32 loss
// kernel, then round_storage).
TEST(StorageMath, SoftmaxCrossEntropyOnFp16LogitsIsTheEmulation) {
    const std::vector<float> raw = {0.3f, -1.7f, 2.2f, 0.01f, -0.5f};
    std::vector<math::Fp16> half;
    std::vector<float> rounded;
    for (const float v : raw) {
        half.push_back(math::store<math::Fp16>(v));
        rounded.push_back(numerics::round_to_fp16(v));
    }
    std::vector<math::Fp16> half_gradient(raw.size());
    std::vector<float> float_gradient(raw.size());
    const double scale = 1024.0 / 32.0;  // loss scale / rows
    const math::CrossEntropyRow h =
        math::softmax_cross_entropy_row(half.data(), 5, 2, scale, half_gradient.data());
    const math::CrossEntropyRow f =
        math::softmax_cross_entropy_row(rounded.data(), 5, 2, scale, float_gradient.data());
    EXPECT_EQ(h.loss, f.loss);
    EXPECT_EQ(h.correct, f.correct);
    for (std::size_t j = 0; j < raw.size(); ++j) {
        EXPECT_EQ(half_gradient[j].bits, numerics::fp16_bits_from_float(float_gradient[j])) << j;
    }
}

TEST(StorageMath, PoolingOnBf16PlanesComputesOnTheLoadedValues) {
    const math::PoolPlane d{4, 4, 2, 2, 2, 2, 0};
    std::vector<math::Bf16> plane;
    std::vector<float> loaded;
    for (int i = 0; i < 16; ++i) {
        plane.push_back(math::store<math::Bf16>(0.37f * static_cast<float>(i % 5) - 0.6f));
        loaded.push_back(math::load(plane.back()));
    }
    for (long long op = 0; op < 2; ++op) {
        for (long long oq = 0; oq < 2; ++oq) {
            EXPECT_EQ(math::max_pool_output(d, plane.data(), op, oq),
                      math::max_pool_output(d, loaded.data(), op, oq));
            EXPECT_EQ(math::avg_pool_output(d, plane.data(), op, oq),
                      math::avg_pool_output(d, loaded.data(), op, oq));
        }
    }
}

}  // namespace
}  // namespace trainscope::workloads::cuda
