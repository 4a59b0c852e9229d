#include "harness/runner/BackendChoice.hpp"

#include <fmt/format.h>

#include "harness/cli/UsageError.hpp"

namespace trainscope::harness {

BackendChoice choose_backends(const std::vector<Cell>& cells) {
    BackendChoice choice;
    choice.inventory = workloads::query_cuda_devices();
    const bool has_device = !choice.inventory.devices.empty();
    choice.auto_backend = has_device ? "cuda" : "cpu";
    bool uses_auto = false;
    for (const auto& cell : cells) {
        const std::string& backend = cell.at("backend");
        uses_auto = uses_auto || backend == "auto";
        const std::string resolved = choice.resolve(backend);
        if (resolved != "cuda")
            continue;
        if (!has_device) {
            throw UsageError(
                fmt::format("--backend cuda: {}; use --backend cpu (or auto) to train on the CPU",
                            choice.inventory.status));
        }
        const int device = std::stoi(cell.at("device"));
        if (device >= static_cast<int>(choice.inventory.devices.size())) {
            throw UsageError(fmt::format(
                "--device {}: this machine has {} CUDA device(s) "
                "(ordinals 0 to {}); `trainscope list devices` shows them",
                device, choice.inventory.devices.size(), choice.inventory.devices.size() - 1));
        }
    }
    if (uses_auto && !has_device) {
        choice.notice = fmt::format("{}: running on the CPU backend", choice.inventory.status);
    }
    return choice;
}

}  // namespace trainscope::harness
