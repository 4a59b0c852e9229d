#include "profiler/formats/detail/KinetoTraceBuilder.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>

#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/formats/detail/MicrosecondText.hpp"

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

// The fields the builder reads, found in one pass over an event (the first of each key,
// as KinetoRawObject::find gives it) rather than by one search per key: a kernel event
// has two dozen fields and a dozen of them are asked for.
struct KinetoTraceBuilder::EventKeys {
    enum Key : std::uint8_t {
        Ph,
        Cat,
        Name,
        Ts,
        Dur,
        Pid,
        Tid,
        Correlation,
        Device,
        Stream,
        Bytes,
        Grid0,
        Block0 = Grid0 + 3,
        Registers = Block0 + 3,
        SharedMemory,
        GraphId,
        Count,
    };
    std::array<const KinetoField*, Count> at{};

    explicit EventKeys(const KinetoRawObject& event) {
        for (std::size_t i = 0; i < event.size(); ++i) {
            const KinetoField& f = event[i];
            const int k = key_of(f.key);
            if (k >= 0 && at[static_cast<std::size_t>(k)] == nullptr)
                at[static_cast<std::size_t>(k)] = &f;
        }
    }
    [[nodiscard]] std::string_view text(Key k) const {
        return at[k] != nullptr ? at[k]->text : std::string_view();
    }
    [[nodiscard]] std::optional<std::int64_t> integer(Key k) const {
        return at[k] != nullptr ? trailing_integer(at[k]->text) : std::nullopt;
    }

  private:
    static int key_of(std::string_view k) {
        const auto indexed = [&k](std::string_view stem, int first) {
            // "args.grid[1]": the stem, one digit 0-2, "]".
            if (k.size() != stem.size() + 2 || k.compare(0, stem.size(), stem) != 0 ||
                k.back() != ']') {
                return -1;
            }
            const char digit = k[stem.size()];
            return digit >= '0' && digit <= '2' ? first + (digit - '0') : -1;
        };
        switch (k.size()) {
            case 2:
                return k == "ph" ? Ph : k == "ts" ? Ts : -1;
            case 3:
                return k == "cat"   ? Cat
                       : k == "dur" ? Dur
                       : k == "pid" ? Pid
                       : k == "tid" ? Tid
                                    : -1;
            case 4:
                return k == "name" ? Name : -1;
            case 10:
                return k == "args.bytes" ? Bytes : -1;
            case 11:
                return k == "args.device" ? Device : k == "args.stream" ? Stream : -1;
            case 12:
                return indexed("args.grid[", Grid0);
            case 13:
                return k == "args.graph id" ? GraphId : indexed("args.block[", Block0);
            case 16:
                return k == "args.correlation" ? Correlation : -1;
            case 18:
                return k == "args.shared memory" ? SharedMemory : -1;
            case 25:
                return k == "args.registers per thread" ? Registers : -1;
            default:
                return -1;
        }
    }
};

KinetoTraceBuilder::KinetoTraceBuilder(std::filesystem::path file, std::size_t run_capacity,
                                       ActivitySorter::OneRun one_run)
    : file_(std::move(file)), activities_(run_capacity), one_run_(one_run) {}

