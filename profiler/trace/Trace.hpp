#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/trace/Activity.hpp"
#include "profiler/trace/Collective.hpp"
#include "profiler/trace/Counter.hpp"
#include "profiler/trace/Lane.hpp"
#include "profiler/trace/StringTable.hpp"

namespace trainscope::profiler {

// The trace model every capture produces and every analysis, store and view consumes:
// one timeline on one clock, in integer nanoseconds relative to base_ns.
struct Trace {
    std::int64_t base_ns = 0;           // absolute time of t=0 on the capture clock
    std::int64_t capture_begin_ns = 0;  // relative; window in which capture was enabled
    std::int64_t capture_end_ns = 0;
    std::int64_t dropped_records = 0;  // records the capture lost (CUPTI buffers full)
    StringTable strings;
    std::vector<Lane> lanes;
    std::vector<Activity> activities;
    std::vector<CounterSeries> counters;
    // A distributed job's trace holds all its ranks: lanes carry their rank, and every
    // collective each rank took part in is listed here (in no particular order).
    std::int32_t world_size = 1;
    std::vector<CollectiveCall> collectives;
    // Each rank numbers its devices from 0, so where a trace holds a job (world size > 1)
    // a device is named with its rank: the CLI, reports and GUI all ask this.
    [[nodiscard]] bool names_devices_by_rank() const { return world_size > 1; }
    std::map<std::string, std::string> metadata;  // source format, devices, versions
    // Imported traces: the source file's own timestamps are absolute time minus this
    // (Kineto's "baseTimeNanoseconds"); 0 when the file stores absolute times. Lets an
    // analysis reproduce numbers a tool computed from the file's raw values.
    std::int64_t source_clock_offset_ns = 0;

    // Appends a lane as it is; sources that find or add lanes by identity use
    // LaneRegistry, which names them.
    LaneId add_lane(Lane lane);
    // Sorts activities by (lane, start, -end) so that per-lane slices are contiguous and
    // parents come before their children.
    void sort();
};

}  // namespace trainscope::profiler
