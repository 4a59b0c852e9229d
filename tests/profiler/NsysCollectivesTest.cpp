// NCCL kernels in Nsight Systems exports become collectives, matched across a job's ranks,
// on hand-made exports of two ranks (the shared nsys export has no NCCL): the tables and
// columns the importer reads, as nsys writes them, and NCCL's NVTX ranges with the
// extended payload nsys exports as JSON text.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "RecordFields.hpp"
#include "profiler/analysis/CollectiveMatching.hpp"
#include "profiler/formats/JobAssembly.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "profiler/formats/detail/NsysGlobalTid.hpp"
#include "tests/profiler/NsysNcclExport.hpp"

namespace trainscope::profiler {
namespace {

using testing::kGlobalTid;
using testing::write_rank;

// The importer's lanes and the NCCL ranges' threads decode globalTid by this one rule;
// the bits above 48 (hardware, VM) belong to neither id.
TEST(NsysGlobalTid, ProcessAndThreadComeFromTheirOwnBits) {
    constexpr detail::NsysThread t =
        detail::decode_global_tid((std::int64_t{3} << 48) | kGlobalTid);
    static_assert(t.process == 4242 && t.thread == 4243);
    EXPECT_EQ(detail::decode_global_tid(kGlobalTid).process, 4242);
    EXPECT_EQ(detail::decode_global_tid(kGlobalTid).thread, 4243);
    EXPECT_EQ(detail::decode_global_tid(0xFFFFFF).process, 0);
}

// A folder per test: ctest runs the tests of this file at once, in separate processes, and
// each rewrites its rank files.
std::filesystem::path test_dir() {
    const auto d = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs" /
                   "nsys_collectives" /
                   ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(d);
    return d;
}

TEST(NsysCollectives, NcclKernelsBecomeCollectivesWithWhatTheExportSays) {
    const Trace trace = import_nsys_sqlite(write_rank(test_dir(), 0, 0));
    ASSERT_EQ(trace.collectives.size(), 3u) << "the GEMM is not one";
    const auto by_kind = [&trace](CollectiveKind kind) -> const CollectiveCall& {
        for (const CollectiveCall& c : trace.collectives) {
            if (c.kind == kind)
                return c;
        }
        ADD_FAILURE() << "no " << to_string(kind);
        return trace.collectives.front();
    };
    const CollectiveCall& all_reduce = by_kind(CollectiveKind::AllReduce);
    EXPECT_EQ(all_reduce.bytes, 4096) << "NCCL's payload: the message size";
    EXPECT_EQ(all_reduce.elements, 1024) << "f32 in the kernel's name";
    EXPECT_EQ(trace.strings.at(all_reduce.dtype), "f32");
    EXPECT_EQ(trace.strings.at(all_reduce.group), "nccl communicator 77");
    EXPECT_EQ(all_reduce.sequence, -1);
    EXPECT_EQ(all_reduce.end_ns - all_reduce.start_ns, 2000);
    const CollectiveCall& send = by_kind(CollectiveKind::Send);  // SendRecv: the range says
    EXPECT_EQ(send.bytes, 256);
    const CollectiveCall& gather = by_kind(CollectiveKind::AllGather);
    EXPECT_EQ(gather.bytes, 0) << "no range holds its launch: unknown, not a size";
    EXPECT_EQ(gather.group, kNoString);
}

TEST(NsysCollectives, ATwoRankJobMatchesTheRanksCollectivesByOrder) {
    std::vector<RankTraceFile> files;
    for (int rank = 0; rank < 2; ++rank) {
        const auto path = write_rank(test_dir(), rank, rank == 1 ? 300 : 0);
        files.push_back({path, import_nsys_sqlite(path)});
    }
    const JobAssembly job = assemble_job(std::move(files));
    ASSERT_EQ(job.world_size, 2);
    const auto matched = match_collectives(job.trace);
    ASSERT_EQ(matched.size(), 3u);
    for (const MatchedCollective& m : matched) {
        EXPECT_EQ(m.calls.size(), 2u) << to_string(m.kind);
        EXPECT_FALSE(m.by_sequence);
        EXPECT_EQ(m.last_rank, 1) << to_string(m.kind);
        EXPECT_EQ(m.spread_ns(), 300) << to_string(m.kind);
    }
}

// The job streamed with every rank's activities in runs of 3 on disk (five runs each),
// joined as they pass: the activities, collectives, strings and lanes the whole
// assembly of the whole imports gives. Both sides run today's NCCL join (a whole import is
// its stream materialised); what the join wrote before it streamed is pinned in
// import_equivalence_test (ImportEquivalenceNcclJob), every table of this job's database.
TEST(NsysCollectives, AStreamedJobWithRunsOnDiskIsTheWholeJob) {
    std::vector<RankTraceFile> whole_files;
    std::vector<RankStreamedFile> streamed_files;
    for (int rank = 0; rank < 2; ++rank) {
        const auto path = write_rank(test_dir(), rank, rank == 1 ? 300 : 0);
        whole_files.push_back({path, import_nsys_sqlite(path)});
        StreamedTrace t = stream_nsys_sqlite(path, {3, ActivitySorter::OneRun::OnDisk});
        ASSERT_EQ(t.activity_count, 10);
        streamed_files.push_back({path, std::move(t)});
    }
    const JobAssembly whole = assemble_job(std::move(whole_files));
    StreamedJobAssembly streamed = assemble_streamed_job(std::move(streamed_files));
    std::vector<Activity> passed;
    stream_activities(streamed.trace, [&passed](const Activity& a) { passed.push_back(a); });
    const Trace& header = streamed.trace.header;
    ASSERT_EQ(passed.size(), whole.trace.activities.size());
    for (std::size_t i = 0; i < passed.size(); ++i)
        EXPECT_EQ(fields(passed[i]), fields(whole.trace.activities[i])) << "activity " << i;
    ASSERT_EQ(header.collectives.size(), 6u);
    ASSERT_EQ(header.collectives.size(), whole.trace.collectives.size());
    for (std::size_t i = 0; i < header.collectives.size(); ++i)
        EXPECT_EQ(fields(header.collectives[i]), fields(whole.trace.collectives[i]))
            << "collective " << i;
    ASSERT_EQ(header.strings.size(), whole.trace.strings.size());
    for (std::size_t i = 0; i < header.strings.size(); ++i)
        EXPECT_EQ(header.strings.at(static_cast<StringId>(i)),
                  whole.trace.strings.at(static_cast<StringId>(i)));
    ASSERT_EQ(header.lanes.size(), whole.trace.lanes.size());
    for (std::size_t i = 0; i < header.lanes.size(); ++i)
        EXPECT_EQ(fields(header.lanes[i]), fields(whole.trace.lanes[i]));
    EXPECT_EQ(header.metadata, whole.trace.metadata);
}

}  // namespace
}  // namespace trainscope::profiler
