#include "reports/store/RunReader.hpp"

#include <limits>
#include <string>

#include "reports/metrics/MetricCatalog.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {

namespace {
// Version 1 and 2 files (read-only, not upgraded) have no data-parallel columns, whose
// runs read as one rank, and no framework column: their runs were trained by trainscope's
// engine, or imported (which have none), as the upgrade writes it.
std::string run_columns(const ResultsDatabase& db) {
    return std::string(
               "SELECT id, matrix_id, cell_key, status, error, source, started_utc, "
               "finished_utc, model, model_params, dataset, precision, batch, optimizer, "
               "learning_rate, backend, device, allocator, host_memory, transfer, placement, "
               "activations, cuda_graph, trace_level, threads, seed, emulated, ") +
           (db.schema_version() >= 3
                ? "ranks, bucket_mb, overlap, framework"
                : "1, NULL, '', CASE WHEN source = 'trainscope' THEN 'trainscope' ELSE '' END") +
           " FROM runs";
}

std::optional<std::int64_t> optional_int(const Statement& s, int column) {
    if (s.is_null(column))
        return std::nullopt;
    return s.column_int64(column);
}

RunRecord read_run_row(const Statement& s) {
    RunRecord run;
    run.id = s.column_int64(0);
    run.matrix_id = optional_int(s, 1);
    run.cell_key = s.column_text(2);
    run.status = run_status_from_string(s.column_text(3));
    run.error = s.column_text(4);
    run.source = s.column_text(5);
    run.started_utc = s.column_text(6);
    run.finished_utc = s.column_text(7);
    RunAxes& a = run.axes;
    a.model = s.column_text(8);
    a.model_params = s.column_text(9);
    a.dataset = s.column_text(10);
    a.precision = s.column_text(11);
    a.batch = optional_int(s, 12);
    a.optimizer = s.column_text(13);
    a.learning_rate = s.column_optional_double(14);
    a.backend = s.column_text(15);
    a.device = s.column_text(16);
    a.allocator = s.column_text(17);
    a.host_memory = s.column_text(18);
    a.transfer = s.column_text(19);
    a.placement = s.column_text(20);
    a.activations = s.column_text(21);
    a.cuda_graph = s.column_text(22);
    a.trace_level = s.column_text(23);
    a.threads = optional_int(s, 24);
    a.seed = optional_int(s, 25);
    run.emulated = s.column_int64(26) != 0;
    a.ranks = optional_int(s, 27);
    a.bucket_mb = s.column_optional_double(28);
    a.overlap = s.column_text(29);
    a.framework = s.column_text(30);
    return run;
}

// Each rank's memory peak, by rank. Files before version 4 have no memory tables: their
// runs have no peak breakdown; version 4 keeps one peak per run (rank 0's).
std::vector<MemoryPeak> load_memory_peaks(const ResultsDatabase& db, std::int64_t run_id) {
    std::vector<MemoryPeak> peaks;
    if (db.schema_version() < 4)
        return peaks;
    const bool ranked = db.schema_version() >= 5;
    auto moment = db.prepare(ranked ? "SELECT t_ns, phase, op, rank FROM memory_peaks WHERE "
                                      "run_id = ?1 ORDER BY rank"
                                    : "SELECT t_ns, phase, op, 0 FROM memory_peaks WHERE "
                                      "run_id = ?1");
    moment.bind(1, run_id);
    while (moment.step()) {
        MemoryPeak peak;
        peak.t_ns = optional_int(moment, 0);
        peak.phase = moment.column_text(1);
        peak.op = moment.column_text(2);
        peak.rank = static_cast<std::int32_t>(moment.column_int64(3));
        peaks.push_back(std::move(peak));
    }
    auto classes = db.prepare(ranked ? "SELECT class, bytes_at_peak, max_bytes, rank FROM "
                                       "memory_peak_classes WHERE run_id = ?1 ORDER BY rank, "
                                       "position"
                                     : "SELECT class, bytes_at_peak, max_bytes, 0 FROM "
                                       "memory_peak_classes WHERE run_id = ?1 ORDER BY position");
    classes.bind(1, run_id);
    while (classes.step()) {
        const auto rank = static_cast<std::int32_t>(classes.column_int64(3));
        for (MemoryPeak& peak : peaks) {
            if (peak.rank == rank)
                peak.classes.push_back(
                    {classes.column_text(0), classes.column_int64(1), classes.column_int64(2)});
        }
    }
    return peaks;
}

void load_parts(const ResultsDatabase& db, RunRecord& run, const RunParts& parts) {
    if (parts.metrics) {
        auto m =
            db.prepare("SELECT name, value, unit FROM metrics WHERE run_id = ?1 ORDER BY name");
        m.bind(1, run.id);
        while (m.step()) {
            // NULL: a loss that was not a number (the run diverged); it stays NaN. The
            // unit is the catalog's, so files written before it settled (test_accuracy
            // stored as "") read as new ones do.
            std::string name = m.column_text(0);
            std::string unit(metric_unit(name, m.column_text(2)));
            run.metrics.push_back(
                {std::move(name),
                 m.column_optional_double(1).value_or(std::numeric_limits<double>::quiet_NaN()),
                 std::move(unit)});
        }
    }
    if (parts.metrics) {
        for (MemoryPeak& peak : load_memory_peaks(db, run.id)) {
            if (peak.rank == 0)
                run.memory_peak = std::move(peak);
            else
                run.other_rank_memory_peaks.push_back(std::move(peak));
        }
    }
    if (parts.environment) {
        auto e = db.prepare("SELECT key, value FROM environment WHERE run_id = ?1");
        e.bind(1, run.id);
        while (e.step())
            run.environment[e.column_text(0)] = e.column_text(1);
    }
    if (parts.steps) {
        // Version 1 files have no data_ns: their steps read it as absent.
        auto s = db.prepare(db.schema_version() >= 2
                                ? "SELECT step, epoch, duration_ns, loss, loss_scale, skipped, "
                                  "warmup, data_ns FROM steps WHERE run_id = ?1 ORDER BY step"
                                : "SELECT step, epoch, duration_ns, loss, loss_scale, skipped, "
                                  "warmup, NULL FROM steps WHERE run_id = ?1 ORDER BY step");
        s.bind(1, run.id);
        while (s.step()) {
            run.steps.push_back(StepRow{s.column_int64(0), s.column_int64(1), s.column_int64(2),
                                        s.column_optional_double(3), s.column_double(4),
                                        s.column_int64(5) != 0, s.column_int64(6) != 0});
            if (const auto data_ns = s.column_optional_double(7)) {
                run.steps.back().data_ns = static_cast<std::int64_t>(*data_ns);
            }
        }
    }
    if (parts.evaluations) {
        auto e = db.prepare(
            "SELECT after_step, epoch, train_time_ns, test_accuracy, test_loss FROM evaluations "
            "WHERE run_id = ?1 ORDER BY after_step");
        e.bind(1, run.id);
        while (e.step()) {
            run.evaluations.push_back(EvalRow{e.column_int64(0), e.column_int64(1),
                                              e.column_int64(2), e.column_optional_double(3),
                                              e.column_optional_double(4)});
        }
    }
    if (parts.trace)
        run.trace = load_trace(db, run.id);
}
}  // namespace

