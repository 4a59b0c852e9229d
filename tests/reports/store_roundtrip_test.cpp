#include <gtest/gtest.h>

#include <cmath>

#include "SampleRun.hpp"
#include "SchemaVersionThree.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"

namespace trainscope::reports {
namespace {

RunParts everything() {
    return RunParts{true, true, true, true, true};
}

TEST(ResultsStore, RoundTripsAnOpsFlopsAndMinimumBytes) {
    testing::TempDir dir;
    const auto path = dir / "results.db";
    RunRecord original = testing::sample_run();
    original.trace->activities[0].flops = 1.5e9;  // exact: a REAL column
    original.trace->activities[0].bytes = 3136;
    std::int64_t id = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        RunWriter writer(db);
        original.matrix_id = writer.create_matrix({"m", "trainscope run", "0.1.0", "abc"});
        id = writer.write(original);
    }
    const ResultsDatabase db(path, OpenMode::ReadOnly);
    const RunRecord back = load_run(db, id, RunParts{false, false, false, false, true});
    ASSERT_TRUE(back.trace.has_value());
    EXPECT_EQ(back.trace->activities[0].flops, 1.5e9);
    EXPECT_EQ(back.trace->activities[0].bytes, 3136);
    EXPECT_EQ(back.trace->activities[1].flops, 0.0);
}

TEST(ResultsStore, RoundTripsEveryPartOfARun) {
    testing::TempDir dir;
    const auto path = dir / "results.db";
    const RunRecord original = testing::sample_run();
    std::int64_t id = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        RunWriter writer(db);
        RunRecord run = original;
        run.matrix_id = writer.create_matrix({"test", "trainscope run --batch 64", "0.1.0", "abc"});
        id = writer.write(run);
    }
    ResultsDatabase db(path, OpenMode::ReadOnly);
    const RunRecord back = load_run(db, id, everything());
    EXPECT_EQ(back.cell_key, original.cell_key);
    EXPECT_EQ(back.status, RunStatus::Ok);
    EXPECT_EQ(back.axes.model, "seed-cnn");
    EXPECT_EQ(back.axes.batch, 64);
    EXPECT_EQ(back.axes.learning_rate, 0.001);
    EXPECT_EQ(back.axes.threads, 2);
    EXPECT_EQ(back.axes.host_memory, "n/a");
    EXPECT_EQ(back.environment, original.environment);
    ASSERT_EQ(back.metrics.size(), original.metrics.size());
    ASSERT_NE(back.find_metric("images_per_s"), nullptr);
    EXPECT_EQ(back.find_metric("images_per_s")->value, 12345.678901234);  // exact, not rounded
    EXPECT_EQ(back.find_metric("images_per_s")->unit, "images/s");
    ASSERT_EQ(back.steps.size(), 10u);
    EXPECT_EQ(back.steps[3].duration_ns, 5'003'000);
    EXPECT_EQ(back.steps[3].loss, original.steps[3].loss);
    EXPECT_TRUE(back.steps[1].warmup);
    EXPECT_FALSE(back.steps[2].warmup);
    ASSERT_EQ(back.evaluations.size(), 1u);
    EXPECT_EQ(back.evaluations[0].test_accuracy, 0.8512);

