#include "profiler/formats/detail/JobActivities.hpp"

namespace trainscope::profiler::detail {

bool JobActivities::next(Activity& out) {
    for (; at_ < ranks_.size(); ++at_) {
        Rank& rank = ranks_[at_];
        if (rank.activities && rank.activities->next(out)) {
            rank.mapping.apply(out);
            return true;
        }
    }
    return false;
}

void JobActivities::rewind() {
    for (Rank& rank : ranks_) {
        if (rank.activities)
            rank.activities->rewind();
    }
    at_ = 0;
}

}  // namespace trainscope::profiler::detail
