#include "profiler/formats/detail/KinetoTraceBuilder.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/formats/detail/MicrosecondText.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler::detail {

enum class KinetoTraceBuilder::Category {
    Kernel,
    Memcpy,
    Memset,
    Runtime,
    Driver,
    HostOp,
    Annotation,
    GpuAnnotation,
    Sync,
    CaptureWindow,
    Overhead,
    Other,
};

namespace {

std::string lowercase(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// "stream 7" -> 7, "25738" -> 25738; Kineto writes tids both ways across versions.
std::optional<std::int64_t> trailing_integer(std::string_view text) {
    if (auto exact = integer_text_to_int64(text))
        return exact;
    std::size_t end = text.size();
    std::size_t begin = end;
    while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9')
        --begin;
    if (begin == end)
        return std::nullopt;
    return integer_text_to_int64(text.substr(begin, end - begin));
}

CopyKind copy_kind_from_name(std::string_view name) {
    if (name.find("HtoD") != std::string_view::npos)
        return CopyKind::HostToDevice;
    if (name.find("DtoH") != std::string_view::npos)
        return CopyKind::DeviceToHost;
    if (name.find("DtoD") != std::string_view::npos)
        return CopyKind::DeviceToDevice;
    if (name.find("HtoH") != std::string_view::npos)
        return CopyKind::HostToHost;
    if (name.find("PtoP") != std::string_view::npos)
        return CopyKind::PeerToPeer;
    return CopyKind::Unknown;
}

bool has_fraction(std::string_view number_text) {
    return number_text.find_first_of(".eE") != std::string_view::npos;
}

std::int64_t int_or(const KinetoRawObject& event, std::string_view key, std::int64_t fallback) {
    const KinetoField* f = event.find(key);
    if (f == nullptr)
        return fallback;
    return integer_text_to_int64(f->text).value_or(fallback);
}

std::string_view first_text(const KinetoRawObject& event,
                            std::initializer_list<std::string_view> keys) {
    for (const std::string_view key : keys) {
        if (event.find(key) != nullptr)
            return event.text(key);
    }
    return {};
}

RecordParamComms comms_record(const KinetoRawObject& event, std::int64_t pid, std::int64_t tid,
                              std::int64_t start_ns, std::int64_t end_ns) {
    RecordParamComms r;
    r.process = pid;
    r.thread = tid;
    r.start_ns = start_ns;
    r.end_ns = end_ns;
    r.collective = std::string(event.text("args.Collective name"));
    r.dtype = std::string(event.text("args.dtype"));
    r.group = std::string(first_text(event, {"args.Process Group Name", "args.pg_name"}));
    r.in_elements = int_or(event, "args.In msg nelems", 0);
    r.out_elements = int_or(event, "args.Out msg nelems", 0);
    r.group_size = int_or(event, "args.Group size", 0);
    const std::string_view seq = first_text(event, {"args.Seq", "args.seq"});
    r.sequence = integer_text_to_int64(seq).value_or(-1);
    return r;
}

}  // namespace

KinetoTraceBuilder::KinetoTraceBuilder(std::filesystem::path file) : file_(std::move(file)) {}

KinetoTraceBuilder::Category KinetoTraceBuilder::classify(std::string_view category) {
    const std::string c = lowercase(category);
    if (c == "kernel")
        return Category::Kernel;
    if (c == "gpu_memcpy" || c == "memcpy")
        return Category::Memcpy;
    if (c == "gpu_memset" || c == "memset")
        return Category::Memset;
    if (c == "cuda_runtime" || c == "runtime")
        return Category::Runtime;
    if (c == "cuda_driver" || c == "driver")
        return Category::Driver;
    if (c == "cpu_op" || c == "operator" || c == "python_function" || c == "python") {
        return Category::HostOp;
    }
    if (c == "user_annotation")
        return Category::Annotation;
    if (c == "gpu_user_annotation")
        return Category::GpuAnnotation;
    if (c == "cuda_sync")
        return Category::Sync;
    if (c == "trace")
        return Category::CaptureWindow;
    if (c == "overhead")
        return Category::Overhead;
    return Category::Other;
}

std::int64_t KinetoTraceBuilder::required_ns(const KinetoRawObject& event,
                                             std::string_view key) const {
    const KinetoField* f = event.find(key);
    if (f == nullptr || f->is_string) {
        throw TraceFormatError(file_, "event \"" + std::string(event.text("name")) +
                                          "\" has no numeric \"" + std::string(key) + "\"");
    }
    auto ns = microseconds_text_to_ns(f->text);
    if (!ns) {
        throw TraceFormatError(file_, "event \"" + std::string(event.text("name")) + "\": \"" +
                                          std::string(key) + "\" = " + f->text +
                                          " µs is not a number that fits in int64 nanoseconds");
    }
    return *ns;
}

std::optional<std::int64_t> KinetoTraceBuilder::optional_int(const KinetoRawObject& event,
                                                             std::string_view key) const {
    const KinetoField* f = event.find(key);
    if (f == nullptr)
        return std::nullopt;
    return trailing_integer(f->text);
}

void KinetoTraceBuilder::add_event(const KinetoRawObject& event) {
    const std::string_view phase = event.text("ph");
    if (phase == "M") {
        add_metadata_event(event);
        return;
    }
    if (phase != "X")
        return;  // flows (s/f), instants and counters carry nothing we keep
    const std::string_view category = event.text("cat");
    if (!category.empty() && std::isupper(static_cast<unsigned char>(category.front()))) {
        saw_capitalised_category_ = true;
    }
    const Category c = classify(category);
    if (c == Category::Other) {
        ++skipped_events_;
        return;
    }
    add_interval(event, c);
}

void KinetoTraceBuilder::add_interval(const KinetoRawObject& event, Category category) {
    const std::int64_t start_ns = required_ns(event, "ts");
    const std::int64_t duration_ns = event.find("dur") ? required_ns(event, "dur") : 0;
    if (has_fraction(event.text("ts")))
        saw_fractional_time_ = true;
    std::int64_t end_ns = 0;
    if (__builtin_add_overflow(start_ns, duration_ns, &end_ns)) {
        throw TraceFormatError(file_, "event \"" + std::string(event.text("name")) +
                                          "\": ts + dur overflows int64 nanoseconds");
    }
    if (category == Category::CaptureWindow) {
        capture_begin_ns_ = std::min(capture_begin_ns_.value_or(start_ns), start_ns);
        capture_end_ns_ = std::max(capture_end_ns_.value_or(end_ns), end_ns);
        return;
    }

    Activity a;
    a.start_ns = start_ns;
    a.end_ns = end_ns;
    a.name = trace_.strings.intern(event.text("name"));
    a.correlation = static_cast<std::uint64_t>(optional_int(event, "args.correlation").value_or(0));
    const std::int64_t pid = optional_int(event, "pid").value_or(0);
    const std::int64_t tid = optional_int(event, "tid").value_or(0);

    switch (category) {
        case Category::Kernel:
        case Category::Memcpy:
        case Category::Memset:
        case Category::Sync: {
            a.kind = category == Category::Kernel   ? ActivityKind::Kernel
                     : category == Category::Memcpy ? ActivityKind::Memcpy
                     : category == Category::Memset ? ActivityKind::Memset
                                                    : ActivityKind::Synchronization;
            a.device = static_cast<std::int32_t>(optional_int(event, "args.device").value_or(pid));
            const std::int64_t stream = optional_int(event, "args.stream").value_or(tid);
            a.lane = lanes_.gpu_stream(a.device, stream);
            a.bytes = optional_int(event, "args.bytes").value_or(0);
            if (category == Category::Memcpy)
                a.copy_kind = copy_kind_from_name(event.text("name"));
            static constexpr std::array<std::string_view, 3> kGridKeys{
                "args.grid[0]", "args.grid[1]", "args.grid[2]"};
            static constexpr std::array<std::string_view, 3> kBlockKeys{
                "args.block[0]", "args.block[1]", "args.block[2]"};
            for (std::size_t i = 0; i < 3; ++i) {
                a.grid[i] =
                    static_cast<std::int32_t>(optional_int(event, kGridKeys[i]).value_or(0));
                a.block[i] =
                    static_cast<std::int32_t>(optional_int(event, kBlockKeys[i]).value_or(0));
            }
            a.registers_per_thread = static_cast<std::int32_t>(
                optional_int(event, "args.registers per thread").value_or(0));
            a.shared_memory_bytes =
                static_cast<std::int32_t>(optional_int(event, "args.shared memory").value_or(0));
            a.graph_id =
                static_cast<std::uint32_t>(optional_int(event, "args.graph id").value_or(0));
            break;
        }
        case Category::Runtime:
        case Category::Driver:
        case Category::HostOp:
        case Category::Overhead:
            a.kind = category == Category::Runtime  ? ActivityKind::RuntimeApi
                     : category == Category::Driver ? ActivityKind::DriverApi
                     : category == Category::HostOp ? ActivityKind::HostOp
                                                    : ActivityKind::Overhead;
            a.lane = lanes_.host_thread(pid, tid);
            if (category == Category::HostOp && event.text("name") == "record_param_comms")
                comms_records_.push_back(comms_record(event, pid, tid, start_ns, end_ns));
            break;
        case Category::Annotation:
            a.kind = ActivityKind::NvtxRange;
            a.lane = lanes_.nvtx(pid, tid);
            break;
        case Category::GpuAnnotation: {
            // Kineto's projection of an annotation onto a GPU stream: an NVTX-like range
            // on an annotation lane that belongs to the device.
            a.kind = ActivityKind::NvtxRange;
            a.device = static_cast<std::int32_t>(optional_int(event, "args.device").value_or(pid));
            const std::int64_t stream = optional_int(event, "args.stream").value_or(tid);
            a.lane = lanes_.device_annotations(a.device, stream);
            break;
        }
        case Category::CaptureWindow:
        case Category::Other:
            return;
    }
    trace_.activities.push_back(a);
}

void KinetoTraceBuilder::add_metadata_event(const KinetoRawObject& event) {
    const std::string_view what = event.text("name");
    const std::string_view value = event.text("args.name");
    const std::int64_t pid = optional_int(event, "pid").value_or(0);
    const std::int64_t tid = optional_int(event, "tid").value_or(0);
    if (what == "process_name") {
        lanes_.set_process_name(pid, std::string(value));
    } else if (what == "thread_name") {
        lanes_.set_thread_name(pid, tid, std::string(value));
    }
}

void KinetoTraceBuilder::add_device(const KinetoRawObject& device) {
    const std::string id(device.text("id"));
    if (id.empty())
        return;
    trace_.metadata["device." + id + ".name"] = std::string(device.text("name"));
    if (device.find("computeMajor")) {
        trace_.metadata["device." + id + ".compute_capability"] =
            std::string(device.text("computeMajor")) + "." +
            std::string(device.text("computeMinor"));
    }
}

void KinetoTraceBuilder::add_top_level(std::string_view key, const KinetoField& value) {
    if (key == "baseTimeNanoseconds") {
        auto offset = integer_text_to_int64(value.text);
        if (!offset) {
            throw TraceFormatError(file_,
                                   "baseTimeNanoseconds = " + value.text + " is not an int64");
        }
        trace_.source_clock_offset_ns = *offset;
        return;
    }
    if (key == "distributedInfo.rank" || key == "distributedInfo.world_size" ||
        key == "distributedInfo.backend") {
        // Which rank of which job wrote the file: import of a whole job reads it.
        trace_.metadata["distributed." + std::string(key.substr(key.find('.') + 1))] = value.text;
        return;
    }
    if (key == "schemaVersion" || key == "cuda_runtime_version" || key == "cuda_driver_version" ||
        key == "cupti_version" || key == "traceName") {
        trace_.metadata["kineto." + std::string(key)] = value.text;
    }
}

Trace KinetoTraceBuilder::finish() && {
    // t = 0 is the earliest event (or capture start); everything moves by that origin.
    std::int64_t origin = std::numeric_limits<std::int64_t>::max();
    for (const Activity& a : trace_.activities)
        origin = std::min(origin, a.start_ns);
    if (capture_begin_ns_)
        origin = std::min(origin, *capture_begin_ns_);
    if (origin == std::numeric_limits<std::int64_t>::max())
        origin = 0;
    for (Activity& a : trace_.activities) {
        a.start_ns -= origin;
        a.end_ns -= origin;
    }
    for (RecordParamComms& r : comms_records_) {
        r.start_ns -= origin;
        r.end_ns -= origin;
    }
    if (__builtin_add_overflow(origin, trace_.source_clock_offset_ns, &trace_.base_ns)) {
        throw TraceFormatError(file_,
                               "timestamps plus baseTimeNanoseconds overflow int64 nanoseconds");
    }
    std::int64_t last_end = 0;
    for (const Activity& a : trace_.activities)
        last_end = std::max(last_end, a.end_ns);
    trace_.capture_begin_ns = capture_begin_ns_ ? *capture_begin_ns_ - origin : 0;
    trace_.capture_end_ns = capture_end_ns_ ? *capture_end_ns_ - origin : last_end;

    lanes_.finish();
    trace_.metadata["source.format"] = "kineto";
    trace_.metadata["source.file"] = file_.string();
    trace_.metadata["kineto.time_resolution"] =
        saw_fractional_time_ ? "fractional microseconds (ns resolution)" : "integer microseconds";
    trace_.metadata["kineto.category_style"] =
        saw_capitalised_category_ ? "capitalised (PyTorch 1.x)" : "lowercase (PyTorch 2.x)";
    trace_.metadata["kineto.skipped_events"] = std::to_string(skipped_events_);
    assign_nesting_depths(trace_);
    add_kineto_collectives(trace_, comms_records_);
    return std::move(trace_);
}

}  // namespace trainscope::profiler::detail
