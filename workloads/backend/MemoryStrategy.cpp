#include "workloads/backend/MemoryStrategy.hpp"

#include "workloads/training/NamedChoice.hpp"

namespace trainscope::workloads {
namespace {

constexpr ChoiceTable<Allocator, 4> kAllocatorNames{{{"pool", Allocator::pool},
                                                     {"device", Allocator::device},
                                                     {"async", Allocator::async},
                                                     {"managed", Allocator::managed}}};
constexpr ChoiceTable<HostMemory, 2> kHostMemoryNames{
    {{"pageable", HostMemory::pageable}, {"pinned", HostMemory::pinned}}};
constexpr ChoiceTable<Transfer, 2> kTransferNames{
    {{"sync", Transfer::sync}, {"overlap", Transfer::overlap}}};
constexpr ChoiceTable<Placement, 2> kPlacementNames{
    {{"stream", Placement::stream}, {"resident", Placement::resident}}};
constexpr ChoiceTable<Activations, 2> kActivationsNames{
    {{"keep", Activations::keep}, {"recompute", Activations::recompute}}};

static_assert(choice_values(kAllocatorNames) == kAllocators);
static_assert(choice_values(kHostMemoryNames) == kHostMemories);
static_assert(choice_values(kTransferNames) == kTransfers);
static_assert(choice_values(kPlacementNames) == kPlacements);
static_assert(choice_values(kActivationsNames) == kActivations);

}  // namespace

Allocator parse_allocator(std::string_view text) {
    return parse_choice(kAllocatorNames, "allocator", text);
}
HostMemory parse_host_memory(std::string_view text) {
    return parse_choice(kHostMemoryNames, "host_memory", text);
}
Transfer parse_transfer(std::string_view text) {
    return parse_choice(kTransferNames, "transfer", text);
}
Placement parse_placement(std::string_view text) {
    return parse_choice(kPlacementNames, "placement", text);
}
Activations parse_activations(std::string_view text) {
    return parse_choice(kActivationsNames, "activations", text);
}

std::string to_string(Allocator allocator) {
    return choice_name(kAllocatorNames, allocator);
}
std::string to_string(HostMemory host_memory) {
    return choice_name(kHostMemoryNames, host_memory);
}
std::string to_string(Transfer transfer) {
    return choice_name(kTransferNames, transfer);
}
std::string to_string(Placement placement) {
    return choice_name(kPlacementNames, placement);
}
std::string to_string(Activations activations) {
    return choice_name(kActivationsNames, activations);
}

bool allocator_needs_cuda(Allocator allocator) {
    return allocator == Allocator::async || allocator == Allocator::managed;
}

}  // namespace trainscope::workloads
