#pragma once

#include <vector>

#include "reports/roofline/Roofline.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

// `trainscope analyze`'s roofline section: the run's model FLOPs, achieved TFLOP/s and
// MFU against its roofs (with their sources), then the `top` op names by device time
// with intensity, achieved FLOP/s and bandwidth, and which roof bounds them
// (`rows`: reports::op_roofline). Prints nothing for a trace whose ops carry no work and a
// run without model FLOPs.
void print_roofline(const std::vector<reports::OpRooflineRow>& rows, const reports::RunRecord& run,
                    int top);

}  // namespace trainscope::harness
