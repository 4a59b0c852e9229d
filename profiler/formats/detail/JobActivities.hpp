#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "profiler/trace/Activity.hpp"
#include "profiler/trace/ActivityStream.hpp"

namespace trainscope::profiler::detail {

// Where one rank's activities go in its job's trace: onto the job's clock, its lanes and
// its strings. The one mapping of both assemblies (whole traces and streamed ones).
struct RankMapping {
    std::int64_t shift_ns = 0;
    LaneId lane_offset = 0;
    std::vector<StringId> string_map;  // the rank's string id -> the job's

    void apply(Activity& a) const {
        a.start_ns += shift_ns;
        a.end_ns += shift_ns;
        a.lane += lane_offset;
        a.name = string_map[a.name];
    }
};

// A job's activities as its ranks' sorted streams give them, one rank after another,
// each mapped on the way. Ranks never share a lane and each rank's lanes follow the
// previous rank's, so this is already the order Trace::sort gives the whole job: no
// merge, and nothing held but the stream being read.
class JobActivities final : public ActivityStream {
  public:
    struct Rank {
        std::unique_ptr<ActivityStream> activities;  // none: the rank has none
        RankMapping mapping;
    };

    explicit JobActivities(std::vector<Rank> ranks) : ranks_(std::move(ranks)) {}

    bool next(Activity& out) override;
    void rewind() override;

  private:
    std::vector<Rank> ranks_;
    std::size_t at_ = 0;  // the rank being read
};

}  // namespace trainscope::profiler::detail
