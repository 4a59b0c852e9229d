#pragma once

#include <memory>

#include "workloads/backend/Backend.hpp"
#include "workloads/backend/BackendRegistry.hpp"

namespace trainscope::workloads {

// Creates the CUDA backend, or throws ConfigError saying plainly why it cannot run here
// (no driver, no device, device out of range, an option it does not support). The
// registry calls this for "cuda" in a CUDA build; nothing here includes CUDA headers.
std::unique_ptr<Backend> make_cuda_backend(const BackendOptions& options);

}  // namespace trainscope::workloads