    ASSERT_TRUE(back.trace.has_value());
    const profiler::Trace& t = *back.trace;
    EXPECT_EQ(t.base_ns, 1'000'000'000);
    EXPECT_EQ(t.dropped_records, 3);
    EXPECT_EQ(t.source_clock_offset_ns, 1'700'000'000'000'000'000);
    EXPECT_EQ(t.metadata.at("source"), "test");
    ASSERT_EQ(t.lanes.size(), 2u);
    EXPECT_EQ(t.lanes[0].stream_or_thread, 7);
    ASSERT_EQ(t.activities.size(), 2u);
    const profiler::Activity& k = t.activities[1];
    EXPECT_EQ(t.strings.at(k.name), "implicit_convolve_sgemm, \"quoted\"");
    EXPECT_EQ(k.start_ns, 200);
    EXPECT_EQ(k.grid[0], 128);
    EXPECT_EQ(k.block[0], 256);
    EXPECT_EQ(k.registers_per_thread, 64);
    EXPECT_EQ(k.shared_memory_bytes, 4096);
    EXPECT_EQ(k.correlation, 9u);
    ASSERT_EQ(t.counters.size(), 1u);
    EXPECT_EQ(t.counters[0].samples.size(), 2u);
    EXPECT_EQ(t.counters[0].samples[1].value, 95.5);
}

TEST(ResultsStore, TracesOfSeveralRunsStayApart) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    RunWriter writer(db);
    RunRecord a = testing::sample_run();
    RunRecord b = testing::sample_run();
    b.trace->activities.pop_back();
    const auto id_a = writer.write(a);
    const auto id_b = writer.write(b);
    EXPECT_EQ(load_trace(db, id_a)->activities.size(), 2u);
    EXPECT_EQ(load_trace(db, id_b)->activities.size(), 1u);
    RunRecord no_trace = testing::sample_run();
    no_trace.trace.reset();
    EXPECT_FALSE(load_trace(db, writer.write(no_trace)).has_value());
}

TEST(ResultsStore, AnUncommittedRunLeavesNothing) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    {
        Transaction tx(db);
        db.exec("INSERT INTO runs (status) VALUES ('ok')");
        // no commit: as if the writer threw half-way
    }
    EXPECT_TRUE(load_runs(db, {}, {}).empty());
    EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(ResultsStore, ATransactionInsideAnotherIsPartOfIt) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    {
        Transaction outer(db);
        db.exec("INSERT INTO runs (status) VALUES ('ok')");
        {
            Transaction inner(db);
            db.exec("INSERT INTO runs (status) VALUES ('ok')");
            // no commit: only the inner write goes
        }
        EXPECT_EQ(load_runs(db, {}, {}).size(), 1U);
        {
            Transaction inner(db);
            db.exec("INSERT INTO runs (status) VALUES ('ok')");
            inner.commit();
        }
        // no commit of the outer one: the inner commit goes with it
    }
    EXPECT_TRUE(load_runs(db, {}, {}).empty());
    {
        Transaction outer(db);
        {
            Transaction inner(db);
            db.exec("INSERT INTO runs (status) VALUES ('ok')");
            inner.commit();
        }
        outer.commit();
    }
    EXPECT_EQ(load_runs(db, {}, {}).size(), 1U);
    EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(ResultsStore, ResumeSeesOnlyOkCells) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    RunWriter writer(db);
    const auto matrix = writer.create_matrix({"m", "", "", ""});
    RunRecord ok = testing::sample_run();
    ok.matrix_id = matrix;
    ok.cell_key = "a";
    RunRecord failed = ok;
    failed.cell_key = "b";
    failed.status = RunStatus::Failed;
    failed.error = "crashed";
    writer.write(ok);
    writer.write(failed);
    EXPECT_EQ(ok_cell_keys(db, matrix), (std::set<std::string>{"a"}));
    const auto runs = load_runs(db, {matrix, {}}, {});
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1].error, "crashed");
}

}  // namespace
}  // namespace trainscope::reports

