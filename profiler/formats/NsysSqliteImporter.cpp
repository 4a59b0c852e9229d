#include "profiler/formats/NsysSqliteImporter.hpp"

#include <algorithm>
#include <limits>
#include <memory>

#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/formats/detail/NsysCollectives.hpp"
#include "profiler/formats/detail/NsysGlobalTid.hpp"
#include "profiler/sqlite/SqliteConnection.hpp"
#include "profiler/sqlite/SqliteError.hpp"
#include "profiler/trace/LaneRegistry.hpp"

namespace trainscope::profiler {

namespace {

// NVTX_EVENTS.eventType values for ranges (Nsight Systems export documentation).
constexpr std::int64_t kNvtxPushPopRange = 59;
constexpr std::int64_t kNvtxStartEndRange = 60;

// CUPTI's CUpti_ActivityMemcpyKind, which nsys stores as copyKind.
CopyKind copy_kind_from_cupti(std::int64_t kind) {
    switch (kind) {
        case 1:
            return CopyKind::HostToDevice;
        case 2:
            return CopyKind::DeviceToHost;
        case 8:
            return CopyKind::DeviceToDevice;
        case 9:
            return CopyKind::HostToHost;
        case 10:
            return CopyKind::PeerToPeer;
        default:
            return CopyKind::Unknown;
    }
}

// Reads an export's tables into the trace model: every decision on names, lanes, kinds
// and clocks is here, and each activity goes to `keep` as it is read (the sorter, so that
// memory does not grow with the file).
class NsysTraceReader {
  public:
    NsysTraceReader(const SqliteConnection& db, Trace& trace, detail::NsysCollectiveJoin& join,
                    ActivitySorter& sorter)
        : db_(db), trace_(trace), lanes_(trace), join_(join), sorter_(sorter) {}

    void read_all() {
        read_kernels();
        if (db_.table_exists("CUPTI_ACTIVITY_KIND_MEMCPY"))
            read_memcpys();
        if (db_.table_exists("CUPTI_ACTIVITY_KIND_MEMSET"))
            read_memsets();
        if (db_.table_exists("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"))
            read_syncs();
        if (db_.table_exists("CUPTI_ACTIVITY_KIND_RUNTIME"))
            read_runtime();
        if (db_.table_exists("NVTX_EVENTS"))
            read_nvtx();
        if (db_.table_exists("TARGET_INFO_GPU"))
            read_devices();
        if (db_.table_exists("TARGET_INFO_SESSION_START_TIME"))
            read_session_start();
        if (db_.table_exists("ThreadNames"))
            read_thread_names();
        lanes_.finish();
    }

    // What finish needs of the activities read.
    std::int64_t min_start_ns = std::numeric_limits<std::int64_t>::max();
    std::int64_t max_start_ns = std::numeric_limits<std::int64_t>::min();
    std::int64_t min_end_ns = std::numeric_limits<std::int64_t>::max();
    std::int64_t max_end_ns = std::numeric_limits<std::int64_t>::min();
    bool has_gpu_work = false;

  private:
    void keep(const Activity& a) {
        min_start_ns = std::min(min_start_ns, a.start_ns);
        max_start_ns = std::max(max_start_ns, a.start_ns);
        min_end_ns = std::min(min_end_ns, a.end_ns);
        max_end_ns = std::max(max_end_ns, a.end_ns);
        if (a.kind == ActivityKind::Kernel)
            join_.note_kernel(a, trace_.strings);
        if (a.kind == ActivityKind::Kernel || a.kind == ActivityKind::Memcpy ||
            a.kind == ActivityKind::Memset)
            has_gpu_work = true;
        sorter_.add(a);
    }

    LaneId host_lane(LaneKind kind, std::int64_t global_tid) {
        const detail::NsysThread t = detail::decode_global_tid(global_tid);
        return kind == LaneKind::Nvtx ? lanes_.nvtx(t.process, t.thread)
                                      : lanes_.host_thread(t.process, t.thread);
    }

