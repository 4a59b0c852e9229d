#pragma once

#include <cmath>
#include <cstdint>

namespace trainscope::reports {

// Welford's running mean and variance: O(1) per sample, so the stopping rule can be
// checked after every step without re-reading all step times.
struct RunningMoments {
    std::int64_t count = 0;
    double mean = 0.0;
    double m2 = 0.0;

    void add(double x) {
        ++count;
        const double delta = x - mean;
        mean += delta / static_cast<double>(count);
        m2 += delta * (x - mean);
    }
    [[nodiscard]] double variance() const {
        return count >= 2 ? std::fmax(0.0, m2 / static_cast<double>(count - 1)) : 0.0;
    }
    // Standard error of the mean over the mean; 0 with fewer than two samples.
    [[nodiscard]] double relative_standard_error() const {
        if (count < 2 || mean == 0.0)
            return 0.0;
        return std::sqrt(variance() / static_cast<double>(count)) / std::fabs(mean);
    }
};

}  // namespace trainscope::reports
