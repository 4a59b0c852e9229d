#include "workloads/optim/OptimizerKind.hpp"

#include "workloads/training/NamedChoice.hpp"

namespace trainscope::workloads {
namespace {

constexpr ChoiceTable<OptimizerKind, 2> kOptimizerNames{
    {{"adam", OptimizerKind::adam}, {"sgd", OptimizerKind::sgd}}};
static_assert(choice_values(kOptimizerNames) == kOptimizerKinds);

}  // namespace

OptimizerKind parse_optimizer(std::string_view text) {
    return parse_choice(kOptimizerNames, "optimizer", text);
}

std::string to_string(OptimizerKind optimizer) {
    return choice_name(kOptimizerNames, optimizer);
}

}  // namespace trainscope::workloads
