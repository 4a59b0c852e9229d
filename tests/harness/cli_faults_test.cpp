// Faults a hostile sweep found (issue 15): concurrent resumes, diverged runs, a full disk,
// leftovers after kill -9.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <tuple>

#include "CliProcess.hpp"
#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

const std::string kTrace =
    std::string(TRAINSCOPE_SHARED_DIR) + "/traces/kineto/a100_two_streams_add.json.gz";

std::int64_t count(const std::filesystem::path& db, const std::string& sql) {
    const reports::ResultsDatabase results(db, reports::OpenMode::ReadOnly);
    auto query = results.prepare(sql);
    query.step();
    return query.column_int64(0);
}

std::vector<std::string> names_in(const std::filesystem::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string read_all(const std::filesystem::path& file) {
    std::stringstream text;
    text << std::ifstream(file).rdbuf();
    return text.str();
}

// Starts the CLI without waiting; finish() collects its exit code and output.
class Background {
  public:
    explicit Background(const std::string& arguments)
        : pipe_(popen((std::string(TRAINSCOPE_CLI) + " " + arguments + " 2>&1").c_str(), "r")) {}
    testing::CliResult finish() {
        testing::CliResult result;
        std::array<char, 4096> buffer{};
        while (fgets(buffer.data(), buffer.size(), pipe_) != nullptr)
            result.output += buffer.data();
        const int status = pclose(pipe_);
        result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return result;
    }

  private:
    FILE* pipe_;
};

TEST(ConcurrentRuns, TwoResumesAtOnceRecordEachCellOnce) {
    testing::TempDir dir;
    const std::string db = (dir / "r.db").string();
    const std::string matrix = "run --steps 30 --batch 16,32,64 --out " + db;
    // First pass: the batch=32 cell crashes, so a resume has a cell to run again.
    const auto first = run_trainscope(matrix + " --inject-fault crash:batch=32");
    ASSERT_EQ(first.exit_code, 1) << first.output;
    Background a(matrix + " --resume");
    Background b(matrix + " --resume");
    const auto ra = a.finish();
    const auto rb = b.finish();
    // One ran the cell; the other was refused (or, started late, found nothing to do).
    EXPECT_TRUE(ra.exit_code == 0 || ra.exit_code == 2) << ra.output;
    EXPECT_TRUE(rb.exit_code == 0 || rb.exit_code == 2) << rb.output;
    EXPECT_EQ(count(db, "SELECT count(*) FROM runs"), 3);
    EXPECT_EQ(count(db, "SELECT count(DISTINCT cell_key) FROM runs"), 3);
    EXPECT_EQ(count(db, "SELECT count(*) FROM runs WHERE status = 'ok'"), 3);
    for (const auto& r : {ra, rb}) {
        if (r.exit_code == 2) {
            EXPECT_NE(r.output.find("another trainscope process"), std::string::npos) << r.output;
        }
    }

    // Two fresh runs of one matrix into a new file: each cell once, one matrix.
    const std::string fresh = (dir / "fresh.db").string();
    const std::string again = "run --steps 30 --batch 16,32 --resume --out " + fresh;
    Background c(again);
    Background d(again);
    const auto rc = c.finish();
    const auto rd = d.finish();
    EXPECT_EQ(count(fresh, "SELECT count(*) FROM runs"), 2) << rc.output << rd.output;
    EXPECT_EQ(count(fresh, "SELECT count(*) FROM matrices"), 1);
}

TEST(DivergedRun, StoresNoLossAndSaysDiverged) {
    testing::TempDir dir;
    const std::string db = (dir / "r.db").string();
    const auto run = run_trainscope("run --steps 10 --lr 1e20 --out " + db);
    ASSERT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find("diverged"), std::string::npos) << run.output;
    EXPECT_EQ(count(db,
                    "SELECT count(*) FROM metrics WHERE name IN ('final_loss', "
                    "'test_loss') AND value IS NULL"),
              2);
    EXPECT_EQ(count(db,
                    "SELECT count(*) FROM metrics WHERE name IN ('final_loss', "
                    "'test_loss') AND value IS NOT NULL"),
              0);
    const auto csv = run_trainscope("report " + db + " --format csv");
    ASSERT_EQ(csv.exit_code, 0) << csv.output;
    std::istringstream lines(csv.output);
    std::string header, row;
    std::getline(lines, header);
    std::getline(lines, row);
    std::erase(header, '\r');
    std::erase(row, '\r');
    const auto column = [&](const std::string& name) {
        std::istringstream h(header), r(row);
        std::string key, value;
        while (std::getline(h, key, ',') && std::getline(r, value, ',')) {
            if (key == name)
                return value;
        }
        return std::string("(missing)");
    };
    EXPECT_EQ(column("final_loss"), "diverged") << csv.output;
    EXPECT_EQ(column("test_loss"), "diverged") << csv.output;
    const auto table = run_trainscope("report " + db + " --format table");
    EXPECT_NE(table.output.find("diverged"), std::string::npos) << table.output;
}

