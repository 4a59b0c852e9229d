#include "profiler/analysis/TensorCoreAnalysis.hpp"

#include "profiler/analysis/KernelCategory.hpp"

namespace trainscope::profiler {

void TensorCoreAccumulator::add(const Activity& a) {
    if (a.kind != ActivityKind::Kernel)
        return;
    ++usage_.kernel_count;
    usage_.kernel_ns += a.duration_ns();
    auto [it, inserted] = verdicts_.emplace(a.name, false);
    if (inserted)
        it->second = uses_tensor_cores(strings_.at(a.name));
    if (!it->second)
        return;
    ++usage_.tensor_core_kernel_count;
    usage_.tensor_core_ns += a.duration_ns();
    tensor_core_names_.insert(a.name);
}

TensorCoreUsage TensorCoreAccumulator::finish() const {
    TensorCoreUsage usage = usage_;
    std::set<std::string> names;
    for (const StringId id : tensor_core_names_)
        names.insert(strings_.at(id));
    usage.kernel_names.assign(names.begin(), names.end());
    usage.share = usage.kernel_ns > 0 ? static_cast<double>(usage.tensor_core_ns) /
                                            static_cast<double>(usage.kernel_ns)
                                      : 0.0;
    return usage;
}

TensorCoreUsage analyze_tensor_core_usage(const Trace& trace) {
    TensorCoreAccumulator usage(trace.strings);
    for (const Activity& a : trace.activities)
        usage.add(a);
    return usage.finish();
}

}  // namespace trainscope::profiler