namespace trainscope::reports {
namespace {

// A results database written before steps had a data time (schema version 1): the
// results users already have stay readable, and a writer upgrades the file in place.
TEST(ResultsStoreVersions, AVersionOneFileIsReadAndUpgradedByAWriter) {
    testing::TempDir dir;
    const auto path = dir / "v1.db";
    std::int64_t id = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        RunWriter writer(db);
        RunRecord run = testing::sample_run();
        run.matrix_id = writer.create_matrix({"old", "trainscope run", "0.1.0", "abc"});
        id = writer.write(run);
        // What version 1 looked like (without version 3's ranks, too).
        db.exec("ALTER TABLE steps DROP COLUMN data_ns");
        db.exec("ALTER TABLE lanes DROP COLUMN rank");
        db.exec("ALTER TABLE trace_info DROP COLUMN world_size");
        db.exec("DROP TABLE collectives");
        testing::drop_version_four(db);
        db.exec("ALTER TABLE runs DROP COLUMN ranks");
        db.exec("ALTER TABLE runs DROP COLUMN bucket_mb");
        db.exec("ALTER TABLE runs DROP COLUMN overlap");
        db.exec("ALTER TABLE runs DROP COLUMN framework");
        db.exec("UPDATE schema_version SET version = 1");
    }
    {
        ResultsDatabase db(path, OpenMode::ReadOnly);
        EXPECT_EQ(db.schema_version(), 1);
        const RunRecord back = load_run(db, id, RunParts{true, true, true, true, true});
        EXPECT_EQ(back.axes.framework, "trainscope") << "every run then was trainscope's own";
        ASSERT_FALSE(back.steps.empty());
        for (const StepRow& s : back.steps)
            EXPECT_FALSE(s.data_ns.has_value()) << "no data time was recorded then";
    }
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        EXPECT_EQ(db.schema_version(), kSchemaVersion);
        RunWriter writer(db);
        RunRecord run = testing::sample_run();
        run.matrix_id = writer.create_matrix({"new", "trainscope run", "0.1.0", "abc"});
        run.steps.front().data_ns = 1234;
        const std::int64_t added = writer.write(run);
        EXPECT_EQ(
            load_run(db, added, RunParts{false, false, true, false, false}).steps.front().data_ns,
            1234);
        EXPECT_EQ(load_run(db, id, RunParts{true, true, true, true, true}).cell_key,
                  testing::sample_run().cell_key);
        EXPECT_EQ(load_run(db, id, RunParts{false, false, false, false, false}).axes.framework,
                  "trainscope")
            << "the upgrade marks the runs before the framework axis as trainscope's";
        EXPECT_EQ(db.integrity_check(), "ok");
    }
    ResultsDatabase db(path, OpenMode::ReadOnly);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
}

// A distributed job's trace: every lane keeps its rank, the world size and every
// collective come back as written.
TEST(ResultsStore, RoundTripsTheRanksAndCollectivesOfAJob) {
    testing::TempDir dir;
    ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
    RunWriter writer(db);
    RunRecord run = testing::sample_run();
    profiler::Trace& trace = *run.trace;
    trace.world_size = 2;
    profiler::Lane comm = trace.lanes.front();
    comm.kind = profiler::LaneKind::Communication;
    comm.rank = 1;
    const auto comm_lane = trace.add_lane(comm);
    profiler::CollectiveCall call;
    call.start_ns = 100;
    call.end_ns = 350;
    call.sequence = 41;
    call.elements = 1024;
    call.bytes = 8192;
    call.rank = 1;
    call.group_size = 2;
    call.lane = comm_lane;
    call.group = trace.strings.intern("world");
    call.dtype = trace.strings.intern("double");
    call.kind = profiler::CollectiveKind::AllReduce;
    trace.collectives.push_back(call);
    const auto id = writer.write(run);
    const auto back = load_trace(db, id);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->world_size, 2);
    ASSERT_EQ(back->lanes.size(), trace.lanes.size());
    EXPECT_EQ(back->lanes[comm_lane].rank, 1);
    EXPECT_EQ(back->lanes[comm_lane].kind, profiler::LaneKind::Communication);
    EXPECT_EQ(back->lanes[0].rank, 0);
    ASSERT_EQ(back->collectives.size(), 1u);
    const profiler::CollectiveCall& c = back->collectives[0];
    EXPECT_EQ(c.kind, profiler::CollectiveKind::AllReduce);
    EXPECT_EQ(c.sequence, 41);
    EXPECT_EQ(c.elements, 1024);
    EXPECT_EQ(c.bytes, 8192);
    EXPECT_EQ(c.end_ns - c.start_ns, 250);
    EXPECT_EQ(c.group_size, 2);
    EXPECT_EQ(c.lane, comm_lane);
    EXPECT_EQ(back->strings.at(c.group), "world");
    EXPECT_EQ(back->strings.at(c.dtype), "double");
    // Deleting the run takes its collectives with it.
    db.exec("PRAGMA foreign_keys = ON");
    db.prepare("DELETE FROM runs WHERE id = ?1").bind(1, id).run();
    auto left = db.prepare("SELECT count(*) FROM collectives");
    ASSERT_TRUE(left.step());
    EXPECT_EQ(left.column_int64(0), 0);
}

