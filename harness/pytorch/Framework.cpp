#include "harness/pytorch/Framework.hpp"

#include "workloads/training/NamedChoice.hpp"

namespace trainscope::harness {

namespace {
constexpr workloads::ChoiceTable<Framework, 2> kFrameworkNames{
    {{"trainscope", Framework::trainscope}, {"pytorch", Framework::pytorch}}};
}  // namespace

std::string to_string(Framework framework) {
    return workloads::choice_name(kFrameworkNames, framework);
}

Framework parse_framework(std::string_view text) {
    return workloads::parse_choice(kFrameworkNames, "framework", text);
}

}  // namespace trainscope::harness
