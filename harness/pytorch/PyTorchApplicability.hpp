#pragma once

#include <string>

#include "harness/matrix/Cell.hpp"
#include "harness/pytorch/PyTorchProbe.hpp"

namespace trainscope::harness {

// Why a framework=pytorch cell cannot run as asked (its backend already resolved and its
// n/a axes marked): PyTorch missing from the interpreter, or a setting PyTorch has no
// equivalent for (docs/pytorch.md, "Settings"). Empty when it runs. Known at planning
// time, so such a cell is recorded `skipped` with this reason and never started.
std::string pytorch_skip_reason(const Cell& cell, const PyTorchCapabilities& torch);

}  // namespace trainscope::harness
