#include "harness/runner/BackendChoice.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/cli/UsageError.hpp"
#include "harness/matrix/AxisCatalog.hpp"

namespace trainscope::harness {

workloads::BackendKind BackendChoice::resolve(const std::string& requested) const {
    return requested == kAutoBackend ? auto_backend : workloads::parse_backend_kind(requested);
}

BackendChoice choose_backends(const std::vector<Cell>& cells) {
    BackendChoice choice;
    choice.inventory = workloads::query_cuda_devices();
    const bool has_device = !choice.inventory.devices.empty();
    choice.auto_backend = has_device ? workloads::BackendKind::cuda : workloads::BackendKind::cpu;
    const bool uses_auto = std::any_of(
        cells.begin(), cells.end(), [](const Cell& c) { return c.at("backend") == kAutoBackend; });
    if (uses_auto && !has_device) {
        choice.notice = fmt::format("{}: running on the CPU backend", choice.inventory.status);
    }
    return choice;
}

std::string backend_unavailable_reason(const BackendChoice& choice, const Cell& cell) {
    if (choice.resolve(cell.at("backend")) != workloads::BackendKind::cuda)
        return "";
    const auto& devices = choice.inventory.devices;
    if (devices.empty()) {
        return fmt::format("--backend cuda: {}; use --backend cpu (or auto) to train on the CPU",
                           choice.inventory.status);
    }
    const int device = std::stoi(cell.at("device"));
    if (device >= static_cast<int>(devices.size())) {
        return fmt::format(
            "--device {}: this machine has {} CUDA device(s) (ordinals 0 to {}); "
            "`trainscope list devices` shows them",
            device, devices.size(), devices.size() - 1);
    }
    return "";
}

void require_some_runnable_cell(const BackendChoice& choice, const std::vector<Cell>& cells) {
    std::string reason;
    for (const auto& cell : cells) {
        reason = backend_unavailable_reason(choice, cell);
        if (reason.empty())
            return;
    }
    throw UsageError(reason);
}

}  // namespace trainscope::harness
