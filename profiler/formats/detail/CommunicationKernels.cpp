#include "profiler/formats/detail/CommunicationKernels.hpp"

#include <algorithm>

#include "profiler/analysis/KernelCategory.hpp"

namespace trainscope::profiler::detail {

bool CommunicationKernels::is_communication(StringId name, const StringTable& strings) {
    if (name >= verdicts_.size())
        verdicts_.resize(std::max<std::size_t>(name + 1, verdicts_.size() * 2), -1);
    auto& verdict = verdicts_[name];
    if (verdict < 0)
        verdict = classify_kernel(strings.at(name)) == KernelCategory::Communication ? 1 : 0;
    return verdict == 1;
}

void CommunicationKernels::note_kernel(const Activity& kernel, const StringTable& strings) {
    if (kernel.correlation != 0 && is_communication(kernel.name, strings))
        launched_by_.insert(kernel.correlation);
}

}  // namespace trainscope::profiler::detail
