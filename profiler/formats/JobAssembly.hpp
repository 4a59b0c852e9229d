#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "common/InputError.hpp"
#include "profiler/trace/StreamedTrace.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The traces of one distributed job cannot be put together as given (files of another
// job, a rank twice, a rank missing): the message names the files and the fix.
class JobAssemblyError : public InputError {
  public:
    using InputError::InputError;
};

// One rank's trace as imported from its own file.
struct RankTraceFile {
    std::filesystem::path file;
    Trace trace;
};

// The same, streamed (stream_kineto_trace).
struct RankStreamedFile {
    std::filesystem::path file;
    StreamedTrace trace;
};

// Where a file's rank was read from, in the order they are tried.
enum class RankSource { DistributedInfo, FileName, Order };
std::string_view to_string(RankSource source);

struct JobRank {
    std::int32_t rank = 0;
    std::filesystem::path file;
    RankSource source = RankSource::Order;
    // The rank's first event, in ns after the earliest rank's first event.
    std::int64_t start_offset_ns = 0;
};

// How a job's ranks were put together.
struct JobLayout {
    std::vector<JobRank> ranks;  // by rank
    std::int32_t world_size = 1;
    std::string backend;               // "nccl", "gloo", ... "" when no file says
    std::int64_t start_spread_ns = 0;  // latest rank's first event - earliest's
};

struct JobAssembly : JobLayout {
    Trace trace;  // all ranks: lanes carry their rank, names start "rank N · "
};

// The same job without holding its activities: `trace.header` is the whole job's header
// (lanes, strings, collectives, counters, metadata), and its activities are the ranks'
// sorted streams one rank after another, moved onto the job's clock, lanes and strings as
// they pass. stream_activities gives exactly the activities of assemble_job's trace.
struct StreamedJobAssembly : JobLayout {
    StreamedTrace trace;
};

struct JobAssemblyOptions {
    // Accept a job whose ranks are not all present (a sample of a large job).
    bool allow_partial = false;
};

// The rank a file name says: "rank-3", "rank_3", "rank3", "worker3", "worker_3",
// "proc3" (case-insensitive, the last such name in the file name); -1 when none.
std::int32_t rank_from_file_name(const std::filesystem::path& file);

// Puts the traces of one job's ranks together as one trace. Each file's rank comes from
// its Kineto distributedInfo (metadata distributed.rank / world_size / backend), else
// from its file name, else from the order given; the world size from distributedInfo,
// else the number of files. All ranks stay on one time axis: each file's own clock
// (Trace::base_ns), so the spread of their first events is reported, not removed.
// Throws JobAssemblyError when the files disagree on world size or backend, when some
// carry distributedInfo and others do not, when two files are one rank, when a rank is
// outside the world, or (unless allow_partial) when a rank of the world is missing.
JobAssembly assemble_job(std::vector<RankTraceFile> files, const JobAssemblyOptions& options = {});

// The same assembly, the same checks and errors, of streamed traces: what it holds is
// every rank's header and the mapping of its lanes and strings; the activities stay on
// disk in each rank's sorted runs until they pass. A rank whose source joins
// (collectives) have not run yet is completed first (complete_header); run it on each
// rank's own thread beforehand to have it done in parallel.
StreamedJobAssembly assemble_streamed_job(std::vector<RankStreamedFile> files,
                                          const JobAssemblyOptions& options = {});

}  // namespace trainscope::profiler
