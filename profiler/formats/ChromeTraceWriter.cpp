#include "profiler/formats/ChromeTraceWriter.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "profiler/analysis/GpuWork.hpp"
#include "profiler/analysis/LaunchIndex.hpp"
#include "profiler/formats/OutputFile.hpp"

namespace trainscope::profiler {

namespace {

// GPU lanes live in synthetic processes so that they never mix with host pids.
constexpr std::int64_t kGpuProcessBase = 1'000'000'000;

constexpr std::size_t kFlushBytes = 1 << 20;

template <class Integer>
void append_integer(std::string& out, Integer value) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
    out.append(digits, end);
}

// ns -> "µs.nnn" without floating point, so the file keeps every nanosecond.
void append_microseconds(std::string& out, std::int64_t ns) {
    const bool negative = ns < 0;
    const std::uint64_t magnitude =
        negative ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
    if (negative)
        out += '-';
    append_integer(out, magnitude / 1000);
    const auto fraction = static_cast<unsigned>(magnitude % 1000);
    out += '.';
    out += static_cast<char>('0' + fraction / 100);
    out += static_cast<char>('0' + fraction / 10 % 10);
    out += static_cast<char>('0' + fraction % 10);
}

std::string quoted(const std::string& text) {
    return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A job's ranks get processes of their own: two ranks on two nodes may share a pid or a
// device ordinal. Rank r's GPUs are kGpuProcessBase + r * kRankStride + device, its host
// processes r * kRankStride + kRankHostBase + their order within the rank.
constexpr std::int64_t kRankStride = 10'000;
constexpr std::int64_t kRankHostBase = 1'000;

std::pair<std::int64_t, std::int64_t> ids_of(const Trace& trace, LaneId lane_id) {
    const Lane& lane = trace.lanes.at(lane_id);
    // Every lane gets its own thread id (lane index + 1): NVTX ranges and API calls of one
    // OS thread stay on separate tracks, where each one nests cleanly.
    const std::int64_t tid = static_cast<std::int64_t>(lane_id) + 1;
    if (trace.world_size > 1) {
        const std::int64_t rank_base = static_cast<std::int64_t>(lane.rank) * kRankStride;
        if (lane.device >= 0)
            return {kGpuProcessBase + rank_base + lane.device, tid};
        std::int64_t order = 0;
        std::vector<std::int64_t> seen;
        for (const Lane& other : trace.lanes) {
            if (other.rank != lane.rank || other.device >= 0 ||
                std::find(seen.begin(), seen.end(), other.process) != seen.end()) {
                continue;
            }
            if (other.process == lane.process)
                break;
            seen.push_back(other.process);
            ++order;
        }
        return {rank_base + kRankHostBase + order, tid};
    }
    if (lane.device >= 0)
        return {kGpuProcessBase + lane.device, tid};
    return {lane.process, tid};
}

std::string_view category_of(ActivityKind kind) {
    switch (kind) {
        case ActivityKind::Kernel:
            return "kernel";
        case ActivityKind::Memcpy:
            return "gpu_memcpy";
        case ActivityKind::Memset:
            return "gpu_memset";
        case ActivityKind::Synchronization:
            return "cuda_sync";
        case ActivityKind::RuntimeApi:
            return "cuda_runtime";
        case ActivityKind::DriverApi:
            return "cuda_driver";
        case ActivityKind::NvtxRange:
            return "user_annotation";
        case ActivityKind::HostOp:
            return "cpu_op";
        case ActivityKind::Overhead:
            return "overhead";
        case ActivityKind::Collective:
            return "collective";
    }
    return "other";
}

}  // namespace

ChromeTraceWriter::ChromeTraceWriter(const Trace& header, std::ostream& out)
    : header_(header), out_(out), quoted_names_(header.strings.size()) {
    lane_ids_.reserve(header.lanes.size());
    for (std::size_t i = 0; i < header.lanes.size(); ++i) {
        const auto [pid, tid] = ids_of(header, static_cast<LaneId>(i));
        lane_ids_.push_back({pid, tid});
    }

    buffer_.reserve(kFlushBytes + (1 << 16));
    buffer_ += "{\"schemaVersion\":1,\"displayTimeUnit\":\"ns\",\"otherData\":{\"base_ns\":";
    append_integer(buffer_, header.base_ns);
    for (const auto& [key, value] : header.metadata)
        buffer_.append(",").append(quoted(key)).append(":").append(quoted(value));
    buffer_ += "},\n\"traceEvents\":[\n";

    // Metadata: names and order of processes and threads (GPUs sort first).
    std::map<std::int64_t, std::string> processes;
    for (std::size_t i = 0; i < header.lanes.size(); ++i) {
        const Lane& lane = header.lanes[i];
        const LaneIds ids = lane_ids_[i];
        std::string process_name(header.world_size > 1 ? "rank " + std::to_string(lane.rank) + " · "
                                                       : std::string());
        process_name += lane.device >= 0 ? "GPU " : "process ";
        process_name += std::to_string(lane.device >= 0 ? lane.device : lane.process);
        processes.emplace(ids.pid, std::move(process_name));
        begin_event() += "{\"ph\":\"M\",\"name\":\"thread_name\",";
        append_lane_ids(ids);
        buffer_.append(",\"args\":{\"name\":").append(quoted(lane.name)).append("}}");
        begin_event() += "{\"ph\":\"M\",\"name\":\"thread_sort_index\",";
        append_lane_ids(ids);
        buffer_ += ",\"args\":{\"sort_index\":";
        append_integer(buffer_, i);
        buffer_ += "}}";
    }
    for (const auto& [pid, name] : processes) {
        begin_event() += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":";
        append_integer(buffer_, pid);
        buffer_.append(",\"tid\":0,\"args\":{\"name\":").append(quoted(name)).append("}}");
        begin_event() += "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":";
        append_integer(buffer_, pid);
        buffer_ += ",\"tid\":0,\"args\":{\"sort_index\":";
        append_integer(buffer_, pid >= kGpuProcessBase ? pid - kGpuProcessBase : pid + 1000);
        buffer_ += "}}";
    }
    flush_when_full();
}

std::string& ChromeTraceWriter::begin_event() {
    if (!first_event_)
        buffer_ += ",\n";
    first_event_ = false;
    return buffer_;
}

void ChromeTraceWriter::append_lane_ids(LaneIds ids) {
    buffer_ += "\"pid\":";
    append_integer(buffer_, ids.pid);
    buffer_ += ",\"tid\":";
    append_integer(buffer_, ids.tid);
}

void ChromeTraceWriter::flush_when_full() {
    if (buffer_.size() < kFlushBytes)
        return;
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
}

const std::string& ChromeTraceWriter::quoted_name(StringId name) {
    std::string& text = quoted_names_.at(name);
    if (text.empty())  // a quoted name is never empty: it has its quotes
        text = quoted(header_.strings.at(name));
    return text;
}

void ChromeTraceWriter::write_activity(const Activity& a) {
    const LaneIds ids = lane_ids_.at(a.lane);
    begin_event().append("{\"ph\":\"X\",\"cat\":\"").append(category_of(a.kind));
    buffer_.append("\",\"name\":").append(quoted_name(a.name)).append(",");
    append_lane_ids(ids);
    buffer_ += ",\"ts\":";
    append_microseconds(buffer_, a.start_ns);
    buffer_ += ",\"dur\":";
    append_microseconds(buffer_, a.duration_ns());
    buffer_ += ',';
    write_args(a);
    buffer_ += '}';
    flush_when_full();
}

void ChromeTraceWriter::write_args(const Activity& a) {
    const Lane& lane = header_.lanes.at(a.lane);
    buffer_ += "\"args\":{";
    bool first = true;
    auto key = [&](const char* name) {
        if (!first)
            buffer_ += ',';
        buffer_.append("\"").append(name).append("\":");
        first = false;
    };
    auto integer = [&](const char* name, auto value) {
        key(name);
        append_integer(buffer_, value);
    };
    if (a.correlation != 0)
        integer("correlation", a.correlation);
    if (a.device >= 0) {
        integer("device", a.device);
        integer("stream", lane.stream_or_thread);
    }
    if (a.kind == ActivityKind::Kernel) {
        auto triple = [&](const char* name, const std::array<std::int32_t, 3>& v) {
            key(name);
            buffer_ += '[';
            for (std::size_t i = 0; i < v.size(); ++i) {
                if (i > 0)
                    buffer_ += ',';
                append_integer(buffer_, v[i]);
            }
            buffer_ += ']';
        };
        triple("grid", a.grid);
        triple("block", a.block);
        integer("registers per thread", a.registers_per_thread);
        integer("shared memory", a.shared_memory_bytes);
        if (a.graph_id != 0)
            integer("graph id", a.graph_id);
    }
    if (a.kind == ActivityKind::Memcpy || a.kind == ActivityKind::Memset ||
        a.kind == ActivityKind::Collective) {
        integer("bytes", a.bytes);
    }
    if (a.kind == ActivityKind::Memcpy) {
        key("copy kind");
        buffer_ += quoted(std::string(to_string(a.copy_kind)));
    }
    if (lane.kind != LaneKind::GpuStream)
        integer("depth", a.depth);
    buffer_ += '}';
}

void ChromeTraceWriter::write_flow(FlowEnd launch, FlowEnd work) {
    ++flow_id_;
    // The flow's start on the launch, its end ("bp":"e": bound to the enclosing slice) on
    // the work.
    const auto end_of_flow = [this](const char* head, FlowEnd end) {
        const LaneIds ids = lane_ids_.at(end.lane);
        begin_event() += head;
        append_integer(buffer_, flow_id_);
        buffer_ += ',';
        append_lane_ids(ids);
        buffer_ += ",\"ts\":";
        append_microseconds(buffer_, end.start_ns);
        buffer_ += '}';
    };
    end_of_flow("{\"ph\":\"s\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":", launch);
    end_of_flow("{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\",\"id\":", work);
    flush_when_full();
}

void ChromeTraceWriter::finish() {
    buffer_ += "\n]}\n";
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
}

void write_chrome_trace(const Trace& trace, std::ostream& out) {
    ChromeTraceWriter writer(trace, out);
    for (const Activity& a : trace.activities)
        writer.write_activity(a);
    // Flows from each launch to the GPU work it launched.
    const LaunchIndex launches(trace);
    for (const Activity& a : trace.activities) {
        if (!is_gpu_work(a.kind))
            continue;
        const auto launch = launches.launch_of(a);
        if (!launch)
            continue;
        const Activity& api = trace.activities[*launch];
        writer.write_flow({api.lane, api.start_ns}, {a.lane, a.start_ns});
    }
    writer.finish();
}

void write_chrome_trace(const Trace& trace, const std::filesystem::path& file) {
    AtomicOutputFile out(file);
    write_chrome_trace(trace, out.stream());
    out.commit();
}

}  // namespace trainscope::profiler
