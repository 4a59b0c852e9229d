#pragma once

#include <filesystem>
#include <string>

namespace trainscope::harness {

// The worker script that trains framework=pytorch cells: $TRAINSCOPE_PYTORCH_WORKER if
// set, else the copy beside this program (the build tree's bin/, or an installed
// bin/), else ../share/trainscope/ of an install, else the source tree this program was
// built from. Throws std::runtime_error naming where it looked.
std::filesystem::path pytorch_worker_script();

// What the interpreter of --python can do, asked once per plan (`worker --probe`).
struct PyTorchCapabilities {
    std::string python;
    bool found = false;
    std::string missing_reason;  // !found: "PyTorch not found by <python>: pip install torch"
    std::string torch_version;
    bool cuda_available = false;
    int cuda_devices = 0;
    bool cpu_autocast_fp16 = false;  // torch.autocast("cpu", float16) runs
    bool cuda_malloc_async = false;  // PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync (2.0+)
};

PyTorchCapabilities probe_pytorch(const std::string& python);

}  // namespace trainscope::harness