// A small tmpfs, mounted for the test (root only; skipped elsewhere).
class FullDisk : public ::testing::Test {
  protected:
    void SetUp() override {
        disk_ = dir_ / "disk";
        std::filesystem::create_directory(disk_);
        if (mount("tmpfs", disk_.c_str(), "tmpfs", 0, "size=1m") != 0)
            GTEST_SKIP() << "cannot mount a small tmpfs here (needs root): " << strerror(errno);
        mounted_ = true;
        tmp_ = dir_ / "tmp";
        std::filesystem::create_directory(tmp_);
    }
    void TearDown() override {
        if (mounted_)
            umount2(disk_.c_str(), MNT_DETACH);
    }
    // Takes every free byte of the disk.
    void fill() {
        std::ofstream filler(disk_ / "filler", std::ios::binary);
        const std::string block(4096, 'x');
        while (filler.write(block.data(), block.size()))
            ;
    }
    // The CLI with TMPDIR in the test's folder, where a cell's result may be kept.
    testing::CliResult cli(const std::string& arguments) {
        setenv("TMPDIR", tmp_.c_str(), 1);
        auto result = run_trainscope(arguments);
        unsetenv("TMPDIR");
        return result;
    }
    static void expect_one_clear_line(const testing::CliResult& r) {
        EXPECT_EQ(r.exit_code, 2) << r.output;
        std::istringstream lines(r.output);
        std::string line;
        int errors = 0;
        while (std::getline(lines, line))
            errors +=
                line.rfind("trainscope:", 0) == 0 && line.find("backend") == std::string::npos;
        EXPECT_EQ(errors, 1) << r.output;
        EXPECT_EQ(r.output.find("SQLite code"), std::string::npos) << r.output;
        EXPECT_EQ(r.output.find("not an SQLite database"), std::string::npos) << r.output;
        EXPECT_NE(r.output.find("full"), std::string::npos) << r.output;
    }
    testing::TempDir dir_;
    std::filesystem::path disk_;
    std::filesystem::path tmp_;
    bool mounted_ = false;
};

TEST_F(FullDisk, RunKeepsTheTrainedCellElsewhereAndLeavesNoEmptyDatabase) {
    fill();
    const auto before = names_in(disk_);
    const auto r = cli("run --steps 2 -q --out " + (disk_ / "r.db").string());
    expect_one_clear_line(r);
    EXPECT_EQ(names_in(disk_), before) << "left a file on the full disk";
    const auto kept = r.output.find("kept in ");
    ASSERT_NE(kept, std::string::npos) << r.output;
    const std::string file = r.output.substr(kept + 8, r.output.find(':', kept) - kept - 8);
    ASSERT_TRUE(std::filesystem::exists(file)) << file;
    EXPECT_EQ(count(file, "SELECT count(*) FROM runs WHERE status = 'ok'"), 1);
    EXPECT_NE(r.output.find("--resume"), std::string::npos) << r.output;
}

