// The index math and summation order of the per-channel reductions
// (kernels/ChannelReductionMath.hpp), run on the host: the additions-only walks against
// plain division, the slices covering each channel once, the 32-bit bound, and the
// two-stage sum (the kernels' order, emulated) against a double reference.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <vector>

#include "workloads/backends/cuda/kernels/ChannelReductionMath.hpp"

namespace trainscope::workloads::cuda {
namespace {

struct Dims {
    long long outer, channels, inner;
    long long per_channel() const { return outer * inner; }
    long long elements() const { return outer * channels * inner; }
};

// Element k of `channel`, by division: the NCHW layout the walks must follow.
long long reference_offset(const Dims& d, long long k, long long channel) {
    return ((k / d.inner) * d.channels + channel) * d.inner + k % d.inner;
}

template <typename I>
void expect_slices_walk_each_channel_once(const Dims& d) {
    const math::ChannelWalk<I> w = math::slice_walk<I>(d.outer, d.channels, d.inner);
    const long long slices = math::channel_slice_count(d.per_channel());
    for (long long channel = 0; channel < d.channels; ++channel) {
        std::set<long long> seen;
        for (long long s = 0; s < slices; ++s) {
            for (int t = 0; t < math::kSliceThreads; ++t) {
                int expected_i = 0;
                math::visit_slice_thread(w, s, t, static_cast<I>(channel), [&](int i, I offset) {
                    const long long k = s * math::kSliceLength + t +
                                        static_cast<long long>(i) * math::kSliceThreads;
                    ASSERT_EQ(i, expected_i++);
                    ASSERT_LT(k, d.per_channel());
                    ASSERT_EQ(static_cast<long long>(offset), reference_offset(d, k, channel))
                        << "k " << k << " channel " << channel;
                    seen.insert(static_cast<long long>(offset));
                });
            }
        }
        EXPECT_EQ(static_cast<long long>(seen.size()), d.per_channel()) << "channel " << channel;
    }
}

TEST(ChannelReductionMath, SlicesWalkEveryElementOfAChannelOnceInNchwOrder) {
    // Planes smaller than, equal to and larger than a thread step (256), [N, C] input,
    // and a channel of several slices with a short last one.
    for (const Dims d : {Dims{3, 4, 5 * 5}, Dims{2, 3, 256}, Dims{5, 2, 33 * 17}, Dims{600, 7, 1},
                         Dims{9, 2, 1000}}) {
        expect_slices_walk_each_channel_once<std::uint32_t>(d);
        expect_slices_walk_each_channel_once<std::uint64_t>(d);
    }
}

TEST(ChannelReductionMath, SliceCountsCoverTheChannel) {
    EXPECT_EQ(math::channel_slice_count(0), 1);  // an empty channel still gets its statistics
    EXPECT_EQ(math::channel_slice_elements(0, 0), 0);
    EXPECT_EQ(math::channel_slice_count(math::kSliceLength), 1);
    EXPECT_EQ(math::channel_slice_count(math::kSliceLength + 1), 2);
    EXPECT_EQ(math::channel_slice_elements(math::kSliceLength + 1, 0), math::kSliceLength);
    EXPECT_EQ(math::channel_slice_elements(math::kSliceLength + 1, 1), 1);
}

template <typename I>
void expect_flat_walk_finds_channels(long long channels, long long inner, long long stride,
                                     long long start, int steps) {
    const math::FlatChannelWalk<I> w = math::flat_channel_walk<I>(channels, inner, stride);
    math::FlatChannelCursor<I> at = math::flat_channel_cursor(w, static_cast<I>(start));
    long long index = start;
    for (int step = 0; step < steps; ++step, index += stride) {
        ASSERT_EQ(static_cast<long long>(at.channel), (index / inner) % channels)
            << "index " << index << " stride " << stride;
        ASSERT_EQ(static_cast<long long>(at.position), index % inner) << "index " << index;
        math::advance(at, w);
    }
}

TEST(ChannelReductionMath, FlatWalkFindsTheChannelOfEveryIndexItVisits) {
    // Strides below, at and far above a plane and a channel row; inner 1 is [N, C].
    for (const long long stride : {1LL, 7LL, 49LL, 256LL, 49LL * 512, 268435456LL}) {
        for (const long long start : {0LL, 3LL, 1000LL}) {
            expect_flat_walk_finds_channels<std::uint32_t>(512, 49, stride, start, 200);
            expect_flat_walk_finds_channels<std::uint32_t>(6, 1, stride, start, 200);
            expect_flat_walk_finds_channels<std::uint64_t>(64, 1024, stride, start, 200);
        }
    }
    // 64-bit indices past 2^32.
    expect_flat_walk_finds_channels<std::uint64_t>(2048, 3136, 268435456LL, 5000000000LL, 200);
}

TEST(ChannelReductionMath, ThirtyTwoBitIndicesOnlyWhereTheyReach) {
    EXPECT_TRUE(math::fits_32_bit_indices((1LL << 31), (1LL << 28)));
    EXPECT_TRUE(math::fits_32_bit_indices((1LL << 32) - 2, 1));
    EXPECT_FALSE(math::fits_32_bit_indices((1LL << 32) - 1, 1));
    EXPECT_FALSE(math::fits_32_bit_indices(5000000000LL, 256));
}

TEST(ChannelReductionMath, TreeSumPairsLikeTheKernels) {
    // In float 1e8 + 1 == 1e8: (v0 + v2) + (v1 + v3) keeps the ones, a left-to-right sum
    // would drop them.
    float values[4] = {1e8f, 1.0f, -1e8f, 1.0f};
    EXPECT_EQ(math::tree_sum(values, 4), 2.0f);
    // The lanes take values l, l + 32, ... in turn.
    const float lanes = math::lane_ordered_sum<float>(
        64, [](long long s) { return s == 0 ? 1e8f : (s == 32 ? -1e8f : (s == 1 ? 3.0f : 0.0f)); });
    EXPECT_EQ(lanes, 3.0f);
}

std::vector<float> random_values(long long count, double low, double high, unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<double> distribution(low, high);
    std::vector<float> values(static_cast<std::size_t>(count));
    for (float& v : values) {
        v = static_cast<float>(distribution(engine));
    }
    return values;
}

TEST(ChannelReductionMath, TwoStageSumMatchesADoubleReferenceAndRepeatsItsBits) {
    // 70 slices a channel: the combining warp's lanes take two or three slices each.
    const Dims d{128, 3, 1120};
    const std::vector<float> x = random_values(d.elements(), -1.0, 3.0, 7);
    const auto w64 = math::slice_walk<std::uint64_t>(d.outer, d.channels, d.inner);
    const auto w32 = math::slice_walk<std::uint32_t>(d.outer, d.channels, d.inner);
    for (long long channel = 0; channel < d.channels; ++channel) {
        double reference = 0.0;
        double magnitude = 0.0;
        for (long long k = 0; k < d.per_channel(); ++k) {
            const double v = x[static_cast<std::size_t>(reference_offset(d, k, channel))];
            reference += v;
            magnitude += std::abs(v);
        }
        const auto term = [&](auto offset) { return x[static_cast<std::size_t>(offset)]; };
        const float sum = math::channel_sum<float>(w64, static_cast<std::uint64_t>(channel), term);
        // A pairwise sum of 140000 floats: error far below a sequential sum's bound.
        EXPECT_NEAR(sum, reference, 1e-6 * magnitude) << channel;
        // The order depends on the shape alone: again, and with 32-bit indices, the same bits.
        EXPECT_EQ(sum, math::channel_sum<float>(w64, static_cast<std::uint64_t>(channel), term));
        EXPECT_EQ(sum, math::channel_sum<float>(w32, static_cast<std::uint32_t>(channel), term));
        // In double (bias_backward of f64) the same order.
        const double sum_double = math::channel_sum<double>(
            w64, static_cast<std::uint64_t>(channel), [&](std::uint64_t offset) {
                return static_cast<double>(x[static_cast<std::size_t>(offset)]);
            });
        EXPECT_NEAR(sum_double, reference, 1e-12 * magnitude) << channel;
    }
}

}  // namespace
}  // namespace trainscope::workloads::cuda