std::vector<MatrixRow> list_matrices(const ResultsDatabase& db) {
    auto s = db.prepare(
        "SELECT id, name, created_utc, definition, trainscope_version, git_revision FROM "
        "matrices ORDER BY id");
    std::vector<MatrixRow> rows;
    while (s.step()) {
        rows.push_back({s.column_int64(0), s.column_text(1), s.column_text(2), s.column_text(3),
                        s.column_text(4), s.column_text(5)});
    }
    return rows;
}

RunRecord load_run(const ResultsDatabase& db, std::int64_t run_id, const RunParts& parts) {
    auto s = db.prepare(run_columns(db) + " WHERE id = ?1");
    s.bind(1, run_id);
    if (!s.step()) {
        throw StoreError("run " + std::to_string(run_id) + " is not in '" + db.path().string() +
                         "': `trainscope report " + db.path().string() +
                         " --format table` lists the runs");
    }
    RunRecord run = read_run_row(s);
    load_parts(db, run, parts);
    return run;
}

std::vector<RunRecord> load_runs(const ResultsDatabase& db, const RunQuery& query,
                                 const RunParts& parts) {
    std::vector<RunRecord> runs;
    if (!query.run_ids.empty()) {
        for (auto id : query.run_ids) {
            RunRecord run = load_run(db, id, parts);
            if (query.matrix_id && run.matrix_id != query.matrix_id)
                continue;
            runs.push_back(std::move(run));
        }
        return runs;
    }
    std::string sql = run_columns(db);
    if (query.matrix_id)
        sql += " WHERE matrix_id = ?1";
    sql += " ORDER BY id";
    auto s = db.prepare(sql);
    if (query.matrix_id)
        s.bind(1, *query.matrix_id);
    while (s.step())
        runs.push_back(read_run_row(s));
    for (auto& run : runs)
        load_parts(db, run, parts);
    return runs;
}

std::vector<CellRunRow> cell_runs(const ResultsDatabase& db, std::int64_t matrix_id) {
    auto s = db.prepare("SELECT id, cell_key, status FROM runs WHERE matrix_id = ?1 ORDER BY id");
    s.bind(1, matrix_id);
    std::vector<CellRunRow> rows;
    while (s.step()) {
        rows.push_back(
            {s.column_int64(0), s.column_text(1), run_status_from_string(s.column_text(2))});
    }
    return rows;
}

std::set<std::string> ok_cell_keys(const ResultsDatabase& db, std::int64_t matrix_id) {
    auto s = db.prepare("SELECT cell_key FROM runs WHERE matrix_id = ?1 AND status = 'ok'");
    s.bind(1, matrix_id);
    std::set<std::string> keys;
    while (s.step())
        keys.insert(s.column_text(0));
    return keys;
}

}  // namespace trainscope::reports
