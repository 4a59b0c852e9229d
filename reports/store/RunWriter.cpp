#include "reports/store/RunWriter.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <cmath>
#include <ctime>

#include "reports/metrics/MetricCatalog.hpp"
#include "reports/store/TraceStore.hpp"
#include "reports/trace/TraceMetrics.hpp"

namespace trainscope::reports {

namespace {
std::string utc_now() {
    return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::time(nullptr)));
}

void write_axes_row(const ResultsDatabase& db, const RunRecord& run) {
    auto insert = db.prepare(
        "INSERT INTO runs (matrix_id, cell_key, status, error, source, started_utc, "
        "finished_utc, model, model_params, dataset, precision, batch, optimizer, learning_rate, "
        "backend, device, allocator, host_memory, transfer, placement, activations, cuda_graph, "
        "trace_level, threads, seed, emulated, ranks, bucket_mb, overlap, framework) VALUES (?1, "
        "?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, "
        "?21, ?22, ?23, ?24, ?25, ?26, ?27, ?28, ?29, ?30)");
    const RunAxes& a = run.axes;
    insert.bind(1, run.matrix_id)
        .bind(2, run.cell_key)
        .bind(3, to_string(run.status))
        .bind(4, run.error)
        .bind(5, run.source)
        .bind(6, run.started_utc)
        .bind(7, run.finished_utc.empty() ? utc_now() : run.finished_utc)
        .bind(8, a.model)
        .bind(9, a.model_params)
        .bind(10, a.dataset)
        .bind(11, a.precision)
        .bind(12, a.batch)
        .bind(13, a.optimizer)
        .bind(14, a.learning_rate)
        .bind(15, a.backend)
        .bind(16, a.device)
        .bind(17, a.allocator)
        .bind(18, a.host_memory)
        .bind(19, a.transfer)
        .bind(20, a.placement)
        .bind(21, a.activations)
        .bind(22, a.cuda_graph)
        .bind(23, a.trace_level)
        .bind(24, a.threads)
        .bind(25, a.seed)
        .bind(26, run.emulated ? 1 : 0)
        .bind(27, a.ranks.value_or(1))
        .bind(28, a.bucket_mb)
        .bind(29, a.overlap)
        .bind(30, a.framework);
    insert.run();
}
void write_memory_peak(const ResultsDatabase& db, std::int64_t run_id, const MemoryPeak& peak) {
    db.prepare(
          "INSERT INTO memory_peaks (run_id, rank, t_ns, phase, op) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(1, run_id)
        .bind(2, peak.rank)
        .bind(3, peak.t_ns)
        .bind(4, peak.phase)
        .bind(5, peak.op)
        .run();
    auto classes = db.prepare(
        "INSERT INTO memory_peak_classes (run_id, rank, position, class, bytes_at_peak, "
        "max_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    for (std::size_t i = 0; i < peak.classes.size(); ++i) {
        const ClassPeak& c = peak.classes[i];
        classes.bind(1, run_id)
            .bind(2, peak.rank)
            .bind(3, static_cast<std::int64_t>(i))
            .bind(4, c.tensor_class)
            .bind(5, c.bytes_at_peak)
            .bind(6, c.max_bytes)
            .run();
    }
}

// Trace rows carry no foreign key (they are bulk rows written without index upkeep), so
// they are deleted by hand; the rest follows the run through ON DELETE CASCADE.
void delete_run_rows(const ResultsDatabase& db, std::int64_t run_id) {
    auto range =
        db.prepare("SELECT first_activity, last_activity FROM trace_info WHERE run_id = ?1");
    range.bind(1, run_id);
    if (range.step() && !range.is_null(0)) {
        const auto first = range.column_int64(0);
        const auto last = range.column_int64(1);
        range.reset();
        db.prepare("DELETE FROM activities WHERE rowid BETWEEN ?1 AND ?2")
            .bind(1, first)
            .bind(2, last)
            .run();
    } else {
        range.reset();
    }
    db.prepare("DELETE FROM counters WHERE run_id = ?1").bind(1, run_id).run();
    db.prepare("DELETE FROM runs WHERE id = ?1").bind(1, run_id).run();
}
}  // namespace

std::int64_t RunWriter::create_matrix(const MatrixInfo& info) {
    Transaction tx(db_);
    const std::int64_t matrix_id = insert_matrix(info);
    tx.commit();
    return matrix_id;
}

std::int64_t RunWriter::create_matrix_with_runs(const MatrixInfo& info, std::span<RunRecord> runs) {
    Transaction tx(db_);
    const std::int64_t matrix_id = insert_matrix(info);
    for (RunRecord& run : runs) {
        run.matrix_id = matrix_id;
        run.id = insert_run(run);
    }
    tx.commit();
    return matrix_id;
}