// A file of version 2 (before distributed traces) reads as one rank with no collectives,
// and a writer upgrades it so that a job's trace can be added.
TEST(ResultsStoreVersions, AVersionTwoFileReadsAsOneRankAndIsUpgradedByAWriter) {
    testing::TempDir dir;
    const auto path = dir / "v2.db";
    std::int64_t id = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        RunWriter writer(db);
        id = writer.write(testing::sample_run());
        db.exec("ALTER TABLE lanes DROP COLUMN rank");
        db.exec("ALTER TABLE trace_info DROP COLUMN world_size");
        db.exec("DROP TABLE collectives");
        testing::drop_version_four(db);
        db.exec("ALTER TABLE runs DROP COLUMN ranks");
        db.exec("ALTER TABLE runs DROP COLUMN bucket_mb");
        db.exec("ALTER TABLE runs DROP COLUMN overlap");
        db.exec("ALTER TABLE runs DROP COLUMN framework");
        db.exec("UPDATE schema_version SET version = 2");
    }
    {
        ResultsDatabase db(path, OpenMode::ReadOnly);
        EXPECT_EQ(db.schema_version(), 2);
        const auto trace = load_trace(db, id);
        ASSERT_TRUE(trace.has_value());
        EXPECT_EQ(trace->world_size, 1);
        EXPECT_TRUE(trace->collectives.empty());
        for (const auto& lane : trace->lanes)
            EXPECT_EQ(lane.rank, 0);  // Runs of a version-2 file were single-rank runs.
        EXPECT_EQ(load_run(db, id, RunParts{}).axes.ranks.value_or(0), 1);
    }
    ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    RunRecord run = testing::sample_run();
    run.trace->world_size = 4;
    run.trace->lanes.back().rank = 3;
    run.axes.ranks = 4;
    const auto added = RunWriter(db).write(run);
    const auto back = load_trace(db, added);
    EXPECT_EQ(back->world_size, 4);
    EXPECT_EQ(load_run(db, added, RunParts{}).axes.ranks.value_or(0), 4);
    EXPECT_EQ(back->lanes.back().rank, 3);
    EXPECT_EQ(load_trace(db, id)->world_size, 1);
    EXPECT_EQ(db.integrity_check(), "ok");
}

TEST(ResultsStoreVersions, ANewerFileIsRefusedNamingBothVersions) {
    testing::TempDir dir;
    const auto path = dir / "future.db";
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        db.exec("UPDATE schema_version SET version = 99");
    }
    try {
        ResultsDatabase db(path, OpenMode::ReadOnly);
        FAIL() << "a version 99 file was opened";
    } catch (const StoreError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("schema version 99"), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(kSchemaVersion)), std::string::npos) << message;
    }
}

TEST(ResultsStore, MatrixAndItsFirstRunsAreOneTransaction) {
    // A failure while writing the runs (here a duplicate step, as a kill -9 would stop it
    // half way) leaves no matrix row without runs behind.
    testing::TempDir dir;
    const ResultsDatabase db(dir / "results.db", OpenMode::CreateOrOpen);
    RunRecord good;
    good.cell_key = "a";
    RunRecord broken;
    broken.cell_key = "b";
    StepRow step;
    step.step = 1;
    broken.steps = {step, step};
    std::vector<RunRecord> runs{good, broken};
    EXPECT_THROW(RunWriter(db).create_matrix_with_runs({"import", "", "", ""}, runs), SqliteError);
    EXPECT_TRUE(list_matrices(db).empty());
    EXPECT_TRUE(load_runs(db, {}, {}).empty());

    std::vector<RunRecord> fine{good, good};
    const auto matrix = RunWriter(db).create_matrix_with_runs({"import", "", "", ""}, fine);
    EXPECT_EQ(list_matrices(db).size(), 1u);
    EXPECT_EQ(fine[1].matrix_id, matrix);
    EXPECT_GT(fine[1].id, fine[0].id);
}

