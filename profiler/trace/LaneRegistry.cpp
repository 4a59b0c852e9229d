#include "profiler/trace/LaneRegistry.hpp"

#include <set>

namespace trainscope::profiler {

namespace {

// Kineto names threads "thread 25772 (python)": the id is said already, keep "python".
std::string own_thread_name(const std::string& thread_name, std::int64_t thread) {
    const std::string prefix = "thread " + std::to_string(thread);
    if (thread_name.rfind(prefix, 0) != 0)
        return thread_name;
    std::string rest = thread_name.substr(prefix.size());
    const auto first = rest.find_first_not_of(" (");
    const auto last = rest.find_last_not_of(" )");
    return first == std::string::npos ? std::string() : rest.substr(first, last - first + 1);
}

}  // namespace

std::string lane_display_name(const Lane& lane, const std::string& thread_name,
                              const std::string& process_label, bool show_rank) {
    std::string name = show_rank ? "rank " + std::to_string(lane.rank) + " · " : std::string();
    if (lane.device >= 0) {
        name += "GPU " + std::to_string(lane.device) + " · ";
        if (lane.kind == LaneKind::Nvtx)
            name += "annotations · ";
        else if (lane.kind == LaneKind::Communication)
            name += "communication · ";
        return name + "stream " + std::to_string(lane.stream_or_thread);
    }
    if (!process_label.empty())
        name += process_label + " · ";
    name += lane.kind == LaneKind::Nvtx            ? "NVTX · "
            : lane.kind == LaneKind::Communication ? "communication · "
                                                   : "CPU · ";
    name += lane.stream_or_thread == lane.process
                ? std::string("main thread")
                : "thread " + std::to_string(lane.stream_or_thread);
    const std::string own = own_thread_name(thread_name, lane.stream_or_thread);
    if (!own.empty())
        name += " (" + own + ")";
    return name;
}

LaneRegistry::LaneRegistry(Trace& trace, std::int32_t rank) : trace_(trace), rank_(rank) {
    for (std::size_t i = 0; i < trace_.lanes.size(); ++i) {
        const Lane& l = trace_.lanes[i];
        index_.emplace(Key{l.rank, l.kind, l.device, l.stream_or_thread, l.process},
                       static_cast<LaneId>(i));
    }
}

LaneId LaneRegistry::find_or_add(LaneKind kind, std::int32_t device, std::int64_t stream_or_thread,
                                 std::int64_t process, const std::string& name) {
    const Key key{rank_, kind, device, stream_or_thread, process};
    if (auto it = index_.find(key); it != index_.end())
        return it->second;
    Lane lane{kind, device, stream_or_thread, process, name, rank_};
    if (name.empty())
        lane.name = lane_display_name(lane, {}, {}, trace_.world_size > 1);
    const LaneId id = trace_.add_lane(std::move(lane));
    index_.emplace(key, id);
    if (name.empty())
        made_.insert(id);
    return id;
}

LaneId LaneRegistry::find_or_copy(const Lane& lane) {
    const Key key{lane.rank, lane.kind, lane.device, lane.stream_or_thread, lane.process};
    if (auto it = index_.find(key); it != index_.end())
        return it->second;
    const LaneId id = trace_.add_lane(lane);
    index_.emplace(key, id);
    return id;
}

LaneId LaneRegistry::gpu_stream(std::int32_t device, std::int64_t stream) {
    return find_or_add(LaneKind::GpuStream, device, stream, 0);
}

LaneId LaneRegistry::device_annotations(std::int32_t device, std::int64_t stream) {
    return find_or_add(LaneKind::Nvtx, device, stream, 0);
}

LaneId LaneRegistry::host_thread(std::int64_t process, std::int64_t thread) {
    return find_or_add(LaneKind::HostThread, -1, thread, process);
}

LaneId LaneRegistry::nvtx(std::int64_t process, std::int64_t thread) {
    return find_or_add(LaneKind::Nvtx, -1, thread, process);
}

LaneId LaneRegistry::communication(std::int32_t device, std::int64_t stream_or_thread,
                                   std::int64_t process) {
    return find_or_add(LaneKind::Communication, device, stream_or_thread,
                       device >= 0 ? 0 : process);
}

void LaneRegistry::set_thread_name(std::int64_t process, std::int64_t thread, std::string name) {
    thread_names_[{process, thread}] = std::move(name);
}

void LaneRegistry::set_process_name(std::int64_t process, std::string name) {
    process_names_[process] = std::move(name);
}

void LaneRegistry::finish() {
    // Processes are told apart within a rank; ranks by their own prefix.
    std::set<std::int64_t> processes;
    for (const Lane& lane : trace_.lanes) {
        if (lane.device < 0 && lane.rank == rank_)
            processes.insert(lane.process);
    }
    const bool several = processes.size() > 1;
    const bool show_rank = trace_.world_size > 1;
    for (const LaneId id : made_) {
        Lane& lane = trace_.lanes.at(id);
        if (lane.device >= 0) {
            lane.name = lane_display_name(lane, {}, {}, show_rank);
            continue;
        }
        std::string process_label;
        if (several) {
            const auto it = process_names_.find(lane.process);
            process_label = it != process_names_.end() && !it->second.empty()
                                ? it->second
                                : "process " + std::to_string(lane.process);
        }
        const auto thread = thread_names_.find({lane.process, lane.stream_or_thread});
        lane.name =
            lane_display_name(lane, thread != thread_names_.end() ? thread->second : std::string(),
                              process_label, show_rank);
    }
}

}  // namespace trainscope::profiler
