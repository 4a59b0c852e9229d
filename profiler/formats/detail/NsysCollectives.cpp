#include "profiler/formats/detail/NsysCollectives.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "profiler/analysis/KernelCategory.hpp"
#include "profiler/formats/detail/KinetoCollectives.hpp"
#include "profiler/formats/detail/NsysGlobalTid.hpp"

namespace trainscope::profiler::detail {

namespace {

// NVTX_EVENTS.eventType of push/pop and start/end ranges (as NsysSqliteImporter reads).
constexpr const char* kRangeTypes = "59, 60";

bool has_column(const SqliteConnection& db, std::string_view table, std::string_view column) {
    SqliteStatement q = db.prepare("SELECT name FROM pragma_table_info(?1)");
    q.bind(1, std::string(table));
    while (q.step()) {
        if (q.column_text(0) == column)
            return true;
    }
    return false;
}

// The text after `"key":` in a flat JSON object, unquoted; "" when the key is not there.
// NCCL's payload holds numbers and short strings only, so no JSON parser is needed.
std::string_view json_value(std::string_view json, std::string_view key) {
    const std::string quoted = "\"" + std::string(key) + "\"";
    auto at = json.find(quoted);
    if (at == std::string_view::npos)
        return {};
    at = json.find(':', at + quoted.size());
    if (at == std::string_view::npos)
        return {};
    std::size_t begin = json.find_first_not_of(" \t\r\n", at + 1);
    if (begin == std::string_view::npos)
        return {};
    if (json[begin] == '"') {
        const auto end = json.find('"', begin + 1);
        return end == std::string_view::npos ? std::string_view{}
                                             : json.substr(begin + 1, end - begin - 1);
    }
    const auto end = json.find_first_of(",}] \t\r\n", begin);
    return json.substr(begin, end == std::string_view::npos ? end : end - begin);
}

std::int64_t json_integer(std::string_view json, std::string_view key) {
    const std::string_view text = json_value(json, key);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc{} && end == text.data() + text.size() && value > 0 ? value : 0;
}

// Kinds whose NCCL message size is the whole message, the nccl-tests size.
bool message_is_whole(CollectiveKind kind) {
    switch (kind) {
        case CollectiveKind::AllReduce:
        case CollectiveKind::Broadcast:
        case CollectiveKind::Reduce:
        case CollectiveKind::Send:
        case CollectiveKind::Recv:
            return true;
        default:
            return false;
    }
}

using ThreadKey = std::pair<std::int64_t, std::int64_t>;  // process, thread

// The innermost range of the thread that holds time t; null when none.
const NcclApiRange* range_holding(const std::vector<const NcclApiRange*>& ranges, std::int64_t t) {
    auto it =
        std::upper_bound(ranges.begin(), ranges.end(), t,
                         [](std::int64_t v, const NcclApiRange* r) { return v < r->start_ns; });
    while (it != ranges.begin()) {
        --it;
        if ((*it)->end_ns >= t)
            return *it;  // the latest start at or before t that still holds t
    }
    return nullptr;
}

}  // namespace

std::vector<NcclApiRange> read_nccl_api_ranges(const SqliteConnection& db) {
    std::vector<NcclApiRange> ranges;
    if (!db.table_exists("NVTX_EVENTS"))
        return ranges;
    std::string json = "''";
    if (has_column(db, "NVTX_EVENTS", "jsonText") && has_column(db, "NVTX_EVENTS", "jsonTextId"))
        json = "COALESCE(n.jsonText, j.value, '')";
    else if (has_column(db, "NVTX_EVENTS", "jsonText"))
        json = "COALESCE(n.jsonText, '')";
    const bool json_ids = json.find("j.value") != std::string::npos;
    SqliteStatement q =
        db.prepare("SELECT n.start, n.end, n.globalTid, COALESCE(n.text, s.value, ''), " + json +
                   " FROM NVTX_EVENTS n LEFT JOIN StringIds s ON s.id = n.textId " +
                   (json_ids ? "LEFT JOIN StringIds j ON j.id = n.jsonTextId " : "") +
                   "WHERE n.end IS NOT NULL AND n.eventType IN (" + kRangeTypes +
                   ") AND COALESCE(n.text, s.value, '') LIKE 'nccl%'");
    while (q.step()) {
        NcclApiRange r;
        r.start_ns = q.column_int64(0);
        r.end_ns = q.column_int64(1);
        const NsysThread t = decode_global_tid(q.column_int64(2));
        r.process = t.process;
        r.thread = t.thread;
        r.name = q.column_text(3);
        const std::string payload = q.column_text(4);
        r.bytes = json_integer(payload, "Message size [bytes]");
        r.communicator = std::string(json_value(payload, "NCCL communicator ID"));
        ranges.push_back(std::move(r));
    }
    return ranges;
}

void NsysCollectiveJoin::see(const Activity& a, std::int64_t origin_ns, const Trace& trace) {
    if (communication_.is_communication_kernel(a, trace.strings)) {
        kernels_.push_back({a.correlation, a.start_ns, a.end_ns, a.name, a.lane});
        return;
    }
    if (!communication_.launches_communication(a) || launches_.count(a.correlation) != 0)
        return;
    const Lane& lane = trace.lanes.at(a.lane);
    launches_.emplace(a.correlation,
                      Launch{lane.process, lane.stream_or_thread, a.start_ns + origin_ns});
}

void NsysCollectiveJoin::finish(Trace& trace) const {
    std::map<ThreadKey, std::vector<const NcclApiRange*>> by_thread;
    for (const NcclApiRange& r : ranges_)
        by_thread[{r.process, r.thread}].push_back(&r);
    for (auto& [key, list] : by_thread) {
        std::sort(list.begin(), list.end(), [](const NcclApiRange* a, const NcclApiRange* b) {
            return a->start_ns < b->start_ns;
        });
    }
    for (const Kernel& kernel : kernels_) {
        const std::string name(trace.strings.at(kernel.name));
        const NcclApiRange* call = nullptr;
        if (const auto launch = launches_.find(kernel.correlation); launch != launches_.end()) {
            if (const auto thread = by_thread.find({launch->second.process, launch->second.thread});
                thread != by_thread.end())
                call = range_holding(thread->second, launch->second.start_ns);
        }
        std::optional<CollectiveKind> kind = collective_kind_from_name(name);
        if (!kind && call != nullptr)
            kind = collective_kind_from_name(call->name);
        const std::string dtype = dtype_from_kernel_name(name);
        CollectiveCall c;
        c.start_ns = kernel.start_ns;
        c.end_ns = kernel.end_ns;
        c.lane = kernel.lane;
        c.kind = kind.value_or(CollectiveKind::Other);
        c.dtype = trace.strings.intern(dtype);
        if (call != nullptr) {
            if (message_is_whole(c.kind))
                c.bytes = call->bytes;
            if (!call->communicator.empty())
                c.group = trace.strings.intern("nccl communicator " + call->communicator);
        }
        const std::int64_t element = dtype_size_bytes(dtype);
        if (c.bytes > 0 && element > 0)
            c.elements = c.bytes / element;
        trace.collectives.push_back(c);
    }
}

}  // namespace trainscope::profiler::detail
