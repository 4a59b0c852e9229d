#pragma once

#include <cstddef>

#include "common/BatchPipe.hpp"
#include "profiler/formats/detail/KinetoJsonReader.hpp"

namespace trainscope::profiler::detail {

// Flattened events handed from the thread that reads a Kineto file (inflate, scan,
// simdjson, flatten) to the one that builds the trace, a batch at a time, so that one
// file keeps two cores busy: a few megabytes of events at most. The reader swaps each
// event into its batch's next slot, taking the slot's emptied object (and its buffer's
// capacity) for its next event.
class KinetoEventPipe : public BatchPipe<KinetoRawObject> {
  public:
    static constexpr std::size_t kBatches = 4;
    static constexpr std::size_t kEventsPerBatch = 512;

    KinetoEventPipe() : BatchPipe(kBatches) {}
};

}  // namespace trainscope::profiler::detail
