#pragma once

#include <cstdint>

#include "workloads/numerics/HostDevice.hpp"

// Index math and summation order of this backend's per-channel reductions (bias gradient,
// bf16 batch-norm statistics) over [outer, channels, inner] tensors (NCHW: outer = N,
// inner = H*W; [N, C]: inner = 1), written once for the kernels and for the CPU tests.
//
// A channel's outer * inner elements, numbered k = n * inner + position, are cut into
// slices of kSliceLength; block (slice, channel) of the statistics kernel owns one slice.
// Its thread t reads elements slice * kSliceLength + t + i * kSliceThreads for i = 0, 1,
// ... (consecutive threads read consecutive addresses within a plane) and sums them in
// that order; the block adds its threads' sums with tree_sum's pairing, and one warp per
// channel adds the slices' sums in lane_ordered_sum's order. No atomics: the order is a
// function of the shape alone, so a launch repeats its bits on every run and every
// device. I is the index type (std::uint32_t where the tensor allows, else
// std::uint64_t): walking needs additions only, the one division is per thread.
namespace trainscope::workloads::cuda::math {

constexpr int kSliceThreads = 256;
constexpr int kSliceItems = 8;
constexpr long long kSliceLength = static_cast<long long>(kSliceThreads) * kSliceItems;
constexpr int kCombineLanes = 32;  // one warp adds a channel's slice sums

// Slices of a channel of `per_channel` elements; at least one, so an empty channel still
// gets its statistics (of zero elements) written.
TS_HD inline long long channel_slice_count(long long per_channel) {
    const long long slices = (per_channel + kSliceLength - 1) / kSliceLength;
    return slices > 0 ? slices : 1;
}

// Elements of slice `slice` (the last one may be short).
TS_HD inline long long channel_slice_elements(long long per_channel, long long slice) {
    const long long rest = per_channel - slice * kSliceLength;
    return rest < kSliceLength ? (rest > 0 ? rest : 0) : kSliceLength;
}

// A step of one thread through one channel's elements, split once on the host into
// whole planes and a remainder so that the walk is additions only. For a step of
// q * inner + r elements the offset (n * channels + c) * inner + position grows by
// q * channels * inner + r, plus (channels - 1) * inner when the position wraps.
template <typename I>
struct ChannelWalk {
    I per_channel;  // outer * inner
    I channels;
    I inner;
    I position_step;  // r
    I plane_jump;     // q * channels * inner + r
    I wrap_jump;      // (channels - 1) * inner
};

template <typename I>
TS_HD inline ChannelWalk<I> channel_walk(long long outer, long long channels, long long inner,
                                         long long step) {
    const long long q = step / inner;
    const long long r = step % inner;
    return {static_cast<I>(outer * inner),
            static_cast<I>(channels),
            static_cast<I>(inner),
            static_cast<I>(r),
            static_cast<I>(q * channels * inner + r),
            static_cast<I>((channels - 1) * inner)};
}

template <typename I>
struct ChannelCursor {
    I offset;    // of element k in the tensor
    I position;  // k % inner
};

// Element k of `channel`: the walk's one division.
template <typename I>
TS_HD inline ChannelCursor<I> channel_cursor(const ChannelWalk<I>& w, I k, I channel) {
    const I n = k / w.inner;
    const I position = k - n * w.inner;
    return {(n * w.channels + channel) * w.inner + position, position};
}

template <typename I>
TS_HD inline void advance(ChannelCursor<I>& at, const ChannelWalk<I>& w) {
    at.offset += w.plane_jump;
    at.position += w.position_step;
    if (at.position >= w.inner) {
        at.position -= w.inner;
        at.offset += w.wrap_jump;
    }
}

// Calls visit(i, offset) for the elements thread `thread` of block (slice, channel) sums,
// in its order (i = 0, 1, ...; at most kSliceItems); the kernels' loop and the host's.
template <typename I, typename Visit>
TS_HD inline void visit_slice_thread(const ChannelWalk<I>& w, long long slice, int thread,
                                     I channel, Visit&& visit) {
    I k = static_cast<I>(slice * kSliceLength + thread);
    if (k >= w.per_channel) {
        return;
    }
    ChannelCursor<I> at = channel_cursor(w, k, channel);
#if defined(__CUDA_ARCH__)  // the device pass only: host compilers warn on the pragma
#pragma unroll
#endif
    for (int i = 0; i < kSliceItems; ++i) {
        visit(i, at.offset);
        k += static_cast<I>(kSliceThreads);
        if (i + 1 == kSliceItems || k >= w.per_channel) {
            return;  // no step past the channel's last element: offsets stay in range
        }
        advance(at, w);
    }
}

// The walk a slice's threads use: a step of kSliceThreads elements.
template <typename I>
TS_HD inline ChannelWalk<I> slice_walk(long long outer, long long channels, long long inner) {
    return channel_walk<I>(outer, channels, inner, kSliceThreads);
}

// Channel of flat index i, advanced by a grid stride with additions only: the
// element-wise per-channel kernels (bias add, batch-norm normalize and dx). For a stride
// of q * inner + r the position grows by r and the channel by q mod channels, plus one
// when the position wraps.
template <typename I>
struct FlatChannelWalk {
    I stride;  // the grid's threads: the kernel steps by this, so the walk is made from it
    I inner;
    I channels;
    I position_step;  // r
    I channel_step;   // q % channels
};

template <typename I>
TS_HD inline FlatChannelWalk<I> flat_channel_walk(long long channels, long long inner,
                                                  long long stride) {
    return {static_cast<I>(stride), static_cast<I>(inner), static_cast<I>(channels),
            static_cast<I>(stride % inner), static_cast<I>((stride / inner) % channels)};
}

template <typename I>
struct FlatChannelCursor {
    I position;
    I channel;
};

template <typename I>
TS_HD inline FlatChannelCursor<I> flat_channel_cursor(const FlatChannelWalk<I>& w, I index) {
    const I plane = index / w.inner;
    return {index - plane * w.inner, plane % w.channels};
}

template <typename I>
TS_HD inline void advance(FlatChannelCursor<I>& at, const FlatChannelWalk<I>& w) {
    at.position += w.position_step;
    at.channel += w.channel_step;  // < 2 * channels - 1: one subtraction below suffices
    if (at.position >= w.inner) {
        at.position -= w.inner;
        ++at.channel;
    }
    if (at.channel >= w.channels) {
        at.channel -= w.channels;
    }
}

// Whether 32-bit indices reach every element of a tensor of `elements`, with a grid
// stride of up to `stride` added past the last one (unsigned, so 2^32 - 1 is the bound).
inline bool fits_32_bit_indices(long long elements, long long stride) {
    return elements + stride < (1LL << 32);
}

// The summation order on the host, exactly as the kernels add (the device's float
// products may be fused into FMAs, so host and device agree in order, not always in the
// last bit): values[t] += values[t + half] for half = count / 2, ..., 1; count a power of
// two. The kernels do this in shared memory and warp shuffles.
template <typename Acc>
Acc tree_sum(Acc* values, int count) {
    for (int half = count / 2; half > 0; half /= 2) {
        for (int t = 0; t < half; ++t) {
            values[t] += values[t + half];
        }
    }
    return values[0];
}

// The warp's order over a channel's slice values: lane l adds value(l), value(l + 32),
// ... in turn, then tree_sum over the 32 lanes.
template <typename Acc, typename Value>
Acc lane_ordered_sum(long long count, const Value& value) {
    Acc lanes[kCombineLanes] = {};
    for (int lane = 0; lane < kCombineLanes; ++lane) {
        for (long long s = lane; s < count; s += kCombineLanes) {
            lanes[lane] += value(s);
        }
    }
    return tree_sum(lanes, kCombineLanes);
}

// One slice's sum of term(offset) in the statistics kernel's order.
template <typename Acc, typename I, typename Term>
Acc slice_sum(const ChannelWalk<I>& w, long long slice, I channel, const Term& term) {
    Acc threads[kSliceThreads] = {};
    for (int t = 0; t < kSliceThreads; ++t) {
        visit_slice_thread(w, slice, t, channel,
                           [&](int, I offset) { threads[t] += term(offset); });
    }
    return tree_sum(threads, kSliceThreads);
}

// A channel's sum of term(offset) through both stages, as bias_backward computes it.
template <typename Acc, typename I, typename Term>
Acc channel_sum(const ChannelWalk<I>& w, I channel, const Term& term) {
    const long long slices = channel_slice_count(static_cast<long long>(w.per_channel));
    return lane_ordered_sum<Acc>(slices,
                                 [&](long long s) { return slice_sum<Acc>(w, s, channel, term); });
}

}  // namespace trainscope::workloads::cuda::math
