#include "profiler/cupti/CuptiActivityDecoder.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "profiler/cupti/CuptiError.hpp"
#include "profiler/cupti/detail/KernelNameDemangler.hpp"
#include "profiler/trace/TraceNesting.hpp"

namespace trainscope::profiler {

namespace {

// CUPTI's enum-typed fields are read as their bits: a value the enum does not name (a
// newer CUPTI's, or a damaged record) is then one more unknown value, where loading it
// as the enum would be undefined behaviour (found by fuzzing, tests/fuzz).
template <typename Enum>
std::uint64_t bits_of(const Enum& field) {
    static_assert(std::is_enum_v<Enum>);
    std::underlying_type_t<Enum> raw;
    std::memcpy(&raw, &field, sizeof raw);
    return static_cast<std::uint64_t>(raw);
}

bool is_process_or_thread(std::uint64_t object_kind) {
    return object_kind == CUPTI_ACTIVITY_OBJECT_THREAD ||
           object_kind == CUPTI_ACTIVITY_OBJECT_PROCESS;
}

CopyKind copy_kind_of(std::uint8_t kind) {
    switch (kind) {
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
            return CopyKind::HostToDevice;
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
            return CopyKind::DeviceToHost;
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
            return CopyKind::DeviceToDevice;
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
            return CopyKind::HostToHost;
        case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
            return CopyKind::PeerToPeer;
        default:
            return CopyKind::Unknown;
    }
}

const char* overhead_name(std::uint64_t kind) {
    switch (kind) {
        case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
            return "driver compiler";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
            return "CUPTI buffer flush";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
            return "CUPTI instrumentation";
        case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
            return "CUPTI resource";
        case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
            return "module loading";
        case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
            return "lazy function loading";
        case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
            return "command buffer full";
        case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
            return "activity buffer request";
        default:
            return "overhead";
    }
}

}  // namespace

CuptiActivityDecoder::CuptiActivityDecoder(Trace& trace) : trace_(trace), lanes_(trace) {}

// Modulo 2^64, which C++20 defines for the conversion: the same number as a signed
// subtraction whenever that fits (always, for a real capture), and no overflow otherwise.
std::int64_t CuptiActivityDecoder::relative(std::uint64_t timestamp_ns) const {
    return static_cast<std::int64_t>(timestamp_ns - static_cast<std::uint64_t>(trace_.base_ns));
}

bool CuptiActivityDecoder::timed(std::uint64_t start_ns, std::uint64_t end_ns) {
    if (start_ns == CUPTI_TIMESTAMP_UNKNOWN || end_ns == CUPTI_TIMESTAMP_UNKNOWN ||
        end_ns < start_ns) {
        ++records_without_timestamps_;
        return false;
    }
    return true;
}

std::size_t CuptiActivityDecoder::decode_buffer(std::uint8_t* buffer, std::size_t valid_bytes) {
    std::size_t count = 0;
    CUpti_Activity* record = nullptr;
    for (;;) {
        const CUptiResult status = cuptiActivityGetNextRecord(buffer, valid_bytes, &record);
        if (status == CUPTI_ERROR_MAX_LIMIT_REACHED)
            break;  // end of the buffer
        if (status != CUPTI_SUCCESS) {
            // An incomplete or invalid record ends the buffer; what follows is lost.
            log_cupti_error(__FILE__, __LINE__, "cuptiActivityGetNextRecord", status);
            ++unknown_records_;
            break;
        }
        decode_record(*record);
        ++count;
    }
    return count;
}

// Each case reinterprets the record as the struct its kind names: that is CUPTI's
// contract (records are tagged unions keyed by `kind`).
void CuptiActivityDecoder::decode_record(const CUpti_Activity& record) {
    switch (bits_of(record.kind)) {
        case CUPTI_ACTIVITY_KIND_KERNEL:
        case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
            decode_kernel(reinterpret_cast<const CUpti_ActivityKernel10&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_MEMCPY:
            decode_memcpy(reinterpret_cast<const CUpti_ActivityMemcpy6&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_MEMSET:
            decode_memset(reinterpret_cast<const CUpti_ActivityMemset4&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_RUNTIME:
            decode_api(reinterpret_cast<const CUpti_ActivityAPI&>(record), false);
            break;
        case CUPTI_ACTIVITY_KIND_DRIVER:
            decode_api(reinterpret_cast<const CUpti_ActivityAPI&>(record), true);
            break;
        case CUPTI_ACTIVITY_KIND_MARKER:
            decode_marker(reinterpret_cast<const CUpti_ActivityMarker2&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_MARKER_DATA:
            ++marker_data_records_;  // colour/category payloads: not part of the model
            break;
        case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
            decode_sync(reinterpret_cast<const CUpti_ActivitySynchronization2&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_OVERHEAD:
            decode_overhead(reinterpret_cast<const CUpti_ActivityOverhead3&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_DEVICE:
            decode_device(reinterpret_cast<const CUpti_ActivityDevice5&>(record));
            break;
        case CUPTI_ACTIVITY_KIND_CONTEXT:
            decode_context(reinterpret_cast<const CUpti_ActivityContext3&>(record));
            break;
        default:
            ++unknown_records_;
            break;
    }
}

void CuptiActivityDecoder::decode_kernel(const CUpti_ActivityKernel10& k) {
    if (!timed(k.start, k.end))
        return;
    Activity a;
    a.kind = ActivityKind::Kernel;
    a.start_ns = relative(k.start);
    a.end_ns = relative(k.end);
    a.device = static_cast<std::int32_t>(k.deviceId);
    a.lane = lanes_.gpu_stream(a.device, k.streamId);
    a.correlation = k.correlationId;
    a.name = trace_.strings.intern(detail::demangle_kernel_name(k.name));
    a.grid = {k.gridX, k.gridY, k.gridZ};
    a.block = {k.blockX, k.blockY, k.blockZ};
    a.registers_per_thread = k.registersPerThread;
    // Each fits in int32 and so does a real sum (48 KB static + 227 KB dynamic at most).
    a.shared_memory_bytes = static_cast<std::int32_t>(std::clamp<std::int64_t>(
        std::int64_t{k.staticSharedMemory} + k.dynamicSharedMemory, INT32_MIN, INT32_MAX));
    a.graph_id = k.graphId;
    trace_.activities.push_back(a);
}

void CuptiActivityDecoder::decode_memcpy(const CUpti_ActivityMemcpy6& m) {
    if (!timed(m.start, m.end))
        return;
    Activity a;
    a.kind = ActivityKind::Memcpy;
    a.start_ns = relative(m.start);
    a.end_ns = relative(m.end);
    a.device = static_cast<std::int32_t>(m.deviceId);
    a.lane = lanes_.gpu_stream(a.device, m.streamId);
    a.correlation = m.correlationId;
    a.bytes = static_cast<std::int64_t>(m.bytes);
    a.copy_kind = copy_kind_of(m.copyKind);
    a.graph_id = m.graphId;
    std::string name("Memcpy ");
    name += to_string(a.copy_kind);
    a.name = trace_.strings.intern(name);
    trace_.activities.push_back(a);
}

void CuptiActivityDecoder::decode_memset(const CUpti_ActivityMemset4& m) {
    if (!timed(m.start, m.end))
        return;
    Activity a;
    a.kind = ActivityKind::Memset;
    a.start_ns = relative(m.start);
    a.end_ns = relative(m.end);
    a.device = static_cast<std::int32_t>(m.deviceId);
    a.lane = lanes_.gpu_stream(a.device, m.streamId);
    a.correlation = m.correlationId;
    a.bytes = static_cast<std::int64_t>(m.bytes);
    a.graph_id = m.graphId;
    a.name = trace_.strings.intern("Memset");
    trace_.activities.push_back(a);
}

void CuptiActivityDecoder::decode_api(const CUpti_ActivityAPI& api, bool driver) {
    auto& cache = api_names_[driver ? 1 : 0];
    auto it = cache.find(api.cbid);
    if (it == cache.end()) {
        const char* name = nullptr;
        const CUptiResult status = cuptiGetCallbackName(
            driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API, api.cbid, &name);
        std::string text =
            status == CUPTI_SUCCESS && name != nullptr ? std::string(name) : std::string();
        if (text.empty()) {
            text = driver ? "driver cbid " : "runtime cbid ";
            text += std::to_string(api.cbid);
        }
        it = cache.emplace(api.cbid, std::move(text)).first;
    }
    Activity a;
    a.kind = driver ? ActivityKind::DriverApi : ActivityKind::RuntimeApi;
    a.start_ns = relative(api.start);
    a.end_ns = relative(api.end);
    a.lane = lanes_.host_thread(api.processId, api.threadId);
    a.correlation = api.correlationId;
    a.name = trace_.strings.intern(it->second);
    trace_.activities.push_back(a);
}

void CuptiActivityDecoder::decode_marker(const CUpti_ActivityMarker2& m) {
    const std::uint64_t flags = bits_of(m.flags);
    if ((flags & CUPTI_ACTIVITY_FLAG_MARKER_START) != 0) {
        std::int64_t process = 0;
        std::int64_t thread = 0;
        if (is_process_or_thread(bits_of(m.objectKind))) {
            process = m.objectId.pt.processId;
            thread = m.objectId.pt.threadId;
        }
        std::string name = m.name != nullptr ? std::string(m.name) : std::string();
        if (m.domain != nullptr && *m.domain != '\0')
            name = std::string(m.domain) + "::" + name;
        open_markers_[m.id] = OpenMarker{relative(m.timestamp), trace_.strings.intern(name),
                                         lanes_.nvtx(process, thread)};
        return;
    }
    if ((flags & CUPTI_ACTIVITY_FLAG_MARKER_END) != 0) {
        auto it = open_markers_.find(m.id);
        if (it == open_markers_.end()) {
            ++unknown_records_;  // an end without its start (started before capture)
            return;
        }
        Activity a;
        a.kind = ActivityKind::NvtxRange;
        a.start_ns = it->second.start_ns;
        a.end_ns = relative(m.timestamp);
        a.name = it->second.name;
        a.lane = it->second.lane;
        trace_.activities.push_back(a);
        open_markers_.erase(it);
    }
    // Instantaneous markers (nvtxMark) have no duration: not ranges, not kept.
}

void CuptiActivityDecoder::decode_sync(const CUpti_ActivitySynchronization2& s) {
    Activity a;
    a.kind = ActivityKind::Synchronization;
    a.start_ns = relative(s.start);
    a.end_ns = relative(s.end);
    a.correlation = s.correlationId;
    const std::int64_t stream = s.streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE
                                    ? -1
                                    : static_cast<std::int64_t>(s.streamId);
    a.name = trace_.strings.intern("Synchronization");
    const auto device = device_of_context_.find(s.contextId);
    if (device == device_of_context_.end()) {
        // The context's record may come in a buffer completed later: placed at finish().
        unplaced_syncs_.push_back({trace_.activities.size(), s.contextId, stream});
        trace_.activities.push_back(a);
        return;
    }
    a.device = device->second;
    a.lane = lanes_.gpu_stream(a.device, stream);
    trace_.activities.push_back(a);
}

void CuptiActivityDecoder::decode_overhead(const CUpti_ActivityOverhead3& o) {
    Activity a;
    a.kind = ActivityKind::Overhead;
    a.start_ns = relative(o.start);
    a.end_ns = relative(o.end);
    a.correlation = o.correlationId;
    std::int64_t process = 0;
    std::int64_t thread = 0;
    if (is_process_or_thread(bits_of(o.objectKind))) {
        process = o.objectId.pt.processId;
        thread = o.objectId.pt.threadId;
    }
    a.lane = lanes_.host_thread(process, thread);
    a.name = trace_.strings.intern(overhead_name(bits_of(o.overheadKind)));
    trace_.activities.push_back(a);
}

void CuptiActivityDecoder::decode_device(const CUpti_ActivityDevice5& d) {
    const std::string prefix = "device." + std::to_string(d.id) + ".";
    trace_.metadata[prefix + "name"] = d.name != nullptr ? d.name : "";
    trace_.metadata[prefix + "compute_capability"] =
        std::to_string(d.computeCapabilityMajor) + "." + std::to_string(d.computeCapabilityMinor);
    trace_.metadata[prefix + "multiprocessors"] = std::to_string(d.numMultiprocessors);
    trace_.metadata[prefix + "global_memory_bytes"] = std::to_string(d.globalMemorySize);
}

void CuptiActivityDecoder::decode_context(const CUpti_ActivityContext3& c) {
    device_of_context_[c.contextId] = static_cast<std::int32_t>(c.deviceId);
}

void CuptiActivityDecoder::finish(std::int64_t end_ns) {
    for (const UnplacedSync& sync : unplaced_syncs_) {
        const auto device = device_of_context_.find(sync.context);
        Activity& a = trace_.activities[sync.activity];
        a.device = device != device_of_context_.end() ? device->second : -1;
        a.lane = lanes_.gpu_stream(a.device, sync.stream);
    }
    unplaced_syncs_.clear();
    for (const auto& [id, open] : open_markers_) {
        Activity a;
        a.kind = ActivityKind::NvtxRange;
        a.start_ns = open.start_ns;
        a.end_ns = relative(static_cast<std::uint64_t>(end_ns));
        a.name = open.name;
        a.lane = open.lane;
        trace_.activities.push_back(a);
    }
    open_markers_.clear();
    lanes_.finish();
    assign_nesting_depths(trace_);
}

}  // namespace trainscope::profiler