    void read_kernels() {
        SqliteStatement q(
            db_.handle(),
            "SELECT k.start, k.end, k.deviceId, k.streamId, k.correlationId, s.value, "
            "k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, k.registersPerThread, "
            "k.staticSharedMemory + k.dynamicSharedMemory "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k LEFT JOIN StringIds s ON s.id = k.demangledName");
        while (q.step()) {
            Activity a = gpu_activity(q, ActivityKind::Kernel);
            a.name = trace_.strings.intern(q.column_text(5));
            for (int i = 0; i < 3; ++i) {
                a.grid[static_cast<std::size_t>(i)] =
                    static_cast<std::int32_t>(q.column_int64(6 + i));
                a.block[static_cast<std::size_t>(i)] =
                    static_cast<std::int32_t>(q.column_int64(9 + i));
            }
            a.registers_per_thread = static_cast<std::int32_t>(q.column_int64(12));
            a.shared_memory_bytes = static_cast<std::int32_t>(q.column_int64(13));
            keep(a);
        }
    }

    void read_memcpys() {
        SqliteStatement q(db_.handle(),
                          "SELECT start, end, deviceId, streamId, correlationId, bytes, copyKind "
                          "FROM CUPTI_ACTIVITY_KIND_MEMCPY");
        while (q.step()) {
            Activity a = gpu_activity(q, ActivityKind::Memcpy);
            a.bytes = q.column_int64(5);
            a.copy_kind = copy_kind_from_cupti(q.column_int64(6));
            a.name = trace_.strings.intern("Memcpy " + std::string(to_string(a.copy_kind)));
            keep(a);
        }
    }

    void read_memsets() {
        SqliteStatement q(db_.handle(),
                          "SELECT start, end, deviceId, streamId, correlationId, bytes "
                          "FROM CUPTI_ACTIVITY_KIND_MEMSET");
        while (q.step()) {
            Activity a = gpu_activity(q, ActivityKind::Memset);
            a.bytes = q.column_int64(5);
            a.name = trace_.strings.intern("Memset");
            keep(a);
        }
    }

    void read_syncs() {
        SqliteStatement q(db_.handle(),
                          "SELECT start, end, deviceId, streamId, correlationId "
                          "FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
        while (q.step()) {
            Activity a = gpu_activity(q, ActivityKind::Synchronization);
            a.name = trace_.strings.intern("Synchronization");
            keep(a);
        }
    }

    // Columns 0-4 of every GPU table: start, end, deviceId, streamId, correlationId.
    Activity gpu_activity(const SqliteStatement& q, ActivityKind kind) {
        Activity a;
        a.kind = kind;
        a.start_ns = q.column_int64(0);
        a.end_ns = q.column_int64(1);
        a.device = static_cast<std::int32_t>(q.column_int64(2));
        a.lane = lanes_.gpu_stream(a.device, q.column_int64(3));
        a.correlation = q.is_null(4) ? 0 : static_cast<std::uint64_t>(q.column_int64(4));
        return a;
    }

    void read_runtime() {
        SqliteStatement q(
            db_.handle(),
            "SELECT r.start, r.end, r.globalTid, r.correlationId, s.value "
            "FROM CUPTI_ACTIVITY_KIND_RUNTIME r LEFT JOIN StringIds s ON s.id = r.nameId");
        while (q.step()) {
            Activity a;
            const std::string name = q.column_text(4);
            const bool driver = name.starts_with("cu") && !name.starts_with("cuda");
            a.kind = driver ? ActivityKind::DriverApi : ActivityKind::RuntimeApi;
            a.start_ns = q.column_int64(0);
            a.end_ns = q.column_int64(1);
            a.lane = host_lane(LaneKind::HostThread, q.column_int64(2));
            a.correlation = q.is_null(3) ? 0 : static_cast<std::uint64_t>(q.column_int64(3));
            a.name = trace_.strings.intern(name);
            keep(a);
        }
    }

    void read_nvtx() {
        SqliteStatement q(db_.handle(),
                          "SELECT n.start, n.end, n.globalTid, COALESCE(n.text, s.value, '') "
                          "FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId "
                          "WHERE n.end IS NOT NULL AND n.eventType IN (" +
                              std::to_string(kNvtxPushPopRange) + ", " +
                              std::to_string(kNvtxStartEndRange) + ")");
        while (q.step()) {
            Activity a;
            a.kind = ActivityKind::NvtxRange;
            a.start_ns = q.column_int64(0);
            a.end_ns = q.column_int64(1);
            a.lane = host_lane(LaneKind::Nvtx, q.column_int64(2));
            a.name = trace_.strings.intern(q.column_text(3));
            keep(a);
        }
    }

    void read_devices() {
        SqliteStatement q(db_.handle(), "SELECT id, name FROM TARGET_INFO_GPU");
        while (q.step()) {
            trace_.metadata["device." + std::to_string(q.column_int64(0)) + ".name"] =
                q.column_text(1);
        }
    }

    void read_thread_names() {
        SqliteStatement q(db_.handle(),
                          "SELECT t.globalTid, s.value FROM ThreadNames t "
                          "JOIN StringIds s ON s.id = t.nameId");
        while (q.step()) {
            const detail::NsysThread t = detail::decode_global_tid(q.column_int64(0));
            lanes_.set_thread_name(t.process, t.thread, q.column_text(1));
        }
    }

    void read_session_start() {
        SqliteStatement q(db_.handle(), "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME");
        if (q.step() && !q.is_null(0))
            trace_.source_clock_offset_ns = q.column_int64(0);
    }

    const SqliteConnection& db_;
    Trace& trace_;
    LaneRegistry lanes_;
    detail::NsysCollectiveJoin& join_;
    ActivitySorter& sorter_;
};

// t = 0 is the first event: the shift every activity takes as it passes, checked here once
// on the extremes (a difference overflows for some activity only if it does for one of them).
std::int64_t origin_of(const NsysTraceReader& read, bool any, const std::filesystem::path& file) {
    if (!any)
        return 0;
    const std::int64_t origin = read.min_start_ns;
    std::int64_t unused = 0;
    if (__builtin_sub_overflow(read.max_start_ns, origin, &unused) ||
        __builtin_sub_overflow(read.max_end_ns, origin, &unused) ||
        __builtin_sub_overflow(read.min_end_ns, origin, &unused)) {
        throw TraceFormatError(file, "timestamps span more than int64 nanoseconds");
    }
    return origin;
}

}  // namespace

StreamedTrace stream_nsys_sqlite(const std::filesystem::path& file, const StreamOptions& options) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        throw TraceFormatError(file, "no such file (or not a regular file)");
    }
    StreamedTrace out;
    Trace& trace = out.header;
    ActivitySorter sorter(options.run_capacity);
    const auto join = std::make_shared<detail::NsysCollectiveJoin>();
    std::int64_t origin = 0;
    try {
        // Read-only: importing never creates or changes a file.
        const SqliteConnection db(file, SQLITE_OPEN_READONLY);
        if (!db.table_exists("CUPTI_ACTIVITY_KIND_KERNEL")) {
            throw TraceFormatError(file,
                                   "not an Nsight Systems SQLite export with CUDA trace: "
                                   "table CUPTI_ACTIVITY_KIND_KERNEL is missing");
        }
        NsysTraceReader read(db, trace, *join, sorter);
        read.read_all();
        join->set_ranges(detail::read_nccl_api_ranges(db));
        const bool any = sorter.size() > 0;
        origin = origin_of(read, any, file);
        out.has_gpu_work = read.has_gpu_work;
        trace.capture_begin_ns = 0;
        trace.capture_end_ns = any ? read.max_end_ns - origin : 0;
    } catch (const SqliteError& e) {
        throw TraceFormatError(file, std::string("cannot read as SQLite: ") + e.what());
    }
    if (__builtin_add_overflow(origin, trace.source_clock_offset_ns, &trace.base_ns)) {
        throw TraceFormatError(file, "session start + first timestamp overflows int64 nanoseconds");
    }
    trace.metadata["source.format"] = "nsys-sqlite";
    trace.metadata["source.file"] = file.string();
    out.activity_count = sorter.size();
    out.shift_ns = origin;
    out.first_start_ns = 0;
    out.activities = std::make_unique<SortedActivities>(std::move(sorter).finish(options.one_run));
    // Communication kernels become collectives, matched across a job's ranks by order.
    out.on_activity = [join, origin](const Activity& a, std::span<const NestingStack::Open>,
                                     const Trace& header) { join->see(a, origin, header); };
    out.on_end = [join](Trace& header) { join->finish(header); };
    return out;
}

Trace import_nsys_sqlite(const std::filesystem::path& file) {
    return materialize(stream_nsys_sqlite(file));
}

}  // namespace trainscope::profiler
