#pragma once

#include <cstdint>
#include <optional>

#include "profiler/trace/Trace.hpp"
#include "reports/memory/MemoryPeak.hpp"
#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

// The run's tensor-memory peak by class as stored (reports::MemoryPeak), from the engine's
// ledger; with a trace and the moment of the peak on its clock, the phase and op then.
reports::MemoryPeak memory_peak_record(const workloads::TrainingResult& result,
                                       const profiler::Trace* trace,
                                       std::optional<std::int64_t> peak_t_ns);

}  // namespace trainscope::harness
