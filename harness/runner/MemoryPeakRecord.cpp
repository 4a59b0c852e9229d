#include "harness/runner/MemoryPeakRecord.hpp"

#include <string>

#include "profiler/analysis/OpAtTime.hpp"

namespace trainscope::harness {

reports::MemoryPeak memory_peak_record(const workloads::TrainingResult& result,
                                       const profiler::Trace* trace,
                                       std::optional<std::int64_t> peak_t_ns) {
    reports::MemoryPeak peak;
    for (const workloads::TensorClass tensor_class : workloads::kTensorClasses) {
        const std::size_t i = workloads::tensor_class_index(tensor_class);
        peak.classes.push_back({std::string(workloads::tensor_class_name(tensor_class)),
                                result.peak_bytes_by_class[i], result.max_bytes_by_class[i]});
    }
    if (trace != nullptr && peak_t_ns) {
        peak.t_ns = peak_t_ns;
        const profiler::OpAtTime at = profiler::op_at_time(*trace, *peak_t_ns);
        peak.phase = at.phase;
        peak.op = at.op;
    }
    return peak;
}

}  // namespace trainscope::harness
