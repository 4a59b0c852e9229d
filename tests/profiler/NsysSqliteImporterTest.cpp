#include <gtest/gtest.h>
#include <sqlite3.h>

#include <fstream>

#include "TraceFixtures.hpp"
#include "profiler/analysis/NvtxProjectionAnalysis.hpp"
#include "profiler/analysis/TraceHealthAnalysis.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope::profiler {
namespace {

using testing::shared_trace_path;
using testing::totals_of;

const Trace& saxpy() {
    static const Trace trace =
        import_nsys_sqlite(shared_trace_path("nsys/a100_saxpy_mpi_cuda.sqlite"));
    return trace;
}

TEST(NsysSqliteImporter, CountsAndTotalsMatchTheReadme) {
    const Trace& trace = saxpy();
    const auto kernels = totals_of(trace, ActivityKind::Kernel);
    EXPECT_EQ(kernels.count, 5);
    EXPECT_EQ(kernels.duration_ns, 88573480);  // 88573.480 µs
    const auto copies = totals_of(trace, ActivityKind::Memcpy);
    EXPECT_EQ(copies.count, 15);
    EXPECT_EQ(copies.bytes, 3932160000);
    EXPECT_EQ(totals_of(trace, ActivityKind::Memset).count, 0);
    std::set<std::int64_t> streams;
    for (const Activity& a : trace.activities) {
        if (a.kind == ActivityKind::Kernel)
            streams.insert(trace.lanes.at(a.lane).stream_or_thread);
    }
    EXPECT_EQ(streams.size(), 1u);
    EXPECT_EQ(trace.metadata.at("device.0.name"), "NVIDIA A100-SXM4-40GB");
    EXPECT_EQ(trace.metadata.at("source.format"), "nsys-sqlite");
    EXPECT_EQ(trace.source_clock_offset_ns, 1687813257637297504);
}

TEST(NsysSqliteImporter, KernelsJoinTheirRuntimeLaunchesAndCopiesHaveDirections) {
    const Trace& trace = saxpy();
    const auto health = analyze_trace_health(trace);
    EXPECT_EQ(health.gpu_work_without_launch, 0);
    EXPECT_EQ(health.negative_duration, 0);
    int to_device = 0;
    int to_host = 0;
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::Memcpy)
            continue;
        if (a.copy_kind == CopyKind::HostToDevice)
            ++to_device;
        if (a.copy_kind == CopyKind::DeviceToHost)
            ++to_host;
    }
    EXPECT_EQ(to_device, 10);
    EXPECT_EQ(to_host, 5);
    for (const Activity& a : trace.activities) {
        if (a.kind != ActivityKind::Kernel)
            continue;
        EXPECT_GT(a.grid[0], 0);
        EXPECT_GT(a.block[0], 0);
        EXPECT_GT(a.registers_per_thread, 0);
    }
}

TEST(NsysSqliteImporter, NvtxPushPopRangesAreImported) {
    const Trace& trace = saxpy();
    const auto ranges = project_nvtx_ranges_to_gpu(trace);
    ASSERT_EQ(ranges.size(), 22u);  // the 22 push/pop ranges (eventType 59)
    // Each "saxpy" range launches exactly one kernel (cudaLaunchKernel is recorded twice
    // with one correlation id, and must count once); the MPI ranges launch none.
    int saxpy_ranges = 0;
    for (const auto& r : ranges) {
        if (r.name == "saxpy") {
            ++saxpy_ranges;
            EXPECT_EQ(r.kernel_count, 1);
            EXPECT_GT(r.gpu_end_ns, r.host_end_ns);  // the kernel outlives the launch range
        } else if (r.name.starts_with("MPI_Send") || r.name.starts_with("MPI_Recv")) {
            EXPECT_EQ(r.kernel_count, 0) << r.name;
        }
    }
    EXPECT_EQ(saxpy_ranges, 5);
}

class NsysBadInput : public ::testing::Test {
  protected:
    static std::filesystem::path dir() {
        const auto d = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs";
        std::filesystem::create_directories(d);
        return d;
    }
    static void expect_format_error(const std::filesystem::path& path, const std::string& needle) {
        try {
            (void)import_nsys_sqlite(path);
            FAIL() << "no exception for " << path;
        } catch (const TraceFormatError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find(path.string()), std::string::npos) << what;
            EXPECT_NE(what.find(needle), std::string::npos) << what;
        }
    }
};

TEST_F(NsysBadInput, MissingFile) {
    expect_format_error(dir() / "missing.sqlite", "no such file");
}

TEST_F(NsysBadInput, EmptyFileHasNoKernelTable) {
    const auto path = dir() / "empty.sqlite";
    std::ofstream(path).close();
    expect_format_error(path, "CUPTI_ACTIVITY_KIND_KERNEL");
}

TEST_F(NsysBadInput, TextFileIsNotADatabase) {
    const auto path = dir() / "text.sqlite";
    std::ofstream(path)
        << "this is not a database, just some text that is long enough to look like a header";
    expect_format_error(path, "SQLite");
}

TEST_F(NsysBadInput, DatabaseWithoutKernelTable) {
    const auto path = dir() / "other.sqlite";
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE runs (id INTEGER)", nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    expect_format_error(path, "CUPTI_ACTIVITY_KIND_KERNEL");
}

TEST_F(NsysBadInput, TruncatedExport) {
    std::ifstream in(shared_trace_path("nsys/a100_saxpy_mpi_cuda.sqlite"), std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto path = dir() / "truncated.sqlite";
    std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() / 3);
    expect_format_error(path, "SQLite");
}

}  // namespace
}  // namespace trainscope::profiler
