#include "profiler/formats/JobAssembly.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <map>
#include <optional>

#include "profiler/formats/detail/JobActivities.hpp"

namespace trainscope::profiler {

namespace {

std::optional<std::int64_t> metadata_int(const Trace& trace, const std::string& key) {
    const auto it = trace.metadata.find(key);
    if (it == trace.metadata.end())
        return std::nullopt;
    try {
        std::size_t used = 0;
        const long long v = std::stoll(it->second, &used);
        if (used != it->second.size())
            return std::nullopt;
        return v;
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

std::string metadata_text(const Trace& trace, const std::string& key) {
    const auto it = trace.metadata.find(key);
    return it == trace.metadata.end() ? std::string() : it->second;
}

// The first activity's start, relative to the trace's base; 0 when there is none.
std::int64_t first_event_ns(const Trace& trace) {
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (const Activity& a : trace.activities)
        first = std::min(first, a.start_ns);
    return first == std::numeric_limits<std::int64_t>::max() ? 0 : first;
}

std::string name_of(const std::filesystem::path& file) {
    return file.filename().string();
}

// Appends one rank's header (everything but its activities, which stay where they are):
// lanes become that rank's, times move onto the job's clock. Returns how its activities
// move. Ranks never share a lane, so nothing nests anew.
detail::RankMapping append_rank_header(Trace& job, Trace& from, std::int32_t rank) {
    detail::RankMapping mapping;
    mapping.shift_ns = from.base_ns - job.base_ns;
    mapping.lane_offset = static_cast<LaneId>(job.lanes.size());
    const std::int64_t shift_ns = mapping.shift_ns;
    const LaneId lane_offset = mapping.lane_offset;
    for (Lane& lane : from.lanes) {
        lane.rank = rank;
        lane.name = fmt::format("rank {} · {}", rank, lane.name);
        job.lanes.push_back(std::move(lane));
    }
    from.lanes = {};
    std::vector<StringId>& string_map = mapping.string_map;
    string_map.resize(from.strings.size());
    for (std::size_t i = 0; i < string_map.size(); ++i)
        string_map[i] = job.strings.intern(from.strings.at(static_cast<StringId>(i)));
    from.strings = {};
    for (CollectiveCall c : from.collectives) {
        c.start_ns += shift_ns;
        c.end_ns += shift_ns;
        c.lane += lane_offset;
        c.rank = rank;
        c.group = string_map[c.group];
        c.dtype = string_map[c.dtype];
        job.collectives.push_back(c);
    }
    from.collectives = {};
    for (CounterSeries& series : from.counters) {
        series.rank = rank;
        for (CounterSample& s : series.samples)
            s.t_ns += shift_ns;
        job.counters.push_back(std::move(series));
    }
    from.counters = {};
    const std::int64_t begin = from.capture_begin_ns + shift_ns;
    const std::int64_t end = from.capture_end_ns + shift_ns;
    job.capture_begin_ns = std::min(job.capture_begin_ns, begin);
    job.capture_end_ns = std::max(job.capture_end_ns, end);
    job.dropped_records += from.dropped_records;
    for (auto& [key, value] : from.metadata) {
        if (key.rfind("distributed.", 0) != 0)
            job.metadata.emplace(key, value);
        job.metadata["rank." + std::to_string(rank) + "." + key] = std::move(value);
    }
    from.metadata = {};
    return mapping;
}

// One file as the assembly sees it: its header (a whole trace, or a streamed trace's
// header; its activities are not looked at) and its first event.
struct RankInput {
    const std::filesystem::path& file;
    Trace& header;
    std::int64_t first_event_ns;  // relative to header.base_ns; 0 when it has none
};

// Checks that the files make one job and puts their headers together into `job`; then,
// rank by rank in rank order, hands `take` the file's index and how its activities move.
// The one assembly behind assemble_job and assemble_streamed_job.
JobLayout assemble_headers(const std::vector<RankInput>& files, const JobAssemblyOptions& options,
                           Trace& job_trace,
                           const std::function<void(std::size_t, detail::RankMapping&&)>& take) {
    if (files.empty())
        throw JobAssemblyError("no trace files to import as a job");
    JobLayout job;

    // Which rank is each file, and how do we know.
    std::size_t with_info = 0;
    for (const RankInput& f : files)
        with_info += metadata_int(f.header, "distributed.rank").has_value() ? 1 : 0;
    if (with_info != 0 && with_info != files.size()) {
        std::vector<std::string> without;
        for (const RankInput& f : files) {
            if (!metadata_int(f.header, "distributed.rank"))
                without.push_back(name_of(f.file));
        }
        throw JobAssemblyError(fmt::format(
            "some traces name their rank (distributedInfo) and some do not ({}): they look "
            "like files of different jobs; import each job on its own",
            fmt::join(without, ", ")));
    }
    bool names_say = true;
    for (const RankInput& f : files)
        names_say = names_say && rank_from_file_name(f.file) >= 0;
    const RankSource source = with_info != 0 ? RankSource::DistributedInfo
                              : names_say    ? RankSource::FileName
                                             : RankSource::Order;

    std::optional<std::int64_t> world;
    std::string world_file;
    std::string backend_file;
    std::map<std::int32_t, std::size_t> file_of_rank;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const RankInput& f = files[i];
        std::int64_t rank = static_cast<std::int64_t>(i);
        if (source == RankSource::DistributedInfo) {
            rank = *metadata_int(f.header, "distributed.rank");
            const auto w = metadata_int(f.header, "distributed.world_size");
            if (w) {
                if (world && *world != *w) {
                    throw JobAssemblyError(fmt::format(
                        "'{}' is rank {} of a job of {} ranks but '{}' is of a job of {}: "
                        "these are files of different jobs; import each job on its own",
                        name_of(f.file), rank, *w, world_file, *world));
                }
                world = *w;
                world_file = name_of(f.file);
            }
            const std::string b = metadata_text(f.header, "distributed.backend");
            if (!b.empty()) {
                if (!job.backend.empty() && job.backend != b) {
                    throw JobAssemblyError(
                        fmt::format("'{}' used the {} backend but '{}' used {}: these are files of "
                                    "different jobs; import each job on its own",
                                    name_of(f.file), b, backend_file, job.backend));
                }
                job.backend = b;
                backend_file = name_of(f.file);
            }
        } else if (source == RankSource::FileName) {
            rank = rank_from_file_name(f.file);
        }
        if (rank < 0 || rank > std::numeric_limits<std::int32_t>::max())
            throw JobAssemblyError(fmt::format("'{}' names rank {}", name_of(f.file), rank));
        const auto r = static_cast<std::int32_t>(rank);
        if (const auto dup = file_of_rank.find(r); dup != file_of_rank.end()) {
            throw JobAssemblyError(fmt::format(
                "'{}' and '{}' are both rank {} (from their {}): a file given twice, or files "
                "of two jobs; give each rank's trace once",
                name_of(files[dup->second].file), name_of(f.file), r, to_string(source)));
        }
        file_of_rank.emplace(r, i);
    }
    job.world_size = static_cast<std::int32_t>(world.value_or(std::max<std::int64_t>(
        static_cast<std::int64_t>(files.size()), file_of_rank.rbegin()->first + 1)));
    if (file_of_rank.rbegin()->first >= job.world_size) {
        const auto& [rank, index] = *file_of_rank.rbegin();
        throw JobAssemblyError(fmt::format("'{}' is rank {} but the job has {} ranks (0-{})",
                                           name_of(files[index].file), rank, job.world_size,
                                           job.world_size - 1));
    }
    if (!options.allow_partial && file_of_rank.size() != static_cast<std::size_t>(job.world_size)) {
        std::string missing;
        int listed = 0;
        for (std::int32_t r = 0; r < job.world_size; ++r) {
            if (file_of_rank.count(r) != 0)
                continue;
            if (listed++ < 8) {
                if (!missing.empty())
                    missing += ", ";
                missing += std::to_string(r);
            }
        }
        if (listed > 8)
            missing += fmt::format(" and {} more", listed - 8);
        throw JobAssemblyError(fmt::format(
            "the job has {} ranks but {} trace files were given: rank {} missing (ranks from "
            "the files' {}); add their traces, or give --allow-partial to import the ranks "
            "present",
            job.world_size, file_of_rank.size(), missing, to_string(source)));
    }

    // One time axis: every file's own clock; t = 0 at the earliest rank's first event.
    std::int64_t earliest = std::numeric_limits<std::int64_t>::max();
    std::int64_t latest = std::numeric_limits<std::int64_t>::min();
    std::vector<std::int64_t> first_abs(files.size());
    for (std::size_t i = 0; i < files.size(); ++i) {
        first_abs[i] = files[i].header.base_ns + files[i].first_event_ns;
        earliest = std::min(earliest, first_abs[i]);
        latest = std::max(latest, first_abs[i]);
    }
    job.start_spread_ns = latest - earliest;
    job_trace.base_ns = earliest;
    job_trace.world_size = job.world_size;
    job_trace.capture_begin_ns = std::numeric_limits<std::int64_t>::max();
    job_trace.capture_end_ns = std::numeric_limits<std::int64_t>::min();
    job_trace.source_clock_offset_ns = files.front().header.source_clock_offset_ns;
    for (const auto& [rank, index] : file_of_rank) {
        const RankInput& f = files[index];
        if (f.header.source_clock_offset_ns != job_trace.source_clock_offset_ns)
            job_trace.source_clock_offset_ns = 0;  // no one file clock to reproduce
        job.ranks.push_back(JobRank{rank, f.file, source, first_abs[index] - earliest});
        take(index, append_rank_header(job_trace, f.header, rank));
    }
    job_trace.metadata["job.world_size"] = std::to_string(job.world_size);
    job_trace.metadata["job.ranks_present"] = std::to_string(job.ranks.size());
    job_trace.metadata["job.rank_source"] = std::string(to_string(source));
    job_trace.metadata["job.start_spread_ns"] = std::to_string(job.start_spread_ns);
    if (!job.backend.empty())
        job_trace.metadata["job.backend"] = job.backend;
    return job;
}

}  // namespace

std::string_view to_string(RankSource source) {
    switch (source) {
        case RankSource::DistributedInfo:
            return "distributedInfo";
        case RankSource::FileName:
            return "file name";
        case RankSource::Order:
            return "order given";
    }
    return "order given";
}

std::int32_t rank_from_file_name(const std::filesystem::path& file) {
    std::string name = file.filename().string();
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    std::int32_t found = -1;
    for (const std::string_view word : {"rank", "worker", "proc"}) {
        for (std::size_t at = name.find(word); at != std::string::npos;
             at = name.find(word, at + 1)) {
            std::size_t i = at + word.size();
            if (i < name.size() && (name[i] == '-' || name[i] == '_' || name[i] == '.'))
                ++i;
            std::size_t digits = i;
            while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits])))
                ++digits;
            if (digits > i && digits - i <= 6)
                found = std::stoi(name.substr(i, digits - i));
        }
    }
    return found;
}

