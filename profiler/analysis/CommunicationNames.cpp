#include "profiler/analysis/CommunicationNames.hpp"

#include <algorithm>

#include "profiler/analysis/KernelCategory.hpp"

namespace trainscope::profiler {

bool CommunicationNames::is_communication(StringId name, const StringTable& strings) {
    if (name >= strings.size())
        return false;
    if (name >= verdicts_.size())
        verdicts_.resize(std::max<std::size_t>(name + 1, verdicts_.size() * 2), -1);
    auto& verdict = verdicts_[name];
    if (verdict < 0)
        verdict = classify_kernel(strings.at(name)) == KernelCategory::Communication ? 1 : 0;
    return verdict == 1;
}

}  // namespace trainscope::profiler
