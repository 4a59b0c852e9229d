#pragma once

#include <filesystem>

#include "profiler/trace/ActivitySorter.hpp"
#include "profiler/trace/StreamedTrace.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// Imports the SQLite export of an Nsight Systems report (nsys export --type sqlite),
// opened read-only. Reads, where the tables exist:
//  CUPTI_ACTIVITY_KIND_KERNEL / _MEMCPY / _MEMSET  -> GPU lanes (deviceId, streamId)
//  CUPTI_ACTIVITY_KIND_RUNTIME                      -> host lanes; names starting with
//                                                      "cu" but not "cuda" are driver calls
//  CUPTI_ACTIVITY_KIND_SYNCHRONIZATION              -> Synchronization on the stream lane
//  NVTX_EVENTS (push/pop and start/end ranges)      -> NvtxRange per thread, with depth
//  StringIds, TARGET_INFO_GPU, TARGET_INFO_SESSION_START_TIME -> names, metadata, base
//  NCCL kernels (with NCCL's NVTX ranges, where present) -> Trace::collectives
//                                                      (detail/NsysCollectives.hpp)
// globalTid/globalPid are decoded as nsys documents them: pid = (id >> 24) & 0xFFFFFF,
// tid = id & 0xFFFFFF. Times are already integer ns from the session start; base_ns is
// utcEpochNs of the session plus the first event. A file without
// CUPTI_ACTIVITY_KIND_KERNEL is rejected. Throws TraceFormatError naming the file.
Trace import_nsys_sqlite(const std::filesystem::path& file);

// The same trace without holding its activities: each table is read row by row and its
// activities sorted on disk in runs (a temporary file, when they do not fit one run);
// they pass once through stream_activities, which nests them and joins the collectives.
// What stays in memory is the header (lanes, strings, metadata), one run of activities,
// and what grows with the export's communication only: the NCCL ranges, the communication
// kernels and their launches (NsysCollectiveJoin).
// import_nsys_sqlite is this, materialised.
StreamedTrace stream_nsys_sqlite(const std::filesystem::path& file,
                                 const StreamOptions& options = {});

}  // namespace trainscope::profiler
