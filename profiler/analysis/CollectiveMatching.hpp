#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "profiler/analysis/TimeWindow.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// One collective as the whole job took part in it: the calls of every rank that joined.
struct MatchedCollective {
    StringId group = kNoString;
    CollectiveKind kind = CollectiveKind::Other;
    // The group's sequence number when the trace carries one; else the position among
    // this group's collectives of this kind on each rank (matched by order).
    std::int64_t sequence = -1;
    bool by_sequence = false;
    std::vector<std::size_t> calls;  // indices into Trace::collectives, by rank
    std::int64_t first_arrival_ns = 0;
    std::int64_t last_arrival_ns = 0;
    std::int32_t last_rank = -1;  // the rank that arrived last (the lowest on a tie)
    // Time the other ranks spent waiting for the last one: sum of (last - own arrival).
    std::int64_t wait_caused_ns = 0;

    // How long a rank that arrived at `arrival_ns` waited there for the last one.
    [[nodiscard]] std::int64_t wait_ns(std::int64_t arrival_ns) const {
        return last_arrival_ns - arrival_ns;
    }
    // How long the first rank waited: the spread of the arrivals.
    [[nodiscard]] std::int64_t spread_ns() const { return last_arrival_ns - first_arrival_ns; }
};

// Matches the collectives of a job's ranks: by (process group, sequence number) where
// the trace carries them, else by order within (process group, kind) on each rank. A
// rank's arrival is the start of its call (the start of its communication kernel on the
// GPU, of the MPI call on the CPU). Collectives are listed by first arrival; only those
// whose last arrival lies in the window.
std::vector<MatchedCollective> match_collectives(const Trace& trace, const TimeWindow& window = {});

// Per rank: how often it arrived last at a collective two or more ranks joined, and the
// waiting it caused the others.
struct RankStraggling {
    std::int32_t rank = 0;
    std::int64_t collectives = 0;  // matched collectives it took part in
    std::int64_t times_last = 0;
    std::int64_t wait_caused_ns = 0;
    std::int64_t lateness_ns = 0;  // summed (own arrival - first arrival)
};

struct StragglerReport {
    std::vector<MatchedCollective> collectives;  // those joined by 2 or more ranks
    std::vector<RankStraggling> ranks;           // every rank with collectives, ascending
    std::int32_t slowest_rank = -1;              // the most wait caused (-1 when nobody waited)
    std::int64_t total_wait_ns = 0;
};

StragglerReport analyze_stragglers(const Trace& trace, const TimeWindow& window = {});

}  // namespace trainscope::profiler
