#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "profiler/analysis/LaneSummary.hpp"
#include "reports/store/LaneSummaryStore.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::testing {

// The run's stored level-of-detail summaries read back as `expected` (summarize_rows of
// the trace it was stored from), level by level.
inline void expect_stored_summaries(const reports::ResultsDatabase& db, std::int64_t run_id,
                                    const std::vector<profiler::RowSummaryLevel>& expected) {
    ASSERT_GE(expected.size(), 3u);
    const auto loaded = reports::load_lane_summaries(db, run_id);
    ASSERT_TRUE(loaded.has_value());
    ASSERT_EQ(loaded->size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const auto& want = expected[i];
        const auto& got = (*loaded)[i];
        EXPECT_EQ(std::make_tuple(got.lane, got.depth, got.level, got.width_ns, got.origin_ns),
                  std::make_tuple(want.lane, want.depth, want.level, want.width_ns, want.origin_ns))
            << "level " << i;
        EXPECT_TRUE(got.buckets == want.buckets) << "level " << i;
    }
}

}  // namespace trainscope::testing
