#pragma once

#include <array>
#include <cstdint>

namespace trainscope::gui {

// The coarsest of 1 us, 100 ns, 10 ns and 1 ns that every start and end seen is a multiple
// of, relative to the first start seen: the precision a trace really has (Kineto writes
// whole microseconds). Fed one interval at a time, so that the whole trace, the rows read
// one by one and the outline's buckets all ask the same question the same way. The origin
// does not change the answer: when every time is a multiple of a step from one start,
// it is from any other of them too.
class TimestampPrecision {
  public:
    void see(std::int64_t start_ns, std::int64_t end_ns) {
        if (!seen_) {
            origin_ = start_ns;
            seen_ = true;
        }
        for (std::size_t s = 0; s < kSteps.size(); ++s) {
            multiple_of_[s] = multiple_of_[s] && (start_ns - origin_) % kSteps[s] == 0 &&
                              (end_ns - origin_) % kSteps[s] == 0;
        }
    }
    // 1 when nothing was seen.
    [[nodiscard]] std::int64_t resolution_ns() const {
        for (std::size_t s = 0; s < kSteps.size() && seen_; ++s) {
            if (multiple_of_[s])
                return kSteps[s];
        }
        return 1;
    }

  private:
    static constexpr std::array<std::int64_t, 3> kSteps{1000, 100, 10};
    bool seen_ = false;
    std::int64_t origin_ = 0;
    std::array<bool, 3> multiple_of_{true, true, true};
};

}  // namespace trainscope::gui
