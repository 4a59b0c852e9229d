#pragma once

#include <cstdint>
#include <span>

#include "profiler/analysis/IntervalSet.hpp"

namespace trainscope::profiler {

// One device's busy and copy/compute figures.
struct DeviceSweepFigures {
    // The kernels' span: first start to last end (0 and 0 for none).
    std::int64_t span_begin_ns = 0;
    std::int64_t span_end_ns = 0;
    // The lengths of the kernels' union, of the copies' union and of their intersection.
    std::int64_t kernel_ns = 0;
    std::int64_t copy_ns = 0;
    std::int64_t overlap_ns = 0;
};

// The one definition of a device's span, busy time and copy/compute overlap: kernels
// and copies pass in start order (both kinds together), and only the open interval of
// the kernels', the copies' and their joint union is held, so that a streamed import
// (DeviceWorkSummary, its records read back sorted from disk) and the whole-trace
// analyses (analyze_gpu_busy, analyze_copy_compute_overlap, over merged intervals)
// measure alike. overlap = kernels + copies - joint: the intersection of two unions
// without holding either.
class DeviceSweep {
  public:
    // `i` must be non-empty and must not begin before the one added before it.
    void add(Interval i, bool kernel) {
        if (kernel) {
            if (!any_kernel_) {
                figures_.span_begin_ns = i.begin_ns;  // the first by start
                figures_.span_end_ns = i.end_ns;
                any_kernel_ = true;
            } else if (i.end_ns > figures_.span_end_ns) {
                figures_.span_end_ns = i.end_ns;
            }
            kernels_.add(i);
        } else {
            copies_.add(i);
        }
        joint_.add(i);
    }

    // Once, after the last add.
    [[nodiscard]] DeviceSweepFigures finish() && {
        figures_.kernel_ns = kernels_.finish();
        figures_.copy_ns = copies_.finish();
        figures_.overlap_ns = figures_.kernel_ns + figures_.copy_ns - joint_.finish();
        return figures_;
    }

    // Sorted, disjoint kernels and copies (merge_intervals's), swept in start order.
    [[nodiscard]] static DeviceSweepFigures of(std::span<const Interval> kernels,
                                               std::span<const Interval> copies) {
        DeviceSweep sweep;
        std::size_t k = 0;
        std::size_t c = 0;
        while (k < kernels.size() || c < copies.size()) {
            if (c == copies.size() ||
                (k < kernels.size() && kernels[k].begin_ns <= copies[c].begin_ns)) {
                sweep.add(kernels[k++], true);
            } else {
                sweep.add(copies[c++], false);
            }
        }
        return std::move(sweep).finish();
    }

  private:
    // The length of a union of intervals that arrive by start.
    class UnionLength {
      public:
        void add(Interval i) {
            if (const auto done = open_.add(i))
                total_ += done->length_ns();
        }
        std::int64_t finish() {
            if (const auto done = open_.finish())
                total_ += done->length_ns();
            return total_;
        }

      private:
        OpenInterval open_;
        std::int64_t total_ = 0;
    };

    DeviceSweepFigures figures_;
    bool any_kernel_ = false;
    UnionLength kernels_;
    UnionLength copies_;
    UnionLength joint_;
};

}  // namespace trainscope::profiler
