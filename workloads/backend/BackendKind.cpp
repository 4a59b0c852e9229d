#include "workloads/backend/BackendKind.hpp"

#include "workloads/training/NamedChoice.hpp"

namespace trainscope::workloads {
namespace {

constexpr ChoiceTable<BackendKind, 2> kBackendNames{
    {{"cpu", BackendKind::cpu}, {"cuda", BackendKind::cuda}}};
constexpr ChoiceTable<CudnnAlgo, 2> kCudnnAlgoNames{
    {{"heuristic", CudnnAlgo::heuristic}, {"exhaustive", CudnnAlgo::exhaustive}}};

static_assert(choice_values(kBackendNames) == kBackendKinds);
static_assert(choice_values(kCudnnAlgoNames) == kCudnnAlgos);

}  // namespace

BackendKind parse_backend_kind(std::string_view text) {
    return parse_choice(kBackendNames, "backend", text);
}
CudnnAlgo parse_cudnn_algo(std::string_view text) {
    return parse_choice(kCudnnAlgoNames, "cudnn_algo", text);
}

std::string to_string(BackendKind backend) {
    return choice_name(kBackendNames, backend);
}
std::string to_string(CudnnAlgo algo) {
    return choice_name(kCudnnAlgoNames, algo);
}

bool is_backend(std::string_view name, BackendKind kind) {
    return name == to_string(kind);
}

}  // namespace trainscope::workloads