std::int64_t RunWriter::insert_matrix(const MatrixInfo& info) {
    db_.prepare(
           "INSERT INTO matrices (name, created_utc, definition, trainscope_version, "
           "git_revision) VALUES (?1, ?2, ?3, ?4, ?5)")
        .bind(1, info.name)
        .bind(2, utc_now())
        .bind(3, info.definition)
        .bind(4, info.trainscope_version)
        .bind(5, info.git_revision)
        .run();
    return db_.last_insert_rowid();
}

std::int64_t RunWriter::write(const RunRecord& run) {
    return replace(run, {});
}

std::int64_t RunWriter::replace(const RunRecord& run,
                                const std::vector<std::int64_t>& superseded_run_ids) {
    Transaction tx(db_);
    const std::int64_t run_id = write_rows(run, superseded_run_ids);
    tx.commit();
    return run_id;
}

std::vector<std::int64_t> RunWriter::replace_all(const std::vector<Replacement>& replacements) {
    Transaction tx(db_);
    std::vector<std::int64_t> ids;
    for (const auto& r : replacements)
        ids.push_back(write_rows(r.run, r.superseded_run_ids));
    tx.commit();
    return ids;
}

std::int64_t RunWriter::write_rows(const RunRecord& run,
                                   const std::vector<std::int64_t>& superseded_run_ids) {
    for (const auto old_id : superseded_run_ids)
        delete_run_rows(db_, old_id);
    return insert_run(run);
}

std::int64_t RunWriter::insert_run(const RunRecord& run) {
    write_axes_row(db_, run);
    const std::int64_t run_id = db_.last_insert_rowid();

    auto env = db_.prepare("INSERT INTO environment (run_id, key, value) VALUES (?1, ?2, ?3)");
    for (const auto& [key, value] : run.environment) {
        env.bind(1, run_id).bind(2, key).bind(3, value).run();
    }
    // A streamed trace is written first: its metrics are known once it has passed.
    std::vector<Metric> trace_metrics;
    if (run.streamed_trace) {
        profiler::StreamedTrace& trace = *run.streamed_trace;
        TraceMetricsAccumulator metrics(trace.header.strings, trace.header.lanes,
                                        !trace.has_gpu_work);
        write_streamed_trace(db_, run_id, trace,
                             [&metrics](const profiler::Activity& a) { metrics.add(a); });
        trace_metrics = std::move(metrics).finish(trace.header.dropped_records);
    }
    auto metric =
        db_.prepare("INSERT INTO metrics (run_id, name, value, unit) VALUES (?1, ?2, ?3, ?4)");
    std::vector<const Metric*> all;
    for (const auto& m : run.metrics)
        all.push_back(&m);
    for (const auto& m : trace_metrics)
        all.push_back(&m);
    for (const Metric* each : all) {
        const Metric& m = *each;
        // A diverged run's loss is NaN: stored as NULL, never as a number.
        metric.bind(1, run_id).bind(2, m.name).bind(4, metric_unit(m.name, m.unit));
        if (std::isnan(m.value))
            metric.bind_null(3);
        else
            metric.bind(3, m.value);
        metric.run();
    }
    auto step = db_.prepare(
        "INSERT INTO steps (run_id, step, epoch, duration_ns, loss, loss_scale, skipped, warmup, "
        "data_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    for (const auto& s : run.steps) {
        step.bind(1, run_id)
            .bind(2, s.step)
            .bind(3, s.epoch)
            .bind(4, s.duration_ns)
            .bind(5, s.loss)
            .bind(6, s.loss_scale)
            .bind(7, s.skipped ? 1 : 0)
            .bind(8, s.warmup ? 1 : 0)
            .bind(9, s.data_ns)
            .run();
    }
    auto eval = db_.prepare(
        "INSERT INTO evaluations (run_id, after_step, epoch, train_time_ns, test_accuracy, "
        "test_loss) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    for (const auto& e : run.evaluations) {
        eval.bind(1, run_id)
            .bind(2, e.after_step)
            .bind(3, e.epoch)
            .bind(4, e.train_time_ns)
            .bind(5, e.test_accuracy)
            .bind(6, e.test_loss)
            .run();
    }
    if (run.memory_peak)
        write_memory_peak(db_, run_id, *run.memory_peak);
    for (const MemoryPeak& peak : run.other_rank_memory_peaks)
        write_memory_peak(db_, run_id, peak);
    if (run.trace) {
        write_trace(db_, run_id, *run.trace);
    }
    return run_id;
}

}  // namespace trainscope::reports