KinetoTraceBuilder::Category KinetoTraceBuilder::classify(std::string_view category) {
    // Lowercased on the stack: this runs once per event. No known category is longer.
    constexpr std::size_t kLongestKnown = 32;
    if (category.size() > kLongestKnown)
        return Category::Other;
    std::array<char, kLongestKnown> lowered{};
    std::transform(category.begin(), category.end(), lowered.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
    const std::string_view c(lowered.data(), category.size());
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

std::int64_t KinetoTraceBuilder::required_ns(const EventKeys& event, const KinetoField* f,
                                             std::string_view key) const {
    if (f == nullptr || f->is_string) {
        throw TraceFormatError(file_, "event \"" + std::string(event.text(EventKeys::Name)) +
                                          "\" has no numeric \"" + std::string(key) + "\"");
    }
    auto ns = microseconds_text_to_ns(f->text);
    if (!ns) {
        throw TraceFormatError(file_, "event \"" + std::string(event.text(EventKeys::Name)) +
                                          "\": \"" + std::string(key) +
                                          "\" = " + std::string(f->text) +
                                          " µs is not a number that fits in int64 nanoseconds");
    }
    return *ns;
}

void KinetoTraceBuilder::add_event(const KinetoRawObject& object) {
    const EventKeys event(object);
    const std::string_view phase = event.text(EventKeys::Ph);
    if (phase == "M") {
        add_metadata_event(object);
        return;
    }
    if (phase != "X")
        return;  // flows (s/f), instants and counters carry nothing we keep
    const std::string_view category = event.text(EventKeys::Cat);
    if (!category.empty() && std::isupper(static_cast<unsigned char>(category.front()))) {
        saw_capitalised_category_ = true;
    }
    const Category c = classify(category);
    if (c == Category::Other) {
        ++skipped_events_;
        return;
    }
    add_interval(object, event, c);
}

void KinetoTraceBuilder::add_interval(const KinetoRawObject& object, const EventKeys& event,
                                      Category category) {
    using K = EventKeys;
    const std::int64_t start_ns = required_ns(event, event.at[K::Ts], "ts");
    const std::int64_t duration_ns =
        event.at[K::Dur] != nullptr ? required_ns(event, event.at[K::Dur], "dur") : 0;
    if (has_fraction(event.text(K::Ts)))
        saw_fractional_time_ = true;
    std::int64_t end_ns = 0;
    if (__builtin_add_overflow(start_ns, duration_ns, &end_ns)) {
        throw TraceFormatError(file_, "event \"" + std::string(event.text(K::Name)) +
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
    a.name = trace_.strings.intern(event.text(K::Name));
    a.correlation = static_cast<std::uint64_t>(event.integer(K::Correlation).value_or(0));
    const std::int64_t pid = event.integer(K::Pid).value_or(0);
    const std::int64_t tid = event.integer(K::Tid).value_or(0);

    switch (category) {
        case Category::Kernel:
        case Category::Memcpy:
        case Category::Memset:
        case Category::Sync: {
            a.kind = category == Category::Kernel   ? ActivityKind::Kernel
                     : category == Category::Memcpy ? ActivityKind::Memcpy
                     : category == Category::Memset ? ActivityKind::Memset
                                                    : ActivityKind::Synchronization;
            a.device = static_cast<std::int32_t>(event.integer(K::Device).value_or(pid));
            const std::int64_t stream = event.integer(K::Stream).value_or(tid);
            a.lane = lanes_.gpu_stream(a.device, stream);
            a.bytes = event.integer(K::Bytes).value_or(0);
            if (category == Category::Memcpy)
                a.copy_kind = copy_kind_from_name(event.text(K::Name));
            for (std::size_t i = 0; i < 3; ++i) {
                a.grid[i] = static_cast<std::int32_t>(
                    event.integer(static_cast<K::Key>(K::Grid0 + i)).value_or(0));
                a.block[i] = static_cast<std::int32_t>(
                    event.integer(static_cast<K::Key>(K::Block0 + i)).value_or(0));
            }
            a.registers_per_thread =
                static_cast<std::int32_t>(event.integer(K::Registers).value_or(0));
            a.shared_memory_bytes =
                static_cast<std::int32_t>(event.integer(K::SharedMemory).value_or(0));
            a.graph_id = static_cast<std::uint32_t>(event.integer(K::GraphId).value_or(0));
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
            if (category == Category::HostOp && event.text(K::Name) == "record_param_comms")
                collectives_->add_record(comms_record(object, pid, tid, start_ns, end_ns));
            break;
        case Category::Annotation:
            a.kind = ActivityKind::NvtxRange;
            a.lane = lanes_.nvtx(pid, tid);
            break;
        case Category::GpuAnnotation: {
            // Kineto's projection of an annotation onto a GPU stream: an NVTX-like range
            // on an annotation lane that belongs to the device.
            a.kind = ActivityKind::NvtxRange;
            a.device = static_cast<std::int32_t>(event.integer(K::Device).value_or(pid));
            const std::int64_t stream = event.integer(K::Stream).value_or(tid);
            a.lane = lanes_.device_annotations(a.device, stream);
            break;
        }
        case Category::CaptureWindow:
        case Category::Other:
            return;
    }
    keep(a);
}

void KinetoTraceBuilder::keep(const Activity& a) {
    min_start_ns_ = std::min(min_start_ns_, a.start_ns);
    max_end_ns_ = std::max(max_end_ns_, a.end_ns);
    if (a.kind == ActivityKind::Kernel) {
        has_gpu_work_ = true;
        collectives_->note_kernel(a, trace_.strings);
    } else if (a.kind == ActivityKind::Memcpy || a.kind == ActivityKind::Memset) {
        has_gpu_work_ = true;
    }
    activities_.add(a);
}

void KinetoTraceBuilder::add_metadata_event(const KinetoRawObject& event) {
    const std::string_view what = event.text("name");
    const std::string_view value = event.text("args.name");
    const auto int_or_zero = [&event](std::string_view key) {
        const KinetoField* f = event.find(key);
        return f != nullptr ? trailing_integer(f->text).value_or(0) : 0;
    };
    const std::int64_t pid = int_or_zero("pid");
    const std::int64_t tid = int_or_zero("tid");
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
            throw TraceFormatError(
                file_, "baseTimeNanoseconds = " + std::string(value.text) + " is not an int64");
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

StreamedTrace KinetoTraceBuilder::finish() && {
    // t = 0 is the earliest event (or capture start); everything moves by that origin.
    const bool any = activities_.size() > 0;
    std::int64_t origin = any ? min_start_ns_ : std::numeric_limits<std::int64_t>::max();
    if (capture_begin_ns_)
        origin = std::min(origin, *capture_begin_ns_);
    if (origin == std::numeric_limits<std::int64_t>::max())
        origin = 0;
    collectives_->shift_records(origin);
    if (__builtin_add_overflow(origin, trace_.source_clock_offset_ns, &trace_.base_ns)) {
        throw TraceFormatError(file_,
                               "timestamps plus baseTimeNanoseconds overflow int64 nanoseconds");
    }
    const std::int64_t last_end = any ? std::max<std::int64_t>(0, max_end_ns_ - origin) : 0;
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

    StreamedTrace out;
    out.activity_count = activities_.size();
    out.shift_ns = origin;
    out.first_start_ns = any ? min_start_ns_ - origin : 0;
    out.has_gpu_work = has_gpu_work_;
    out.activities = std::make_unique<SortedActivities>(std::move(activities_).finish(one_run_));
    out.header = std::move(trace_);
    std::shared_ptr<KinetoCollectiveJoin> join = std::move(collectives_);
    out.on_activity = [join](const Activity& a, std::span<const NestingStack::Open> ancestors,
                             const Trace& trace) { join->see(a, ancestors, trace); };
    out.on_end = [join](Trace& trace) { join->finish(trace); };
    return out;
}

}  // namespace trainscope::profiler::detail
