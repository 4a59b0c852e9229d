#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "gui/timeline/TimelineData.hpp"
#include "gui/timeline/TimestampPrecision.hpp"
#include "profiler/analysis/DeviceWorkAccumulator.hpp"
#include "profiler/analysis/LaneSummary.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::gui {

// Builds a TimelineData from a stored run's activities as they are read, one at a time in
// the stored order (Trace::sort's: lane by lane, by start), without holding their records:
// each becomes its compact event on its row at once, and what the timeline measures over
// all of them (busy time, the launch index, the extent and precision of the times) is
// accumulated by the same code TimelineData::build runs over a whole trace. The result
// answers as build's does for the same trace (tst_details_from_store). A CPU-backend
// trace (profiler::is_host_op_trace: its ops are the device's work, known only once every
// activity has passed) is not built this way: hostOpTrace() tells the caller to build it
// from the whole trace.
class TimelineStream {
  public:
    // `header`: the trace without its activities (reports::load_trace_header); `count`: how
    // many activities will pass; `summaries`: those stored with the trace, which also say
    // how many events each summarised row gets (its vector is allocated once).
    TimelineStream(profiler::Trace header, std::size_t count,
                   std::vector<profiler::RowSummaryLevel> summaries);

    // The next activity (index: the number taken so far). False, taking nothing, when it is
    // out of the trace's order or one too many: then the stream cannot give the timeline.
    bool add(const profiler::Activity& a);
    [[nodiscard]] std::size_t taken() const { return next_; }
    // The trace without its activities, until finish().
    [[nodiscard]] const profiler::Trace& header() const { return data_->trace(); }
    // No kernel, copy or set passed, but host ops did (is_host_op_trace).
    [[nodiscard]] bool hostOpTrace() const { return host_ops_ && !gpu_work_; }
    // The timeline, once every activity has passed (taken() == count).
    [[nodiscard]] std::shared_ptr<TimelineData> finish();

  private:
    static std::shared_ptr<TimelineData> withHeader(profiler::Trace header);
    void endLane();
    Category categoryOf(profiler::ActivityKind kind, profiler::StringId name);

    std::shared_ptr<TimelineData> data_;
    std::size_t count_ = 0;
    std::size_t next_ = 0;
    std::vector<profiler::RowSummaryLevel> summaries_;
    std::map<std::pair<profiler::LaneId, std::uint16_t>, std::size_t> summarised_size_;
    // The lane now passing and its rows (by depth); the finished lanes' rows by lane.
    profiler::LaneId lane_ = 0;
    std::size_t lane_first_ = 0;
    std::vector<std::vector<TimelineEvent>> lane_rows_;
    std::vector<std::vector<std::vector<TimelineEvent>>> rows_of_lane_;
    std::vector<std::pair<std::size_t, std::size_t>> range_of_lane_;  // [first, last)
    // The last activity's order key (in_trace_order).
    struct OrderKey {
        profiler::LaneId lane = 0;
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
    };
    OrderKey last_;
    std::vector<std::vector<std::uint8_t>> category_cache_;  // by kind, name: category + 1
    std::vector<TimelineData::Correlated> correlated_;
    std::vector<std::uint32_t> rank_key_of_lane_;          // TimelineData::launchRankKeys
    std::optional<profiler::DeviceWorkAccumulator> work_;  // let go once measured
    std::int64_t begin_ns_ = 0;
    std::int64_t end_ns_ = 0;
    TimestampPrecision precision_;
    bool gpu_work_ = false;
    bool host_ops_ = false;
};

}  // namespace trainscope::gui
