// `trainscope export`'s streamed Chrome trace (the rows read one at a time, the flows
// joined by SQLite on disk) is byte for byte what write_chrome_trace writes for the loaded
// trace: on every shared trace, on a job of ranks, and on a hand-made trace whose launches
// test LaunchIndex's rule (the first call of a correlation in trace order, driver calls,
// correlation 0, ids above 2^63, work without a launch, a launch in a later lane).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "SampleRun.hpp"
#include "TempDir.hpp"
#include "profiler/formats/ChromeTraceWriter.hpp"
#include "profiler/formats/JobAssembly.hpp"
#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "reports/store/SqliteError.hpp"
#include "reports/store/TraceStore.hpp"
#include "reports/trace/StoredChromeTrace.hpp"

namespace trainscope::reports {
namespace {

const std::filesystem::path kTraces = std::filesystem::path(TRAINSCOPE_SHARED_DIR) / "traces";

struct BothExports {
    std::string whole;
    std::string streamed;
    std::int64_t streamed_count = 0;
};

// Stores `trace` as the second run of a fresh database (so its rowids do not start at 1),
// then exports it both ways.
BothExports export_both(profiler::Trace trace) {
    testing::TempDir dir;
    std::int64_t id = 0;
    {
        ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
        RunWriter writer(db);
        (void)writer.write(testing::sample_run());
        RunRecord run = testing::sample_run();
        run.trace = std::move(trace);
        id = writer.write(run);
    }
    const ResultsDatabase db(dir / "r.db", OpenMode::ReadOnly);
    BothExports out;
    std::ostringstream whole;
    profiler::write_chrome_trace(*load_trace(db, id), whole);
    out.whole = whole.str();
    std::ostringstream streamed;
    out.streamed_count = write_stored_chrome_trace(db, id, *load_trace_header(db, id), streamed);
    out.streamed = streamed.str();
    return out;
}

void expect_same_bytes(const BothExports& both) {
    ASSERT_FALSE(both.whole.empty());
    // Not EXPECT_EQ on megabytes of text: the first differing place says more.
    const auto mismatch = std::mismatch(both.whole.begin(), both.whole.end(), both.streamed.begin(),
                                        both.streamed.end());
    EXPECT_EQ(both.whole.size(), both.streamed.size());
    if (mismatch.first != both.whole.end()) {
        const auto at = static_cast<std::size_t>(mismatch.first - both.whole.begin());
        ADD_FAILURE() << "first difference at byte " << at << ": whole \""
                      << both.whole.substr(at, 120) << "\", streamed \""
                      << both.streamed.substr(at, 120) << "\"";
    }
}

std::size_t count_of(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(StoredChromeTrace, EqualsTheWholeExportOnEverySharedTrace) {
    for (const char* name :
         {"kineto/h100_bert_small_inference.json.gz",
          "kineto/h100_vit_image_classification.json.gz", "kineto/v100_resnet50_training.json.gz",
          "kineto/a100_two_streams_add.json.gz"}) {
        SCOPED_TRACE(name);
        const profiler::Trace trace = profiler::import_kineto_trace(kTraces / name);
        const std::size_t activities = trace.activities.size();
        const BothExports both = export_both(trace);
        expect_same_bytes(both);
        EXPECT_EQ(both.streamed_count, static_cast<std::int64_t>(activities));
        EXPECT_GT(count_of(both.streamed, "\"ph\":\"f\""), 0u);  // flows were joined
    }
    SCOPED_TRACE("nsys");
    expect_same_bytes(
        export_both(profiler::import_nsys_sqlite(kTraces / "nsys/a100_saxpy_mpi_cuda.sqlite")));
}

TEST(StoredChromeTrace, EqualsTheWholeExportOnAJobOfRanks) {
    std::vector<profiler::RankTraceFile> files;
    for (const auto& entry :
         std::filesystem::directory_iterator(kTraces / "multirank/param_dlrm_kineto")) {
        if (entry.path().extension() == ".gz")
            files.push_back({entry.path(), profiler::import_kineto_trace(entry.path())});
    }
    profiler::JobAssembly job = profiler::assemble_job(std::move(files));
    ASSERT_GT(job.trace.world_size, 1);
    expect_same_bytes(export_both(std::move(job.trace)));
}

profiler::Activity activity(profiler::ActivityKind kind, profiler::LaneId lane,
                            std::int64_t start_ns, std::uint64_t correlation,
                            profiler::StringId name) {
    profiler::Activity a;
    a.kind = kind;
    a.lane = lane;
    a.start_ns = start_ns;
    a.end_ns = start_ns + 50;
    a.correlation = correlation;
    a.name = name;
    return a;
}

TEST(StoredChromeTrace, JoinsEachWorkToTheFirstCallOfItsCorrelation) {
    using profiler::ActivityKind;
    profiler::Trace t;
    const auto gpu = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 stream 7"});
    const auto host = t.add_lane({profiler::LaneKind::HostThread, -1, 42, 1, "main"});
    const auto other = t.add_lane({profiler::LaneKind::HostThread, -1, 43, 1, "worker"});
    const auto launch = t.strings.intern("cudaLaunchKernel");
    const auto driver = t.strings.intern("cuLaunchKernel");
    const auto kernel = t.strings.intern("k");
    const std::uint64_t huge = std::numeric_limits<std::uint64_t>::max() - 3;
    auto& acts = t.activities;
    // GPU lane first: its work comes before every launch in trace order.
    acts.push_back(activity(ActivityKind::Kernel, gpu, 1'000, 5, kernel));
    acts.push_back(activity(ActivityKind::Memcpy, gpu, 2'000, 6, kernel));
    acts.push_back(activity(ActivityKind::Kernel, gpu, 3'000, 0, kernel));     // no launch
    acts.push_back(activity(ActivityKind::Memset, gpu, 4'000, 7, kernel));     // driver call
    acts.push_back(activity(ActivityKind::Kernel, gpu, 5'000, 8, kernel));     // never launched
    acts.push_back(activity(ActivityKind::Kernel, gpu, 6'000, huge, kernel));  // above 2^63
    acts.push_back(activity(ActivityKind::Kernel, gpu, 7'000, 5, kernel));     // id again
    acts.push_back(activity(ActivityKind::RuntimeApi, host, 100, 0, launch));  // id 0: none
    acts.push_back(activity(ActivityKind::RuntimeApi, host, 200, 5, launch));  // first of 5
    acts.push_back(activity(ActivityKind::RuntimeApi, host, 300, 6, launch));
    acts.push_back(activity(ActivityKind::HostOp, host, 350, 8, kernel));  // not a launch
    acts.push_back(activity(ActivityKind::RuntimeApi, host, 400, huge, launch));
    acts.push_back(activity(ActivityKind::RuntimeApi, other, 50, 5, launch));  // later lane
    acts.push_back(activity(ActivityKind::DriverApi, other, 60, 7, driver));
    acts.push_back(activity(ActivityKind::RuntimeApi, other, 70, 6, launch));  // second of 6
    const BothExports both = export_both(std::move(t));
    expect_same_bytes(both);
    // Kernels 5 (twice), 6, 7 and the huge id join; 0 and 8 do not.
    EXPECT_EQ(count_of(both.streamed, "\"ph\":\"f\""), 5u);
    EXPECT_EQ(count_of(both.streamed, "\"ph\":\"s\""), 5u);
}

// Correlation ids are each rank's own: rank 1's kernels join rank 1's calls, never rank
// 0's, which come first in trace order with the same ids.
TEST(StoredChromeTrace, JoinsEachRanksWorkWithinItsRank) {
    using profiler::ActivityKind;
    profiler::Trace t;
    t.world_size = 2;
    const auto gpu0 = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 stream 7", 0});
    const auto host0 = t.add_lane({profiler::LaneKind::HostThread, -1, 42, 1, "main", 0});
    const auto gpu1 = t.add_lane({profiler::LaneKind::GpuStream, 0, 7, 1, "GPU 0 stream 7", 1});
    const auto host1 = t.add_lane({profiler::LaneKind::HostThread, -1, 42, 1, "main", 1});
    const auto launch = t.strings.intern("cudaLaunchKernel");
    const auto kernel = t.strings.intern("k");
    auto& acts = t.activities;
    acts.push_back(activity(ActivityKind::Kernel, gpu0, 1'000, 5, kernel));
    acts.push_back(activity(ActivityKind::RuntimeApi, host0, 100, 5, launch));
    acts.push_back(activity(ActivityKind::RuntimeApi, host0, 150, 9, launch));
    acts.push_back(activity(ActivityKind::Kernel, gpu1, 2'000, 5, kernel));
    acts.push_back(activity(ActivityKind::Kernel, gpu1, 3'000, 9, kernel));  // rank 1: no 9
    acts.push_back(activity(ActivityKind::RuntimeApi, host1, 200, 5, launch));
    const BothExports both = export_both(std::move(t));
    expect_same_bytes(both);
    // Rank 0's kernel 5 from 0.1 µs, rank 1's from 0.2 µs; rank 1's kernel 9 has none.
    EXPECT_EQ(count_of(both.streamed, "\"ph\":\"f\""), 2u);
    EXPECT_EQ(count_of(both.streamed, "\"ph\":\"s\""), 2u);
    EXPECT_EQ(count_of(both.streamed, "\"ts\":0.200}"), 1u) << both.streamed;
}

TEST(StoredChromeTrace, ARunWithoutTraceIsAStoreError) {
    testing::TempDir dir;
    std::int64_t id = 0;
    {
        ResultsDatabase db(dir / "r.db", OpenMode::CreateOrOpen);
        RunRecord run = testing::sample_run();
        run.trace.reset();
        id = RunWriter(db).write(run);
    }
    const ResultsDatabase db(dir / "r.db", OpenMode::ReadOnly);
    std::ostringstream out;
    profiler::Trace header;
    EXPECT_THROW((void)write_stored_chrome_trace(db, id, header, out), StoreError);
}

}  // namespace
}  // namespace trainscope::reports