TEST_F(FullDisk, ImportAndExportSayOneLineAndLeaveNothing) {
    const auto source = dir_ / "source.db";
    ASSERT_EQ(run_trainscope("import " + kTrace + " -o " + source.string()).exit_code, 0);
    fill();
    const auto before = names_in(disk_);
    expect_one_clear_line(cli("import " + kTrace + " -o " + (disk_ / "i.db").string()));
    expect_one_clear_line(
        cli("export " + source.string() + " --run 1 -o " + (disk_ / "t.json").string()));
    EXPECT_EQ(names_in(disk_), before);
}

// A run with 300,000 kernel launches: its launch table (about 6 MB) outgrows SQLite's page
// cache (2 MB), so the export writes it to SQLite's temporary folder.
void store_many_launches(const std::filesystem::path& db) {
    using profiler::ActivityKind;
    reports::RunRecord run = testing::sample_run();
    profiler::Trace& t = *run.trace;
    const auto gpu = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 stream 7"});
    const auto host = t.add_lane({profiler::LaneKind::HostThread, -1, 42, 1, "main"});
    const auto kernel = t.strings.intern("k");
    const auto launch = t.strings.intern("cudaLaunchKernel");
    for (std::uint64_t i = 1; i <= 300'000; ++i) {
        const auto at = static_cast<std::int64_t>(i) * 1'000;
        for (const auto& [kind, lane, name, start] :
             {std::tuple{ActivityKind::RuntimeApi, host, launch, at},
              std::tuple{ActivityKind::Kernel, gpu, kernel, at + 500}}) {
            profiler::Activity a;
            a.kind = kind;
            a.lane = lane;
            a.name = name;
            a.start_ns = start;
            a.end_ns = start + 100;
            a.correlation = i;
            t.activities.push_back(a);
        }
    }
    t.sort();
    reports::ResultsDatabase results(db, reports::OpenMode::CreateOrOpen);
    (void)reports::RunWriter(results).write(run);
}

