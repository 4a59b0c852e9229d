#include "profiler/analysis/TensorCoreAnalysis.hpp"

#include <set>
#include <unordered_map>

#include "profiler/analysis/KernelCategory.hpp"

namespace trainscope::profiler {

TensorCoreUsage analyze_tensor_core_usage(const Trace& trace) {
    TensorCoreUsage usage;
    std::unordered_map<StringId, bool> verdicts;  // classify each distinct name once
    std::set<std::string> names;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::Kernel)
            continue;
        ++usage.kernel_count;
        usage.kernel_ns += a.duration_ns();
        auto [it, inserted] = verdicts.emplace(a.name, false);
        if (inserted)
            it->second = uses_tensor_cores(trace.strings.at(a.name));
        if (!it->second)
            continue;
        ++usage.tensor_core_kernel_count;
        usage.tensor_core_ns += a.duration_ns();
        names.insert(trace.strings.at(a.name));
    }
    usage.kernel_names.assign(names.begin(), names.end());
    usage.share = usage.kernel_ns > 0 ? static_cast<double>(usage.tensor_core_ns) /
                                            static_cast<double>(usage.kernel_ns)
                                      : 0.0;
    return usage;
}

}  // namespace trainscope::profiler
