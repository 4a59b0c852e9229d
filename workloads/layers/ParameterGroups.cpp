#include "workloads/layers/ParameterGroups.hpp"

#include <stdexcept>

namespace trainscope::workloads {

std::vector<std::vector<std::size_t>> group_by_gradient_dtype(
    const std::vector<Parameter*>& parameters) {
    std::vector<DType> dtypes;
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        const Tensor& gradient = parameters[i]->gradient;
        if (gradient.empty()) {
            throw std::logic_error("group_by_gradient_dtype: " + parameters[i]->name +
                                   " has no gradient yet");
        }
        std::size_t g = 0;
        while (g < dtypes.size() && dtypes[g] != gradient.dtype()) {
            ++g;
        }
        if (g == dtypes.size()) {
            dtypes.push_back(gradient.dtype());
            groups.emplace_back();
        }
        groups[g].push_back(i);
    }
    return groups;
}

}  // namespace trainscope::workloads
