#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "profiler/analysis/LaunchIndex.hpp"
#include "profiler/analysis/RankWork.hpp"
#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Whose definitions a per-rank breakdown follows.
enum class BreakdownDefinitions {
    // Ours (docs/profiler.md): the rank's device work in the window (RankWork); span =
    // first start to last end; idle = span - union of all work; compute = union of
    // compute work; non-compute = the rest (communication, copies, sets);
    // overlap = |communication ∩ compute| / |communication|, in integer ns.
    Trainscope,
    // Holistic Trace Analysis 0.5's (get_temporal_breakdown, get_comm_comp_overlap),
    // reproduced so users can check us against it: GPU events are the rank's kernels,
    // memcpys and memsets; when the trace holds more than one distinct ProfilerStep#N
    // name, only those launched (by correlation) before the rank's last ProfilerStep
    // began (HTA drops the last, possibly incomplete, step); a name matching
    // ^nccl.*Kernel is communication, ^Memcpy|^Memset|^dma memory, and a name that is
    // none of those and does not contain "Memcpy" or "Sync" computation; fractional-µs
    // times are rounded inwards to whole µs (start up, end down) as HTA does; the
    // percentages are rounded to 2 decimals. The window is not applied (HTA has none).
    Hta,
};

struct RankTimeBreakdown {
    std::int32_t rank = 0;
    std::int64_t span_ns = 0;  // HTA's kernel_time
    std::int64_t idle_ns = 0;
    std::int64_t compute_ns = 0;
    std::int64_t non_compute_ns = 0;
    std::int64_t communication_ns = 0;  // union of communication work
    std::int64_t overlap_ns = 0;        // communication while computation runs
    std::int64_t work_count = 0;        // device work items considered

    [[nodiscard]] double idle_percent() const { return percent(idle_ns); }
    [[nodiscard]] double compute_percent() const { return percent(compute_ns); }
    [[nodiscard]] double non_compute_percent() const { return percent(non_compute_ns); }
    // Share of communication time overlapped by computation, in %.
    [[nodiscard]] double overlap_percent() const {
        return communication_ns > 0
                   ? 100.0 * static_cast<double>(overlap_ns) / static_cast<double>(communication_ns)
                   : 0.0;
    }

  private:
    [[nodiscard]] double percent(std::int64_t part) const {
        return span_ns > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(span_ns) : 0.0;
    }
};

// One row per rank with device work (ascending rank).
std::vector<RankTimeBreakdown> analyze_rank_time_breakdown(
    const Trace& trace, const TimeWindow& window = {},
    BreakdownDefinitions definitions = BreakdownDefinitions::Trainscope);

// The Hta rows of analyze_rank_time_breakdown as activities pass one at a time in trace
// order (the whole-trace function is this fed every activity). HTA drops the work launched
// after each rank's last step, which is known only at the end, so each GPU work item is
// kept (32 bytes: correlation, start, end, type) with the rank's host calls that carry a
// correlation id (16 bytes), and the work is filtered and merged at finish.
class HtaBreakdownAccumulator {
  public:
    // `header`: the trace's lanes, names, metadata and clocks; it must outlive this.
    explicit HtaBreakdownAccumulator(const Trace& header);
    void add(const Activity& a);
    [[nodiscard]] std::vector<RankTimeBreakdown> finish() &&;

  private:
    struct Work {
        std::uint64_t correlation = 0;
        std::int64_t start_ns = 0;
        std::int64_t end_ns = 0;
        signed char type = 0;
    };
    struct RankParts {
        std::vector<Work> work;
    };
    const Trace& header_;
    std::set<StringId> step_names_;
    std::map<std::int32_t, std::int64_t> last_step_start_;
    std::map<std::int32_t, RankParts> ranks_;
    LaunchJoin<std::int64_t> launches_;  // CPU events with a correlation id: their starts
    std::vector<signed char> is_step_;
    std::vector<signed char> type_of_;
};

// The Trainscope rows from each rank's work (work_by_rank or RankWorkAccumulator's): what
// analyze_rank_time_breakdown gives with those definitions.
std::vector<RankTimeBreakdown> rank_time_breakdown(const std::map<std::int32_t, RankWork>& work);

// round(100 * (part / whole), 2) as HTA computes its percentages (Python's round rounds
// the exact binary value to the nearest, as printf does); 0 when whole is 0.
double hta_percent(std::int64_t part, std::int64_t whole);

}  // namespace trainscope::profiler