JobAssembly assemble_job(std::vector<RankTraceFile> files, const JobAssemblyOptions& options) {
    std::vector<RankInput> inputs;
    for (RankTraceFile& f : files)
        inputs.push_back({f.file, f.trace, first_event_ns(f.trace)});
    JobAssembly job;
    static_cast<JobLayout&>(job) = assemble_headers(
        inputs, options, job.trace, [&](std::size_t index, detail::RankMapping&& mapping) {
            std::vector<Activity>& from = files[index].trace.activities;
            job.trace.activities.reserve(job.trace.activities.size() + from.size());
            for (Activity a : from) {
                mapping.apply(a);
                job.trace.activities.push_back(a);
            }
            from = {};
        });
    job.trace.sort();
    return job;
}

StreamedJobAssembly assemble_streamed_job(std::vector<RankStreamedFile> files,
                                          const JobAssemblyOptions& options) {
    std::vector<RankInput> inputs;
    for (RankStreamedFile& f : files) {
        complete_header(f.trace);
        inputs.push_back(
            {f.file, f.trace.header, f.trace.activity_count > 0 ? f.trace.first_start_ns : 0});
    }
    StreamedJobAssembly job;
    std::vector<detail::JobActivities::Rank> ranks;
    std::optional<std::int64_t> first_start;
    static_cast<JobLayout&>(job) = assemble_headers(
        inputs, options, job.trace.header, [&](std::size_t index, detail::RankMapping&& mapping) {
            StreamedTrace& from = files[index].trace;
            // The whole trace's activities are already shifted to its own t = 0; the sorted
            // runs are not (StreamedTrace::shift_ns).
            if (from.activity_count > 0) {
                const std::int64_t start = from.first_start_ns + mapping.shift_ns;
                first_start = std::min(first_start.value_or(start), start);
            }
            mapping.shift_ns -= from.shift_ns;
            job.trace.activity_count += from.activity_count;
            job.trace.has_gpu_work = job.trace.has_gpu_work || from.has_gpu_work;
            ranks.push_back({std::move(from.activities), std::move(mapping)});
        });
    job.trace.first_start_ns = first_start.value_or(0);
    job.trace.activities = std::make_unique<detail::JobActivities>(std::move(ranks));
    return job;
}

}  // namespace trainscope::profiler
