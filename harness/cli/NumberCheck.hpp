#pragma once

#include <CLI/CLI.hpp>
#include <limits>

namespace trainscope::harness {

// A CLI11 check of a number's bounds that words them readably. CLI11's own Range and
// PositiveNumber print the bounds with %f, so a refused 0 read "not in range 0.000000 to
// 1797693...", 300 digits of DBL_MAX. Without `max` there is no upper bound to name.
CLI::Validator number_check(double min, bool min_exclusive,
                            double max = std::numeric_limits<double>::infinity());

}  // namespace trainscope::harness
