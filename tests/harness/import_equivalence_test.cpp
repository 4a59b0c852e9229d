// The streamed Kineto importer (simdjson, bounded memory) must write exactly the
// database the whole-file nlohmann importer wrote: every shared trace is imported and
// each table's content is digested, in a fixed row order, and compared with digests
// taken from main's build before the change (commit 56376a6). To take them again with
// another binary:
//   TRAINSCOPE_DIGEST_CLI=/path/to/trainscope ./import_equivalence_tests
//       --gtest_also_run_disabled_tests --gtest_filter='*PrintDigests*'
// (with TRAINSCOPE_DIGEST_JOBS=1 set: the job fixtures' digests, every table).
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "CliProcess.hpp"
#include "TempDir.hpp"
#include "reports/store/LaneSummaryStore.hpp"
#include "tests/profiler/NsysNcclExport.hpp"

namespace trainscope::testing {
namespace {

const std::filesystem::path kTraces = std::filesystem::path(TRAINSCOPE_SHARED_DIR) / "traces";

// Every test here imports the shared traces: without them (a checkout with no ../shared
// beside it) they skip, saying where they looked, instead of failing.
class NeedsSharedTraces : public ::testing::Test {
  protected:
    void SetUp() override {
        if (!std::filesystem::is_directory(kTraces))
            GTEST_SKIP() << "the shared traces are not at " << kTraces.string()
                         << " (check out ../shared beside the source tree, or configure with "
                            "-DTRAINSCOPE_SHARED_DIR=<folder holding traces/>)";
    }
};

// What differs between two imports of the same file: when and by which build; and what a
// later schema added that the recorded importer could not write.
bool volatile_column(const std::string& table, const std::string& column) {
    if (table == "matrices")
        return column == "created_utc" || column == "git_revision" ||
               column == "trainscope_version";
    if (table == "activities")  // added by schema 4 for the engine's ops; imports write 0
        return column == "flops";
    // Schema 6 deflates the summaries: their records are digested unpacked (below), so
    // how they were written is not part of what was imported.
    if (table == "lane_summary_runs")
        return column == "encoding";
    return table == "runs" && (column == "started_utc" || column == "finished_utc");
}

std::uint64_t fnv1a(std::uint64_t h, const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

// "table:rows:digest;" for every table, rows in the order of all their columns; paths
// under the shared traces folder are written relative to it, and so are those under
// `inputs` (a test's own input files), as "<inputs>".
std::string digest_database(const std::filesystem::path& db_path,
                            const std::filesystem::path& inputs = {}) {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return "cannot open " + db_path.string();
    }
    const auto rows = [db](const std::string& sql) {
        std::vector<std::vector<std::string>> out;
        sqlite3_stmt* st = nullptr;
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK)
            return out;
        while (sqlite3_step(st) == SQLITE_ROW) {
            std::vector<std::string> row;
            for (int c = 0; c < sqlite3_column_count(st); ++c) {
                const int type = sqlite3_column_type(st, c);
                std::string v = type == SQLITE_NULL ? "\x01null" : std::string(1, char('0' + type));
                if (type == SQLITE_FLOAT) {
                    char text[40];
                    std::snprintf(text, sizeof text, "%.17g", sqlite3_column_double(st, c));
                    v += text;
                } else if (type != SQLITE_NULL) {
                    const auto* bytes = static_cast<const char*>(sqlite3_column_blob(st, c));
                    v.append(bytes ? bytes : "",
                             static_cast<std::size_t>(sqlite3_column_bytes(st, c)));
                }
                row.push_back(std::move(v));
            }
            out.push_back(std::move(row));
        }
        sqlite3_finalize(st);
        return out;
    };
    // The folder as the test names it (perhaps "<checkout>/../shared") and as resolved.
    const std::string traces_named = kTraces.string();
    const std::string traces = std::filesystem::canonical(kTraces).string();
    // Each run's summary encoding, for the buckets' records (packed before schema 6).
    std::map<std::string, reports::LaneSummaryEncoding> encodings;
    for (const auto& run :
         rows("SELECT run_id, encoding FROM lane_summary_runs"))  // none before schema 6
        encodings[run[0]] = static_cast<reports::LaneSummaryEncoding>(std::stoll(run[1].substr(1)));
    std::string result;
    for (const auto& table :
         rows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
        const std::string name = table[0].substr(1);
        std::string columns;
        for (const auto& column : rows("PRAGMA table_info(" + name + ")")) {
            const std::string col = column[1].substr(1);
            if (!volatile_column(name, col))
                columns += (columns.empty() ? "" : ",") + col;
        }
        std::uint64_t h = 1469598103934665603ull;
        std::size_t count = 0;
        for (auto& row : rows("SELECT " + columns + " FROM " + name + " ORDER BY " + columns)) {
            if (name == "lane_summaries") {
                // run_id, lane, depth, level, width_ns, origin_ns, bucket_count, buckets
                const auto found = encodings.find(row[0]);
                const auto encoding =
                    found == encodings.end() ? reports::LaneSummaryEncoding::Packed : found->second;
                const std::string& blob = row[7];
                const auto packed = reports::unpack_lane_summary_blob(
                    encoding,
                    std::span(reinterpret_cast<const std::byte*>(blob.data()) + 1, blob.size() - 1),
                    static_cast<std::size_t>(std::stoll(row[6].substr(1))), db_path.string());
                row[7] = blob.substr(0, 1) +
                         std::string(reinterpret_cast<const char*>(packed.data()), packed.size());
            }
            for (auto& value : row) {
                for (const std::string& folder : {traces_named, traces})
                    for (auto at = value.find(folder); at != std::string::npos;
                         at = value.find(folder, at))
                        value.replace(at, folder.size(), "<traces>");
                if (!inputs.empty()) {
                    const std::string folder = inputs.string();
                    for (auto at = value.find(folder); at != std::string::npos;
                         at = value.find(folder, at))
                        value.replace(at, folder.size(), "<inputs>");
                }
                h = fnv1a(h, value.data(), value.size());
                h = fnv1a(h, "\x1f", 1);
            }
            ++count;
        }
        char line[160];
        std::snprintf(line, sizeof line, "%s:%zu:%016llx;", name.c_str(), count,
                      static_cast<unsigned long long>(h));
        result += line;
    }
    sqlite3_close(db);
    return result;
}

struct Fixture {
    const char* label;
    const char* arguments;  // relative to the traces folder
    const char* digest;     // main's importer, commit 56376a6
};

void PrintTo(const Fixture& f, std::ostream* os) {
    *os << f.label;
}

// clang-format off
const Fixture kFixtures[] = {
#include "import_equivalence_digests.inc"
};
// clang-format on

std::string import_and_digest(const std::string& cli, const Fixture& f, const TempDir& dir) {
    const auto db = dir / (std::string(f.label) + ".db");
    std::string arguments;
    for (std::string rest = f.arguments; !rest.empty();) {
        const auto space = rest.find(' ');
        const std::string word = rest.substr(0, space);
        rest = space == std::string::npos ? "" : rest.substr(space + 1);
        arguments += " " + (word.rfind("--", 0) == 0 ? word : (kTraces / word).string());
    }
    const std::string command = cli + arguments + " -o " + db.string() + " 2>&1 >/dev/null";
    if (std::system(command.c_str()) != 0)
        return "import failed: " + command;
    return digest_database(db);
}

// The entries of `digest` for the tables that `recorded` names, schema_version left out:
// what the importer wrote then. Tables a later schema adds (summaries derived from the
// activities, checked by their own tests) and the version number are not the importer's.
std::string recorded_tables_of(const std::string& digest, const std::string& recorded) {
    std::string out;
    for (std::size_t at = 0; at < digest.size();) {
        const auto end = digest.find(';', at);
        const std::string entry = digest.substr(at, end - at + 1);
        const std::string table = entry.substr(0, entry.find(':'));
        if (table != "schema_version" && recorded.find(table + ":") != std::string::npos)
            out += entry;
        if (end == std::string::npos)
            break;
        at = end + 1;
    }
    return out;
}

std::string without_schema_version(const std::string& digest) {
    const auto at = digest.find("schema_version:");
    return at == std::string::npos ? digest
                                   : digest.substr(0, at) + digest.substr(digest.find(';', at) + 1);
}

class ImportEquivalence : public NeedsSharedTraces,
                          public ::testing::WithParamInterface<Fixture> {};

TEST_P(ImportEquivalence, DatabaseIsTheOneTheWholeFileImporterWrote) {
    TempDir dir;
    const std::string recorded = GetParam().digest;
    const std::string now =
        import_and_digest(std::string(TRAINSCOPE_CLI) + " import", GetParam(), dir);
    ASSERT_EQ(now.rfind("import failed", 0), std::string::npos) << now;
    EXPECT_EQ(recorded_tables_of(now, recorded), recorded_tables_of(recorded, recorded));
}

INSTANTIATE_TEST_SUITE_P(SharedTraces, ImportEquivalence, ::testing::ValuesIn(kFixtures),
                         [](const auto& fixture) { return std::string(fixture.param.label); });

// A distributed job's ranks merged as they stream (each rank's activities sorted on disk,
// remapped onto the job's lanes, strings and clock while they pass) against the job the
// whole-trace assembly wrote (JobAssembly over every rank's materialised trace, main at
// c0c0aea): every table, the level-of-detail summaries, metrics and rowid ranges included.
// The Nsight Systems export, alone and as a job of two ranks, streamed against what the
// whole-trace Nsight Systems importer and assembly wrote (main at 2c0948c).
// clang-format off
const Fixture kJobFixtures[] = {
#include "import_equivalence_job_digests.inc"
};
// clang-format on

class ImportEquivalenceStreamedJob : public NeedsSharedTraces,
                                     public ::testing::WithParamInterface<Fixture> {};

TEST_P(ImportEquivalenceStreamedJob, EveryTableIsTheOneTheWholeJobAssemblyWrote) {
    TempDir dir;
    const std::string recorded = GetParam().digest;
    const std::string now =
        import_and_digest(std::string(TRAINSCOPE_CLI) + " import", GetParam(), dir);
    ASSERT_EQ(now.rfind("import failed", 0), std::string::npos) << now;
    // Every table but the schema's version number, which is not the importer's.
    EXPECT_EQ(without_schema_version(now), without_schema_version(recorded));
}

INSTANTIATE_TEST_SUITE_P(SharedJobs, ImportEquivalenceStreamedJob,
                         ::testing::ValuesIn(kJobFixtures),
                         [](const auto& fixture) { return std::string(fixture.param.label); });

// The hand-made two-rank NCCL job of NsysCollectivesTest (tests/profiler/NsysNcclExport),
// imported as a job: every table, collectives included, is the one the whole-trace Nsight
// Systems importer and its NCCL join wrote (main at 2c0948c, before the streamed join).
// Taken with that commit's trainscope built on its own:
//   TRAINSCOPE_DIGEST_CLI=<2c0948c build>/bin/trainscope ./import_equivalence_tests
//       --gtest_also_run_disabled_tests --gtest_filter='*PrintNcclJobDigest*'
constexpr const char* kNcclJobDigest =
    "activities:20:7b21482ac6676f67;collectives:6:876e1f719f41492a;"
    "counter_series:0:14650fb0739d0383;counters:0:14650fb0739d0383;"
    "environment:11:28cdaeab4e54cb1d;evaluations:0:14650fb0739d0383;"
    "lane_summaries:0:14650fb0739d0383;lane_summary_runs:1:0342706b3c7c0cb5;"
    "lanes:8:46c4ba2e4cf20d8d;matrices:1:04ea92202a5833d8;"
    "memory_peak_classes:0:14650fb0739d0383;memory_peaks:0:14650fb0739d0383;"
    "metrics:7:38785e4adc8d1077;runs:1:056100e2f8b21482;"
    "schema_version:1:3fb475502096b272;steps:0:14650fb0739d0383;"
    "strings:10:8507d28ca7b32523;trace_info:1:1e071228734e3f48;"
    "trace_metadata:10:c282e0f00f01cae2;";

std::string import_nccl_job_and_digest(const std::string& cli) {
    TempDir dir;
    const auto rank0 = profiler::testing::write_rank(dir.path(), 0, 0);
    const auto rank1 = profiler::testing::write_rank(dir.path(), 1, 300);
    const auto db = dir / "nccl_job.db";
    const std::string command = cli + " import --job " + rank0.string() + " " + rank1.string() +
                                " -o " + db.string() + " 2>&1 >/dev/null";
    if (std::system(command.c_str()) != 0)
        return "import failed: " + command;
    return digest_database(db, dir.path());
}

TEST(ImportEquivalenceNcclJob, EveryTableIsTheOneTheWholeNsysJoinWrote) {
    const std::string now = import_nccl_job_and_digest(std::string(TRAINSCOPE_CLI));
    ASSERT_EQ(now.rfind("import failed", 0), std::string::npos) << now;
    EXPECT_NE(now.find("collectives:6:"), std::string::npos) << "three per rank";
    EXPECT_EQ(without_schema_version(now), without_schema_version(kNcclJobDigest));
}

TEST(ImportEquivalenceNcclJob, DISABLED_PrintNcclJobDigest) {
    const char* cli = std::getenv("TRAINSCOPE_DIGEST_CLI");
    std::printf("%s\n", import_nccl_job_and_digest(cli ? cli : TRAINSCOPE_CLI).c_str());
}

using ImportEquivalenceJob = NeedsSharedTraces;
using ImportEquivalenceGenerated = NeedsSharedTraces;
using ImportEquivalenceDigests = NeedsSharedTraces;

// The ranks of a job are read on all cores; one worker must give the same database.
TEST_F(ImportEquivalenceJob, ParallelRanksWriteWhatOneWorkerWrites) {
    TempDir dir;
    const Fixture job{"job", "multirank/param_dlrm_kineto", ""};
    const std::string all = import_and_digest(std::string(TRAINSCOPE_CLI) + " import", job, dir);
    TempDir dir1;
    const std::string one =
        import_and_digest(std::string(TRAINSCOPE_CLI) + " import --threads 1", job, dir1);
    EXPECT_EQ(all, one);
    EXPECT_EQ(all.rfind("import failed", 0), std::string::npos) << all;
}

// Count, total time and bytes of each activity kind of a run in `db`.
std::map<int, std::array<long long, 3>> totals_by_kind(const std::filesystem::path& db) {
    std::map<int, std::array<long long, 3>> by_kind;  // count, total ns, bytes
    sqlite3* handle = nullptr;
    if (sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(handle);
        return by_kind;
    }
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(handle,
                           "SELECT kind, COUNT(*), SUM(end_ns - start_ns), SUM(bytes) "
                           "FROM activities GROUP BY kind",
                           -1, &st, nullptr) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            by_kind[sqlite3_column_int(st, 0)] = {sqlite3_column_int64(st, 1),
                                                  sqlite3_column_int64(st, 2),
                                                  sqlite3_column_int64(st, 3)};
        }
    }
    sqlite3_finalize(st);
    sqlite3_close(handle);
    return by_kind;
}

