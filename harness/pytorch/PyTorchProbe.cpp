#include "harness/pytorch/PyTorchProbe.hpp"

#include <unistd.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "harness/executor/Subprocess.hpp"

namespace trainscope::harness {

namespace {

constexpr const char* kWorkerName = "trainscope_pytorch_worker.py";

std::filesystem::path self_directory() {
    std::error_code ec;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::filesystem::path() : exe.parent_path();
}

}  // namespace

std::filesystem::path pytorch_worker_script() {
    if (const char* override_path = std::getenv("TRAINSCOPE_PYTORCH_WORKER");
        override_path != nullptr && *override_path != '\0') {
        return override_path;
    }
    const auto dir = self_directory();
    const std::filesystem::path candidates[] = {
        dir / kWorkerName, dir / ".." / "share" / "trainscope" / kWorkerName,
        std::filesystem::path(TRAINSCOPE_PYTORCH_WORKER_SOURCE)};
    std::string looked;
    for (const auto& candidate : candidates) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(candidate, ec))
            return candidate;
        looked += (looked.empty() ? "" : ", ") + candidate.string();
    }
    throw std::runtime_error("the PyTorch worker " + std::string(kWorkerName) +
                             " is not in any of " + looked +
                             "; set TRAINSCOPE_PYTORCH_WORKER to its path");
}

PyTorchCapabilities probe_pytorch(const std::string& python) {
    PyTorchCapabilities caps;
    caps.python = python;
    caps.missing_reason = "PyTorch not found by " + python + ": pip install torch";
    ProcessOutput out;
    try {
        out = run_process({python, pytorch_worker_script().string(), "--probe"});
    } catch (const std::runtime_error&) {
        return caps;  // no such interpreter: the same advice
    }
    if (out.exit_code != 0)
        return caps;
    // The last line is the JSON; warnings may come before it on stdout of some versions.
    const auto last = out.out.find_last_of('{');
    const auto j = nlohmann::json::parse(last == std::string::npos ? out.out : out.out.substr(last),
                                         nullptr, false);
    if (j.is_discarded() || !j.is_object())
        return caps;
    caps.found = true;
    caps.missing_reason.clear();
    caps.torch_version = j.value("torch_version", "");
    caps.cuda_available = j.value("cuda_available", false);
    caps.cuda_devices = j.value("cuda_devices", 0);
    caps.cpu_autocast_fp16 = j.value("cpu_autocast_fp16", false);
    caps.cuda_malloc_async = j.value("cuda_malloc_async", false);
    return caps;
}

}  // namespace trainscope::harness
