#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Communication not hidden under computation, per rank and training step. A step is a
// host range named as one (is_training_step_name: ProfilerStep#N, NVTX "step"); a piece
// of communication (NCCL/RCCL kernel, MPI collective) belongs to the step in which it
// was launched (its launching API call by correlation; else its own start); its exposed
// part is what no compute work of the rank (RankWork::compute) covers. A rank without
// step ranges gets one row over the whole trace, named "(whole trace)".
struct ExposedCommunicationRow {
    std::int32_t rank = 0;
    std::string step;  // the step range's name
    std::int64_t step_start_ns = 0;
    std::int64_t communication_ns = 0;  // union of the step's communication
    std::int64_t exposed_ns = 0;

    [[nodiscard]] double exposed_fraction() const {
        return communication_ns > 0
                   ? static_cast<double>(exposed_ns) / static_cast<double>(communication_ns)
                   : 0.0;
    }
};

// Rows by rank, then step start; only steps starting in the window.
std::vector<ExposedCommunicationRow> analyze_exposed_communication(const Trace& trace,
                                                                   const TimeWindow& window = {});

}  // namespace trainscope::profiler