// The export's flows are joined through a temporary table in SQLite's temporary folder:
// when that folder's disk is full, the message names the folder and the variables that
// move it, not an SQLite fault of the read-only results database.
TEST_F(FullDisk, ExportNamesAFullTemporaryFolder) {
    const auto source = dir_ / "source.db";
    store_many_launches(source);
    fill();
    const auto json = dir_ / "t.json";
    setenv("TMPDIR", disk_.c_str(), 1);
    const auto r = run_trainscope("export " + source.string() + " --run 1 -o " + json.string());
    unsetenv("TMPDIR");
    expect_one_clear_line(r);
    EXPECT_NE(r.output.find("'" + disk_.string() + "' ($TMPDIR)"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("SQLITE_TMPDIR"), std::string::npos) << r.output;
    EXPECT_FALSE(std::filesystem::exists(json));
}

TEST_F(FullDisk, ValidDatabaseOnAFullDiskIsNotCalledForeign) {
    const auto db = disk_ / "ok.db";
    ASSERT_EQ(run_trainscope("import " + kTrace + " -o " + db.string()).exit_code, 0);
    fill();
    const auto r = cli("report " + db.string() + " --format table");
    expect_one_clear_line(r);
}

TEST_F(FullDisk, CsvSetStaysWholeAndOld) {
    const auto small = dir_ / "small.db";
    const auto large = dir_ / "large.db";
    ASSERT_EQ(run_trainscope("run --steps 2 -q --out " + small.string()).exit_code, 0);
    ASSERT_EQ(run_trainscope("import " + kTrace + " -o " + large.string()).exit_code, 0);
    const auto csv = disk_ / "csv";
    ASSERT_EQ(run_trainscope("report " + small.string() + " --csv " + csv.string()).exit_code, 0);
    std::map<std::string, std::string> old;
    for (const auto& name : names_in(csv))
        old[name] = read_all(csv / name);
    ASSERT_EQ(old.size(), 7u);  // runs, kernels, steps, nvtx, ops, matrix, memory
    fill();
    expect_one_clear_line(cli("report " + large.string() + " --csv " + csv.string()));
    ASSERT_EQ(names_in(csv).size(), 7u) << "a temporary folder was left";
    for (const auto& [name, text] : old)
        EXPECT_EQ(read_all(csv / name), text) << name << " changed";
}

TEST(Leftovers, StaleCellFoldersOfDeadMatricesAreRemoved) {
    testing::TempDir dir;
    const pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    waitpid(dead, nullptr, 0);
    const auto stale = dir / ("trainscope-cell-" + std::to_string(dead) + "-abcdef");
    const auto live = dir / ("trainscope-cell-" + std::to_string(getpid()) + "-ghijkl");
    std::filesystem::create_directory(stale);
    std::ofstream(stale / "job.json") << "{}";
    std::filesystem::create_directory(live);
    setenv("TMPDIR", dir.path().c_str(), 1);
    const auto again = run_trainscope("run --steps 1 -q --out " + (dir / "r2.db").string());
    unsetenv("TMPDIR");
    ASSERT_EQ(again.exit_code, 0) << again.output;
    EXPECT_FALSE(std::filesystem::exists(stale)) << "a dead matrix's folder stayed";
    EXPECT_TRUE(std::filesystem::exists(live)) << "a live matrix's folder was removed";
    for (const auto& name : names_in(dir.path())) {
        if (name.rfind("trainscope-cell-", 0) == 0) {
            EXPECT_EQ(name, live.filename().string()) << "the run left its own folder";
        }
    }
}

// An import's run metrics sort its kernels and copies through $TMPDIR once they fill one
// in-memory run (64 Ki), inside the write: a $TMPDIR that cannot be written stops the
// import with one line naming it, and the database the import created is not left behind.
TEST(Leftovers, ImportWithAnUnwritableTmpdirLeavesNoDatabase) {
    testing::TempDir dir;
    const auto trace = dir / "many.json";
    {
        std::ofstream out(trace);
        out << R"({"traceEvents":[)";
        for (int i = 0; i < 70000; ++i) {
            out << (i == 0 ? "" : ",") << R"({"ph":"X","cat":"kernel","name":"k","ts":)" << 2 * i
                << R"(,"dur":1,"pid":0,"tid":7,"args":{"device":0,"stream":7}})";
        }
        out << "]}";
    }
    const auto db = dir / "r.db";
    setenv("TMPDIR", (dir / "missing").c_str(), 1);
    const auto r = run_trainscope("import " + trace.string() + " -o " + db.string());
    unsetenv("TMPDIR");
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("$TMPDIR"), std::string::npos) << r.output;
    EXPECT_EQ(names_in(dir.path()), std::vector<std::string>{"many.json"})
        << "the import left its database behind";
}

TEST(Leftovers, KilledImportLeavesNoEmptyMatrix) {
    testing::TempDir dir;
    const std::string big =
        std::string(TRAINSCOPE_SHARED_DIR) + "/traces/kineto/v100_resnet50_training.json.gz";
    const auto db = dir / "r.db";
    ASSERT_EQ(run_trainscope("import " + kTrace + " -o " + db.string()).exit_code, 0);
    // kill -9 at moments spread over a whole import of a large trace.
    for (int delay_ms = 100; delay_ms <= 2200; delay_ms += 150) {
        const pid_t pid = fork();
        if (pid == 0) {
            execl(TRAINSCOPE_CLI, TRAINSCOPE_CLI, "import", big.c_str(), "-o", db.c_str(),
                  static_cast<char*>(nullptr));
            _exit(127);
        }
        usleep(static_cast<useconds_t>(delay_ms) * 1000);
        kill(pid, SIGKILL);
        waitpid(pid, nullptr, 0);
        EXPECT_EQ(count(db,
                        "SELECT count(*) FROM matrices m WHERE NOT EXISTS (SELECT 1 FROM "
                        "runs r WHERE r.matrix_id = m.id)"),
                  0)
            << "an empty import matrix after kill -9 at " << delay_ms << " ms";
    }
}

}  // namespace
}  // namespace trainscope
