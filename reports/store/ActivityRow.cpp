#include "reports/store/ActivityRow.hpp"

namespace trainscope::reports::detail {

const char* activity_range_sql(int schema_version, ActivityColumns columns) {
    if (columns == ActivityColumns::analysis) {
        return schema_version >= 4
                   ? "SELECT kind, lane, start_ns, end_ns, name_id, correlation, graph_id, "
                     "device, bytes, flops, depth "
                     "FROM activities WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid"
                   : "SELECT kind, lane, start_ns, end_ns, name_id, correlation, graph_id, "
                     "device, bytes, 0.0, depth "
                     "FROM activities WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid";
    }
    return schema_version >= 4
               ? "SELECT kind, lane, start_ns, end_ns, name_id, correlation, bytes, "
                 "copy_kind, depth, grid_x, grid_y, grid_z, block_x, block_y, "
                 "block_z, registers, shared_mem_bytes, graph_id, device, flops "
                 "FROM activities WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid"
               : "SELECT kind, lane, start_ns, end_ns, name_id, correlation, bytes, "
                 "copy_kind, depth, grid_x, grid_y, grid_z, block_x, block_y, "
                 "block_z, registers, shared_mem_bytes, graph_id, device, 0.0 "
                 "FROM activities WHERE rowid BETWEEN ?1 AND ?2 ORDER BY rowid";
}

namespace {

profiler::Activity analysis_columns_from_row(const Statement& act) {
    profiler::Activity a;
    a.kind = static_cast<profiler::ActivityKind>(act.column_int64(0));
    a.lane = static_cast<profiler::LaneId>(act.column_int64(1));
    a.start_ns = act.column_int64(2);
    a.end_ns = act.column_int64(3);
    a.name = static_cast<profiler::StringId>(act.column_int64(4));
    a.correlation = static_cast<std::uint64_t>(act.column_int64(5));
    a.graph_id = static_cast<std::uint32_t>(act.column_int64(6));
    a.device = static_cast<std::int32_t>(act.column_int64(7));
    // Only an op's work is asked for (profiler::carries_op_work): a column not read is
    // one not decoded.
    if (a.kind == profiler::ActivityKind::HostOp) {
        a.bytes = act.column_int64(8);
        a.flops = static_cast<float>(act.column_double(9));
    } else if (a.kind == profiler::ActivityKind::NvtxRange) {
        a.depth = static_cast<std::uint16_t>(act.column_int64(10));  // the projected ranges'
    }
    return a;
}

}  // namespace

profiler::Activity activity_from_row(const Statement& act, ActivityColumns columns) {
    if (columns == ActivityColumns::analysis)
        return analysis_columns_from_row(act);
    const auto as_i32 = [&act](int column) {
        return static_cast<std::int32_t>(act.column_int64(column));
    };
    profiler::Activity a;
    a.kind = static_cast<profiler::ActivityKind>(act.column_int64(0));
    a.lane = static_cast<profiler::LaneId>(act.column_int64(1));
    a.start_ns = act.column_int64(2);
    a.end_ns = act.column_int64(3);
    a.name = static_cast<profiler::StringId>(act.column_int64(4));
    a.correlation = static_cast<std::uint64_t>(act.column_int64(5));
    a.bytes = act.column_int64(6);
    a.copy_kind = static_cast<profiler::CopyKind>(act.column_int64(7));
    a.depth = static_cast<std::uint16_t>(act.column_int64(8));
    a.grid = {as_i32(9), as_i32(10), as_i32(11)};
    a.block = {as_i32(12), as_i32(13), as_i32(14)};
    a.registers_per_thread = as_i32(15);
    a.shared_memory_bytes = as_i32(16);
    a.graph_id = static_cast<std::uint32_t>(act.column_int64(17));
    a.device = as_i32(18);
    a.flops = static_cast<float>(act.column_double(19));  // 0 from a file older than version 4
    return a;
}

}  // namespace trainscope::reports::detail
