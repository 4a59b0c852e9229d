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
// (HostThread); "NVTX · main thread", "NVTX · thread 812" (Nvtx). Linux gives a
// process's main thread the process id as its thread id. A thread name a source knows is
// added in parentheses; `process_label` (non-empty when the trace holds more than one
// process) comes first, so that two processes' main threads stay apart.
std::string lane_display_name(const Lane& lane, const std::string& thread_name = {},
                              const std::string& process_label = {});

// The one "find or add a lane" of the trace model: every source that builds a Trace asks
// it for the lane of an identity (kind, device, stream or thread, process), so the same
// NVTX range read from any source lands on an identically named lane. Lanes already in
// the trace are found too (merging one trace into another).
class LaneRegistry {
  public:
    explicit LaneRegistry(Trace& trace);

    LaneId gpu_stream(std::int32_t device, std::int64_t stream);
    // Annotations a tool projected onto a device's stream (Kineto's gpu_user_annotation).
    LaneId device_annotations(std::int32_t device, std::int64_t stream);
    // API calls, host ops and other CPU work of a thread.
    LaneId host_thread(std::int64_t process, std::int64_t thread);
    // NVTX ranges (and user annotations) of a thread.
    LaneId nvtx(std::int64_t process, std::int64_t thread);
    // Any identity; `name` is kept when given, otherwise lane_display_name.
    LaneId find_or_add(LaneKind kind, std::int32_t device, std::int64_t stream_or_thread,
                       std::int64_t process, const std::string& name = {});

    // Names a source learnt (Kineto's and Nsight Systems' thread and process names).
    void set_thread_name(std::int64_t process, std::int64_t thread, std::string name);
    void set_process_name(std::int64_t process, std::string name);
    // Names every lane this registry made by lane_display_name with what is known now:
    // the thread names, and the process when the trace's host lanes span several.
    void finish();

  private:
    using Key = std::tuple<LaneKind, std::int32_t, std::int64_t, std::int64_t>;
    Trace& trace_;
    std::map<Key, LaneId> index_;
    std::set<LaneId> made_;  // lanes named here (not given a name by the caller)
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> thread_names_;
    std::map<std::int64_t, std::string> process_names_;
};

}  // namespace trainscope::profiler
