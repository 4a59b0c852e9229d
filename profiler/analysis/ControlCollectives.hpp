#pragma once

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Control collectives are the communicator's host-side collectives between the timed
// steps: each step's stop vote and global loss sum, the start-up broadcast and barrier
// (group "trainscope.control", common/CollectiveMessage.hpp). They stay on the timeline
// and in match_collectives (a click on one still finds it on every rank), but the
// analyses of the step's communication leave them out: communication and exposed
// communication (RankWork, ExposedCommunication: the per-step figures the run's
// StepRecord::communication_ns also leaves them out of), straggler counts (each step would
// count twice, once at its first bucket and once at the vote that waits for the slowest
// rank's step to end) and bandwidth (a one-double all-reduce measures the wait, not a link).
// docs/distributed.md, "Control collectives", says why.
bool is_control_collective(const Trace& trace, const CollectiveCall& call);
// A Collective activity that is a control collective's (by its name).
bool is_control_collective(const Trace& trace, const Activity& activity);

}  // namespace trainscope::profiler