TEST(ResultsStore, NanMetricIsStoredAsNullAndReadBackAsNan) {
    testing::TempDir dir;
    const ResultsDatabase db(dir / "results.db", OpenMode::CreateOrOpen);
    RunRecord run;
    run.metrics = {{"final_loss", std::nan(""), ""}, {"test_accuracy", 0.1, ""}};
    const auto id = RunWriter(db).write(run);
    auto q = db.prepare("SELECT count(*) FROM metrics WHERE run_id = ?1 AND value IS NULL");
    q.bind(1, id);
    ASSERT_TRUE(q.step());
    EXPECT_EQ(q.column_int64(0), 1);
    q.reset();
    const auto back = load_runs(db, {}, RunParts{});
    ASSERT_EQ(back.size(), 1u);
    ASSERT_NE(back[0].find_metric("final_loss"), nullptr);
    EXPECT_TRUE(std::isnan(back[0].find_metric("final_loss")->value));
    EXPECT_EQ(back[0].find_metric("test_accuracy")->value, 0.1);
}

// A run's memory peak by tensor class comes back whole, with its moment and op; a run
// without one reads none, and a version 3 file (before the tables) gains them on upgrade.
TEST(ResultsStore, RoundTripsTheMemoryPeakByTensorClass) {
    testing::TempDir dir;
    const auto path = dir / "memory.db";
    std::int64_t with_peak = 0;
    std::int64_t without = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        RunWriter writer(db);
        RunRecord run = testing::sample_run();
        MemoryPeak peak;
        peak.classes = {{"weights", 400, 400}, {"activations", 6000, 7000}, {"other", 0, 0}};
        peak.t_ns = 123456;
        peak.phase = "forward";
        peak.op = "conv_fwd";
        run.memory_peak = peak;
        with_peak = writer.write(run);
        without = writer.write(testing::sample_run());
        testing::drop_version_four(db);
    }
    {
        ResultsDatabase db(path, OpenMode::ReadOnly);
        EXPECT_FALSE(load_run(db, with_peak, RunParts{}).memory_peak.has_value())
            << "a version 3 file has no peak tables";
    }
    ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    RunWriter writer(db);
    RunRecord run = testing::sample_run();
    MemoryPeak peak;
    peak.classes = {{"weights", 400, 400}, {"activations", 6000, 7000}, {"other", 0, 0}};
    peak.t_ns = 123456;
    peak.phase = "forward";
    peak.op = "conv_fwd";
    run.memory_peak = peak;
    const std::int64_t id = writer.write(run);
    const RunRecord back = load_run(db, id, RunParts{});
    ASSERT_TRUE(back.memory_peak.has_value());
    ASSERT_EQ(back.memory_peak->classes.size(), 3u);
    EXPECT_EQ(back.memory_peak->classes[1].tensor_class, "activations");
    EXPECT_EQ(back.memory_peak->classes[1].bytes_at_peak, 6000);
    EXPECT_EQ(back.memory_peak->classes[1].max_bytes, 7000);
    EXPECT_EQ(back.memory_peak->total_bytes(), 6400);
    EXPECT_EQ(back.memory_peak->t_ns, 123456);
    EXPECT_EQ(back.memory_peak->phase, "forward");
    EXPECT_EQ(back.memory_peak->op, "conv_fwd");
    EXPECT_FALSE(load_run(db, without, RunParts{}).memory_peak.has_value());
    // Untraced: the breakdown without a moment.
    run.memory_peak->t_ns.reset();
    const std::int64_t untraced = writer.write(run);
    EXPECT_FALSE(load_run(db, untraced, RunParts{}).memory_peak->t_ns.has_value());
    // Deleting a run (a resumed cell replaced) takes its peak along.
    writer.replace(testing::sample_run(), {id});
    EXPECT_EQ(db.integrity_check(), "ok");
    auto left = db.prepare("SELECT count(*) FROM memory_peak_classes WHERE run_id = ?1");
    left.bind(1, id);
    ASSERT_TRUE(left.step());
    EXPECT_EQ(left.column_int64(0), 0);
}

