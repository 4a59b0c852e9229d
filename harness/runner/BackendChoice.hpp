#pragma once

#include <string>
#include <vector>

#include "harness/matrix/Cell.hpp"
#include "workloads/backend/BackendKind.hpp"
#include "workloads/devices/DeviceQuery.hpp"

namespace trainscope::harness {

// How `--backend auto` resolves on this machine, decided once per command.
struct BackendChoice {
    workloads::DeviceInventory inventory;
    workloads::BackendKind auto_backend = workloads::BackendKind::cpu;
    std::string notice;  // one line for the user when auto falls back to the CPU

    // The backend axis's text ("auto", "cpu", "cuda"), parsed; auto is this machine's.
    [[nodiscard]] workloads::BackendKind resolve(const std::string& requested) const;
};

// Queries the devices.
BackendChoice choose_backends(const std::vector<Cell>& cells);

// Why this machine cannot run the cell's backend and device ("" when it can). A matrix
// records such cells as skipped and runs the others.
std::string backend_unavailable_reason(const BackendChoice& choice, const Cell& cell);

// Throws UsageError (exit 2) when no cell at all can run here, e.g. `--backend cuda` on a
// machine without a GPU, naming the reason and the fix.
void require_some_runnable_cell(const BackendChoice& choice, const std::vector<Cell>& cells);

}  // namespace trainscope::harness
