#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>

#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler {

// The name a lane is shown by, from its identity alone, the same for every source (CUPTI,
// Kineto, Nsight Systems, the host tracer): "GPU 0 · stream 7"; "GPU 0 · annotations ·
// stream 7" (a device's annotation lane); "CPU · main thread", "CPU · thread 812"
// (HostThread); "NVTX · main thread", "NVTX · thread 812" (Nvtx); "GPU 0 · communication
// · stream 9", "communication · main thread" (Communication). In a trace of several
// ranks every name starts with "rank N · ". Linux gives a
// process's main thread the process id as its thread id. A thread name a source knows is
// added in parentheses; `process_label` (non-empty when the trace holds more than one
// process) comes first, so that two processes' main threads stay apart.
std::string lane_display_name(const Lane& lane, const std::string& thread_name = {},
                              const std::string& process_label = {}, bool show_rank = false);

// The one "find or add a lane" of the trace model: every source that builds a Trace asks
// it for the lane of an identity (kind, device, stream or thread, process), so the same
// NVTX range read from any source lands on an identically named lane. Lanes already in
// the trace are found too (merging one trace into another).
class LaneRegistry {
  public:
    // Adds and finds the lanes of one rank (`rank`; 0 for a one-process trace). The
    // sources of a multi-rank job use one registry per rank over the same trace.
    explicit LaneRegistry(Trace& trace, std::int32_t rank = 0);

    LaneId gpu_stream(std::int32_t device, std::int64_t stream);
    // Annotations a tool projected onto a device's stream (Kineto's gpu_user_annotation).
    LaneId device_annotations(std::int32_t device, std::int64_t stream);
    // API calls, host ops and other CPU work of a thread.
    LaneId host_thread(std::int64_t process, std::int64_t thread);
    // NVTX ranges (and user annotations) of a thread.
    LaneId nvtx(std::int64_t process, std::int64_t thread);
    // Collectives a thread issued (MPI on the CPU), or a device stream's communication
    // kernels' calls (`device` >= 0, `stream_or_thread` the stream).
    LaneId communication(std::int32_t device, std::int64_t stream_or_thread, std::int64_t process);
    // Any identity; `name` is kept when given, otherwise lane_display_name.
    LaneId find_or_add(LaneKind kind, std::int32_t device, std::int64_t stream_or_thread,
                       std::int64_t process, const std::string& name = {});

    // A lane of another trace, of any rank, found or added as it is (merging traces).
    LaneId find_or_copy(const Lane& lane);

    // Names a source learnt (Kineto's and Nsight Systems' thread and process names).
    void set_thread_name(std::int64_t process, std::int64_t thread, std::string name);
    void set_process_name(std::int64_t process, std::string name);
    // Names every lane this registry made by lane_display_name with what is known now:
    // the thread names, and the process when the trace's host lanes span several.
    void finish();

  private:
    using Key = std::tuple<std::int32_t, LaneKind, std::int32_t, std::int64_t, std::int64_t>;
    Trace& trace_;
    std::int32_t rank_ = 0;
    std::map<Key, LaneId> index_;
    std::set<LaneId> made_;  // lanes named here (not given a name by the caller)
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> thread_names_;
    std::map<std::int64_t, std::string> process_names_;
};

}  // namespace trainscope::profiler