// A multi-rank run keeps each rank's memory series (same names, told apart by rank) and
// each rank's peak; a version 4 file's series and peak read as rank 0's, also after the
// upgrade to version 5.
TEST(ResultsStore, KeepsEachRanksMemorySeriesAndPeak) {
    testing::TempDir dir;
    const auto path = dir / "ranks.db";
    RunRecord run = testing::sample_run();
    for (const std::int32_t rank : {0, 1}) {
        profiler::CounterSeries series{"memory/weights", "bytes", -1, {{0, 100.0 + rank}}};
        series.rank = rank;
        run.trace->counters.push_back(series);
    }
    MemoryPeak peak;
    peak.classes = {{"weights", 400, 400}, {"activations", 6000, 7000}};
    peak.t_ns = 10;
    run.memory_peak = peak;
    peak.rank = 1;
    peak.classes[1].bytes_at_peak = 9000;
    peak.t_ns = 20;
    run.other_rank_memory_peaks.push_back(peak);
    std::int64_t id = 0;
    {
        ResultsDatabase db(path, OpenMode::CreateOrOpen);
        id = RunWriter(db).write(run);
        const RunRecord back = load_run(db, id, RunParts{true, true, false, false, true});
        ASSERT_TRUE(back.trace.has_value());
        ASSERT_EQ(back.trace->counters.size(), 3u);
        EXPECT_EQ(back.trace->counters[1].rank, 0);
        EXPECT_EQ(back.trace->counters[2].rank, 1);
        EXPECT_EQ(back.trace->counters[2].samples.front().value, 101.0);
        ASSERT_TRUE(back.memory_peak.has_value());
        EXPECT_EQ(back.memory_peak->rank, 0);
        EXPECT_EQ(back.memory_peak->total_bytes(), 6400);
        ASSERT_EQ(back.other_rank_memory_peaks.size(), 1u);
        EXPECT_EQ(back.other_rank_memory_peaks[0].rank, 1);
        EXPECT_EQ(back.other_rank_memory_peaks[0].total_bytes(), 9400);
        EXPECT_EQ(back.other_rank_memory_peaks[0].t_ns, 20);
        testing::drop_version_five(db);
    }
    const auto check_version_four = [&](const ResultsDatabase& db) {
        const RunRecord back = load_run(db, id, RunParts{true, true, false, false, true});
        ASSERT_EQ(back.trace->counters.size(), 3u);
        EXPECT_EQ(back.trace->counters[2].rank, 0);
        ASSERT_TRUE(back.memory_peak.has_value());
        EXPECT_EQ(back.memory_peak->total_bytes(), 6400);
        EXPECT_TRUE(back.other_rank_memory_peaks.empty());
    };
    {
        const ResultsDatabase db(path, OpenMode::ReadOnly);
        EXPECT_EQ(db.schema_version(), 4);
        check_version_four(db);
    }
    ResultsDatabase db(path, OpenMode::CreateOrOpen);
    EXPECT_EQ(db.schema_version(), kSchemaVersion);
    check_version_four(db);
    const std::int64_t again = RunWriter(db).write(run);
    EXPECT_EQ(load_run(db, again, RunParts{}).other_rank_memory_peaks.size(), 1u);
    EXPECT_EQ(db.integrity_check(), "ok");
}

}  // namespace
}  // namespace trainscope::reports
