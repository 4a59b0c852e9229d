#pragma once

#include <cupti.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Turns CUPTI activity records into the trace model, one `switch (record->kind)`:
// kernels (CUpti_ActivityKernel10), memcpy (Memcpy6), memset (Memset4), runtime and
// driver calls (CUpti_ActivityAPI), NVTX markers (Marker2 start/end pairs; MarkerData2
// is counted), synchronization (Synchronization2), overhead (Overhead3), devices
// (Device5) and contexts (Context3). Timestamps are taken as nanoseconds on the trace
// clock (CuptiTracer makes CUPTI use host_clock_now_ns) and stored relative to
// trace.base_ns. This is the function the buffer-completed callback calls, so tests
// feed it records built in memory. No CUpti_* type leaves profiler/cupti/.
class CuptiActivityDecoder {
  public:
    explicit CuptiActivityDecoder(Trace& trace);

    // Every record of a completed buffer, iterated with cuptiActivityGetNextRecord.
    // Returns the number of records decoded.
    std::size_t decode_buffer(std::uint8_t* buffer, std::size_t valid_bytes);
    void decode_record(const CUpti_Activity& record);

    // Ends the decoding: NVTX ranges still open become ranges up to `end_ns` (absolute),
    // nesting depths are assigned.
    void finish(std::int64_t end_ns);

    [[nodiscard]] std::int64_t unknown_records() const { return unknown_records_; }
    // GPU records (kernel, memcpy, memset) without usable timing: CUPTI writes 0 when it
    // could not collect a timestamp (no device memory for it, or an incomplete record in
    // a forced flush). They are left out; a real one at -base_ns would stretch the span.
    [[nodiscard]] std::int64_t records_without_timestamps() const {
        return records_without_timestamps_;
    }
    [[nodiscard]] std::int64_t marker_data_records() const { return marker_data_records_; }
    [[nodiscard]] std::int64_t open_markers() const {
        return static_cast<std::int64_t>(open_markers_.size());
    }

  private:
    void decode_kernel(const CUpti_ActivityKernel10& k);
    void decode_memcpy(const CUpti_ActivityMemcpy6& m);
    void decode_memset(const CUpti_ActivityMemset4& m);
    void decode_api(const CUpti_ActivityAPI& api, bool driver);
    void decode_marker(const CUpti_ActivityMarker2& m);
    void decode_sync(const CUpti_ActivitySynchronization2& s);
    void decode_overhead(const CUpti_ActivityOverhead3& o);
    void decode_device(const CUpti_ActivityDevice5& d);
    void decode_context(const CUpti_ActivityContext3& c);

    std::int64_t relative(std::uint64_t timestamp_ns) const;
    // False (and counted) for a GPU record CUPTI could not time.
    bool timed(std::uint64_t start_ns, std::uint64_t end_ns);

    struct OpenMarker {
        std::int64_t start_ns = 0;
        StringId name = kNoString;
        LaneId lane = 0;
    };

    // A synchronization whose context was not known yet when it was decoded.
    struct UnplacedSync {
        std::size_t activity = 0;
        std::uint32_t context = 0;
        std::int64_t stream = 0;
    };

    Trace& trace_;
    std::vector<UnplacedSync> unplaced_syncs_;
    LaneRegistry lanes_;
    std::map<std::uint32_t, std::int32_t> device_of_context_;
    std::map<std::uint32_t, OpenMarker> open_markers_;
    std::map<std::uint32_t, std::string> api_names_[2];  // [driver?] cbid -> name cache
    std::int64_t unknown_records_ = 0;
    std::int64_t marker_data_records_ = 0;
    std::int64_t records_without_timestamps_ = 0;
};

}  // namespace trainscope::profiler
