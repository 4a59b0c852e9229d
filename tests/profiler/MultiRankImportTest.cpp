// A distributed job's per-rank traces imported as one trace: the multi-rank fixtures
// (counts from their SOURCES.md, read from the raw files), the errors for files that do
// not make one job, and the collectives a Kineto trace's record_param_comms describe.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "../reports/TempDir.hpp"
#include "HandBuiltTrace.hpp"
#include "MultiRankFixtures.hpp"
#include "profiler/formats/KinetoImporter.hpp"

namespace trainscope::profiler {
namespace {

std::map<std::int32_t, std::int64_t> kernels_per_rank(const Trace& trace) {
    std::map<std::int32_t, std::int64_t> n;
    for (const Activity& a : trace.activities) {
        if (a.kind == ActivityKind::Kernel)
            ++n[trace.lanes.at(a.lane).rank];
    }
    return n;
}

std::map<std::int32_t, std::int64_t> collectives_per_rank(const Trace& trace) {
    std::map<std::int32_t, std::int64_t> n;
    for (const CollectiveCall& c : trace.collectives)
        ++n[c.rank];
    return n;
}

TEST(MultiRankImport, DlrmJobIsEightRanksWithTheirOwnKernelsAndCollectives) {
    const JobAssembly& job = testing::multirank_job("param_dlrm_kineto");
    EXPECT_EQ(job.world_size, 8);
    EXPECT_EQ(job.trace.world_size, 8);
    EXPECT_EQ(job.backend, "nccl");
    ASSERT_EQ(job.ranks.size(), 8u);
    for (std::size_t r = 0; r < 8; ++r) {
        EXPECT_EQ(job.ranks[r].rank, static_cast<std::int32_t>(r));
        EXPECT_EQ(job.ranks[r].source, RankSource::DistributedInfo);
        EXPECT_EQ(job.ranks[r].file.filename().string().rfind("worker" + std::to_string(r), 0), 0u);
    }
    // SOURCES.md: kernels per rank, 8 NCCL kernels (3 AllReduce, 5 SendRecv) each.
    const std::map<std::int32_t, std::int64_t> kernels{{0, 245}, {1, 310}, {2, 246}, {3, 315},
                                                       {4, 251}, {5, 245}, {6, 246}, {7, 246}};
    EXPECT_EQ(kernels_per_rank(job.trace), kernels);
    for (const auto& [rank, count] : collectives_per_rank(job.trace))
        EXPECT_EQ(count, 8) << "rank " << rank;
    EXPECT_EQ(collectives_per_rank(job.trace).size(), 8u);
    std::int64_t all_reduce = 0;
    for (const CollectiveCall& c : job.trace.collectives)
        all_reduce += c.kind == CollectiveKind::AllReduce ? 1 : 0;
    EXPECT_GE(all_reduce, 8 * 3) << "the AllReduce kernels at least";
    // The files' own clocks: rank 1 starts first, rank 7 last, 7.513 ms later.
    EXPECT_EQ(job.ranks[1].start_offset_ns, 0);
    EXPECT_EQ(job.start_spread_ns, job.ranks[7].start_offset_ns);
    EXPECT_NEAR(static_cast<double>(job.start_spread_ns) * 1e-6, 7.513, 0.0005);
    for (const Lane& lane : job.trace.lanes)
        EXPECT_EQ(lane.name.rfind("rank " + std::to_string(lane.rank) + " · ", 0), 0u) << lane.name;
}

TEST(MultiRankImport, SampledSetIsTwoRanksOfAWorldOf128) {
    const JobAssembly& job = testing::multirank_job("hta_trace_filter_sampled");
    EXPECT_EQ(job.world_size, 128);
    const std::map<std::int32_t, std::int64_t> kernels{{0, 1154}, {1, 1104}};
    EXPECT_EQ(kernels_per_rank(job.trace), kernels);
    const std::map<std::int32_t, std::int64_t> comms{{0, 10}, {1, 10}};
    EXPECT_EQ(collectives_per_rank(job.trace), comms);
}

RankTraceFile rank_file(const std::string& name, int rank, int world, const std::string& backend) {
    RankTraceFile f;
    f.file = name;
    testing::HandBuiltTrace t;
    t.kernel(0, 7, "gemm", 0, 10);
    f.trace = std::move(t.trace());
    if (rank >= 0) {
        f.trace.metadata["distributed.rank"] = std::to_string(rank);
        f.trace.metadata["distributed.world_size"] = std::to_string(world);
        f.trace.metadata["distributed.backend"] = backend;
    }
    return f;
}

std::string error_of(std::vector<RankTraceFile> files, bool allow_partial = false) {
    try {
        assemble_job(std::move(files), JobAssemblyOptions{allow_partial});
    } catch (const JobAssemblyError& e) {
        return e.what();
    }
    return "no error";
}

TEST(MultiRankImport, FilesOfAnotherJobAreRefusedNamingThem) {
    std::vector<RankTraceFile> files;
    files.push_back(rank_file("a.json", 0, 2, "nccl"));
    files.push_back(rank_file("b.json", 1, 4, "nccl"));
    const std::string world = error_of(std::move(files));
    EXPECT_NE(world.find("b.json"), std::string::npos) << world;
    EXPECT_NE(world.find("a.json"), std::string::npos) << world;
    EXPECT_NE(world.find("different jobs"), std::string::npos) << world;

    files.clear();
    files.push_back(rank_file("a.json", 0, 2, "nccl"));
    files.push_back(rank_file("b.json", 1, 2, "gloo"));
    const std::string backend = error_of(std::move(files));
    EXPECT_NE(backend.find("gloo"), std::string::npos) << backend;

    files.clear();
    files.push_back(rank_file("a.json", 0, 2, "nccl"));
    files.push_back(rank_file("b.json", -1, 2, "nccl"));
    const std::string mixed = error_of(std::move(files));
    EXPECT_NE(mixed.find("b.json"), std::string::npos) << mixed;
}

TEST(MultiRankImport, DuplicateAndMissingRanksAreErrorsPartialOnlyWhenAskedFor) {
    std::vector<RankTraceFile> files;
    files.push_back(rank_file("x.json", 1, 3, "nccl"));
    files.push_back(rank_file("y.json", 1, 3, "nccl"));
    const std::string dup = error_of(std::move(files));
    EXPECT_NE(dup.find("x.json"), std::string::npos) << dup;
    EXPECT_NE(dup.find("y.json"), std::string::npos) << dup;
    EXPECT_NE(dup.find("both rank 1"), std::string::npos) << dup;

    files.clear();
    files.push_back(rank_file("x.json", 0, 3, "nccl"));
    files.push_back(rank_file("z.json", 2, 3, "nccl"));
    const std::string missing = error_of(std::move(files));
    EXPECT_NE(missing.find("rank 1 missing"), std::string::npos) << missing;
    EXPECT_NE(missing.find("--allow-partial"), std::string::npos) << missing;

    files.clear();
    files.push_back(rank_file("x.json", 0, 3, "nccl"));
    files.push_back(rank_file("z.json", 2, 3, "nccl"));
    const JobAssembly job = assemble_job(std::move(files), JobAssemblyOptions{true});
    ASSERT_EQ(job.ranks.size(), 2u);
    EXPECT_EQ(job.ranks[1].rank, 2);
    EXPECT_EQ(job.trace.world_size, 3);
}

TEST(MultiRankImport, RankFromFileNameElseFromOrder) {
    EXPECT_EQ(rank_from_file_name("sampled_rank-3.json.gz"), 3);
    EXPECT_EQ(rank_from_file_name("worker12_step_12.1694128201545.pt.trace.json"), 12);
    EXPECT_EQ(rank_from_file_name("RANK_5.json"), 5);
    EXPECT_EQ(rank_from_file_name("trace.json"), -1);

    std::vector<RankTraceFile> files;
    files.push_back(rank_file("rank-1.json", -1, 0, ""));
    files.push_back(rank_file("rank-0.json", -1, 0, ""));
    const JobAssembly named = assemble_job(std::move(files));
    EXPECT_EQ(named.ranks[0].file, "rank-0.json");
    EXPECT_EQ(named.ranks[0].source, RankSource::FileName);
    EXPECT_EQ(named.world_size, 2);

    files.clear();
    files.push_back(rank_file("b.json", -1, 0, ""));
    files.push_back(rank_file("a.json", -1, 0, ""));
    const JobAssembly ordered = assemble_job(std::move(files));
    EXPECT_EQ(ordered.ranks[0].file, "b.json");
    EXPECT_EQ(ordered.ranks[0].source, RankSource::Order);
}

// PyTorch >= 2.1 writes what the collective is on record_param_comms; the NCCL >= 2.19
// kernel name (ncclDevKernel_*) carries no dtype.
TEST(MultiRankImport, RecordParamCommsGiveKindBytesGroupAndSequence) {
    trainscope::testing::TempDir dir;
    const auto path = dir / "rank-0.json";
    std::ofstream(path)
        << R"json({"distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 2},
 "traceEvents": [
  {"ph": "X", "cat": "cpu_op", "name": "nccl:all_gather", "pid": 1, "tid": 1, "ts": 100, "dur": 50},
  {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 101, "dur": 40,
   "args": {"Collective name": "_allgather_base", "In msg nelems": 1024, "Out msg nelems": 2048,
            "dtype": "BFloat16", "Group size": 2, "Process Group Name": "0", "Seq": 7}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 110, "dur": 5,
   "args": {"correlation": 42}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
   "pid": 0, "tid": 9, "ts": 120, "dur": 30, "args": {"correlation": 42, "device": 0, "stream": 9}}
 ]})json";
    const Trace trace = import_kineto_trace(path);
    EXPECT_EQ(trace.metadata.at("distributed.rank"), "0");
    EXPECT_EQ(trace.metadata.at("distributed.world_size"), "2");
    ASSERT_EQ(trace.collectives.size(), 1u);
    const CollectiveCall& c = trace.collectives.front();
    EXPECT_EQ(c.kind, CollectiveKind::AllGather);
    EXPECT_EQ(c.elements, 2048);
    EXPECT_EQ(c.bytes, 2048 * 2);
    EXPECT_EQ(c.sequence, 7);
    EXPECT_EQ(c.group_size, 2);
    EXPECT_EQ(trace.strings.at(c.group), "0");
    EXPECT_EQ(trace.strings.at(c.dtype), "BFloat16");
    EXPECT_EQ(c.duration_ns(), 30'000);
    EXPECT_EQ(trace.lanes.at(c.lane).device, 0);
}

}  // namespace
}  // namespace trainscope::profiler
