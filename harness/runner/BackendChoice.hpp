#pragma once

#include <string>
#include <vector>

#include "harness/matrix/Cell.hpp"
#include "workloads/devices/DeviceQuery.hpp"

namespace trainscope::harness {

// How `--backend auto` resolves on this machine, decided once per command.
struct BackendChoice {
    workloads::DeviceInventory inventory;
    std::string auto_backend;  // "cuda" or "cpu"
    std::string notice;        // one line for the user when auto falls back to the CPU

    [[nodiscard]] std::string resolve(const std::string& requested) const {
        return requested == "auto" ? auto_backend : requested;
    }
};

// Queries the devices. Throws UsageError when a cell asks for --backend cuda (or a
// --device ordinal) that this machine cannot give, naming the reason and the fix.
BackendChoice choose_backends(const std::vector<Cell>& cells);

}  // namespace trainscope::harness
