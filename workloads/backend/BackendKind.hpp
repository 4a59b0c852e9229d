#pragma once

#include <array>
#include <string>
#include <string_view>

namespace trainscope::workloads {

// The built-in backends (the harness's `backend` axis; it turns "auto" into one of
// these). The registry and TrainingConfig::backend hold a backend's name, an open set:
// tests and other engines register more; to_string(kind) is a built-in one's name.
enum class BackendKind { cpu, cuda };
// How cuDNN picks convolution algorithms: its heuristics, or by timing each candidate.
enum class CudnnAlgo { heuristic, exhaustive };

inline constexpr std::array kBackendKinds{BackendKind::cpu, BackendKind::cuda};
inline constexpr std::array kCudnnAlgos{CudnnAlgo::heuristic, CudnnAlgo::exhaustive};

// Each throws ConfigError naming the parameter, the bad value and the valid ones.
BackendKind parse_backend_kind(std::string_view text);
CudnnAlgo parse_cudnn_algo(std::string_view text);

std::string to_string(BackendKind backend);
std::string to_string(CudnnAlgo algo);

// Whether a registry name is the built-in backend `kind`.
bool is_backend(std::string_view name, BackendKind kind);

}  // namespace trainscope::workloads