// Nothing lost on the way: a trace generated by repeating the V100 ResNet-50 trace (the
// generator of the huge-trace benchmark) imports to that many copies of the source's
// counts and totals (../shared/traces/README.md: 8772 kernels, 591532 us, 12 memcpys of
// 115,607,040 bytes, 312 memsets; 44665 activities once imported).
TEST_F(ImportEquivalenceGenerated, CountsAndTotalsAreTheSourcesTimesItsCopies) {
    TempDir dir;
    const auto trace = dir / "generated.json";
    const std::string generate = std::string(TRAINSCOPE_TEST_PYTHON) + " " +
                                 (kTraces / "make_huge_kineto_trace.py").string() + " " +
                                 (kTraces / "kineto/v100_resnet50_training.json.gz").string() +
                                 " 40 " + trace.string() + " > " + (dir / "gen.log").string();
    ASSERT_EQ(std::system(generate.c_str()), 0) << generate;
    long long copies = 0;
    {
        FILE* log = std::fopen((dir / "gen.log").c_str(), "r");
        ASSERT_NE(log, nullptr);
        ASSERT_EQ(std::fscanf(log, "%lld replicas", &copies), 1);
        std::fclose(log);
    }
    ASSERT_EQ(copies, 2);  // 40 MB: two copies of the 32 MB source
    const auto db = dir / "generated.db";
    const auto r = run_trainscope("import " + trace.string() + " -o " + db.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;

    std::map<int, std::array<long long, 3>> by_kind = totals_by_kind(db);
    ASSERT_FALSE(by_kind.empty());
    long long activities = 0;
    for (const auto& [kind, totals] : by_kind)
        activities += totals[0];
    constexpr int kKernel = 0, kMemcpy = 1, kMemset = 2;  // ActivityKind's stored values
    EXPECT_EQ(activities, copies * 44665);
    EXPECT_EQ(by_kind[kKernel][0], copies * 8772);
    EXPECT_EQ(by_kind[kKernel][1], copies * 591532 * 1000);
    EXPECT_EQ(by_kind[kMemcpy][0], copies * 12);
    EXPECT_EQ(by_kind[kMemcpy][2], copies * 115607040);
    EXPECT_EQ(by_kind[kMemset][0], copies * 312);
}

// The same for an Nsight Systems export made large by the bench's generator
// (tests/bench/make_huge_nsys_export.py, the export's rows replicated shifted in time):
// 20 MB, about 420,000 activities, two runs of the sorter merged from disk. Every kind's count,
// total time and bytes are the source's times its copies.
TEST_F(ImportEquivalenceGenerated, NsysCountsAndTotalsAreTheSourcesTimesItsCopies) {
    TempDir dir;
    const auto source = kTraces / "nsys/a100_saxpy_mpi_cuda.sqlite";
    const auto trace = dir / "generated.sqlite";
    const std::string generate = std::string(TRAINSCOPE_TEST_PYTHON) + " " + TRAINSCOPE_BENCH_DIR +
                                 "/make_huge_nsys_export.py " + source.string() + " 20 " +
                                 trace.string() + " > " + (dir / "gen.log").string();
    ASSERT_EQ(std::system(generate.c_str()), 0) << generate;
    long long copies = 0;
    {
        FILE* log = std::fopen((dir / "gen.log").c_str(), "r");
        ASSERT_NE(log, nullptr);
        ASSERT_EQ(std::fscanf(log, "%lld replicas", &copies), 1);
        std::fclose(log);
    }
    ASSERT_GT(copies, 2000);
    const auto once_db = dir / "once.db";
    const auto once = run_trainscope("import " + source.string() + " -o " + once_db.string());
    ASSERT_EQ(once.exit_code, 0) << once.output;
    const auto db = dir / "generated.db";
    const auto r = run_trainscope("import " + trace.string() + " -o " + db.string());
    ASSERT_EQ(r.exit_code, 0) << r.output;

    const auto source_totals = totals_by_kind(once_db);
    const auto generated = totals_by_kind(db);
    ASSERT_GE(source_totals.size(), 4u) << "kernels, memcpys, runtime calls, NVTX ranges";
    ASSERT_EQ(generated.size(), source_totals.size());
    long long activities = 0;
    for (const auto& [kind, totals] : source_totals) {
        SCOPED_TRACE(kind);
        ASSERT_EQ(generated.count(kind), 1u);
        for (std::size_t i = 0; i < 3; ++i)
            EXPECT_EQ(generated.at(kind)[i], copies * totals[i]);
        activities += copies * totals[0];
    }
    EXPECT_GT(activities, 1 << 18) << "more than one of the sorter's runs: merged from disk";
}

TEST_F(ImportEquivalenceDigests, DISABLED_PrintDigests) {
    const char* cli = std::getenv("TRAINSCOPE_DIGEST_CLI");
    TempDir dir;
    for (const Fixture& f : std::getenv("TRAINSCOPE_DIGEST_JOBS")
                                ? std::span<const Fixture>(kJobFixtures)
                                : std::span<const Fixture>(kFixtures)) {
        std::printf(
            "    {\"%s\", \"%s\",\n     \"%s\"},\n", f.label, f.arguments,
            import_and_digest(std::string(cli ? cli : TRAINSCOPE_CLI) + " import", f, dir).c_str());
    }
}

}  // namespace
}  // namespace trainscope::testing
