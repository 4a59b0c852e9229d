// A job assembled from streamed ranks (each rank's activities sorted on disk in several
// runs, passed one rank after another and mapped onto the job's clock, lanes and strings)
// against the same files assembled whole: the activities, nested, the collectives, the
// strings, lanes, metadata and what the job says of its ranks must be exactly the same.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "RecordFields.hpp"
#include "TraceFixtures.hpp"
#include "profiler/formats/JobAssembly.hpp"
#include "profiler/formats/KinetoImporter.hpp"

namespace trainscope::profiler {
namespace {

std::vector<std::filesystem::path> rank_files(const std::string& set) {
    std::vector<std::filesystem::path> paths;
    for (const auto& entry :
         std::filesystem::directory_iterator(testing::shared_trace_path("multirank/" + set))) {
        if (entry.path().extension() == ".gz")
            paths.push_back(entry.path());
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

// `run` activities per sorted run: every rank spills to several runs on disk. Some ranks
// have their joins run beforehand (as the import's workers do), the others by the assembly.
void expect_streamed_job_equals_whole(const std::string& set, std::size_t run) {
    const auto paths = rank_files(set);
    ASSERT_GE(paths.size(), 2u);
    const JobAssemblyOptions options{true};
    std::vector<RankTraceFile> whole_files;
    std::vector<RankStreamedFile> streamed_files;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        whole_files.push_back({paths[i], import_kineto_trace(paths[i])});
        StreamedTrace t = stream_kineto_trace(paths[i], {run, ActivitySorter::OneRun::OnDisk});
        if (i % 2 == 0)
            complete_header(t);
        streamed_files.push_back({paths[i], std::move(t)});
    }
    const JobAssembly whole = assemble_job(std::move(whole_files), options);
    StreamedJobAssembly streamed = assemble_streamed_job(std::move(streamed_files), options);

    EXPECT_EQ(streamed.world_size, whole.world_size);
    EXPECT_EQ(streamed.backend, whole.backend);
    EXPECT_EQ(streamed.start_spread_ns, whole.start_spread_ns);
    ASSERT_EQ(streamed.ranks.size(), whole.ranks.size());
    for (std::size_t i = 0; i < whole.ranks.size(); ++i) {
        EXPECT_EQ(std::make_tuple(streamed.ranks[i].rank, streamed.ranks[i].file,
                                  streamed.ranks[i].source, streamed.ranks[i].start_offset_ns),
                  std::make_tuple(whole.ranks[i].rank, whole.ranks[i].file, whole.ranks[i].source,
                                  whole.ranks[i].start_offset_ns));
    }
    EXPECT_EQ(streamed.trace.activity_count,
              static_cast<std::int64_t>(whole.trace.activities.size()));
    std::int64_t first = whole.trace.activities.empty() ? 0 : whole.trace.activities[0].start_ns;
    for (const Activity& a : whole.trace.activities)
        first = std::min(first, a.start_ns);
    EXPECT_EQ(streamed.trace.first_start_ns, first);

    // Twice: the store passes a job once to plan its summaries, rewinds, then writes it.
    for (int pass = 0; pass < 2; ++pass) {
        SCOPED_TRACE(pass);
        std::vector<Activity> passed;
        const auto keep = [&passed](const Activity& a) { passed.push_back(a); };
        if (pass == 0)
            preview_activities(streamed.trace, keep);
        else
            stream_activities(streamed.trace, keep);
        ASSERT_EQ(passed.size(), whole.trace.activities.size());
        for (std::size_t i = 0; i < passed.size(); ++i)
            ASSERT_EQ(fields(passed[i]), fields(whole.trace.activities[i])) << "activity " << i;
    }
    const Trace& header = streamed.trace.header;
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
        EXPECT_EQ(fields(header.lanes[i]), fields(whole.trace.lanes[i])) << "lane " << i;
    EXPECT_EQ(header.metadata, whole.trace.metadata);
    EXPECT_EQ(
        std::make_tuple(header.base_ns, header.capture_begin_ns, header.capture_end_ns,
                        header.world_size, header.source_clock_offset_ns, header.dropped_records),
        std::make_tuple(whole.trace.base_ns, whole.trace.capture_begin_ns,
                        whole.trace.capture_end_ns, whole.trace.world_size,
                        whole.trace.source_clock_offset_ns, whole.trace.dropped_records));
}

TEST(StreamedJobAssembly, EqualsTheWholeAssemblyWithEveryRankInRunsOnDisk) {
    for (const char* set : {"param_dlrm_kineto", "hta_trace_filter_sampled"}) {
        SCOPED_TRACE(set);
        expect_streamed_job_equals_whole(set, 301);
    }
}

// The checks are the whole assembly's (one implementation): a rank given twice is refused
// before any activity passes.
TEST(StreamedJobAssembly, ARankGivenTwiceIsRefusedNamingTheFiles) {
    const auto paths = rank_files("hta_trace_filter_sampled");
    std::vector<RankStreamedFile> files;
    for (int i = 0; i < 2; ++i)
        files.push_back({paths[0], stream_kineto_trace(paths[0])});
    try {
        assemble_streamed_job(std::move(files), JobAssemblyOptions{true});
        ADD_FAILURE() << "no error";
    } catch (const JobAssemblyError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("both rank 0"), std::string::npos) << what;
        EXPECT_NE(what.find(paths[0].filename().string()), std::string::npos) << what;
    }
}

}  // namespace
}  // namespace trainscope::profiler
