#include "workloads/distributed/Overlap.hpp"

#include "workloads/training/NamedChoice.hpp"

namespace trainscope::workloads {
namespace {

constexpr ChoiceTable<Overlap, 2> kOverlapNames{{{"on", Overlap::on}, {"off", Overlap::off}}};
static_assert(choice_values(kOverlapNames) == kOverlaps);

}  // namespace

Overlap parse_overlap(std::string_view text) {
    return parse_choice(kOverlapNames, "overlap", text);
}

std::string to_string(Overlap overlap) {
    return choice_name(kOverlapNames, overlap);
}

}  // namespace trainscope::workloads
