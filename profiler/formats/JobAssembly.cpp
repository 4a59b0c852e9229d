#include "profiler/formats/JobAssembly.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>

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

std::int64_t first_event_ns(const Trace& trace) {
    std::int64_t first = std::numeric_limits<std::int64_t>::max();
    for (const Activity& a : trace.activities)
        first = std::min(first, a.start_ns);
    return first == std::numeric_limits<std::int64_t>::max() ? 0 : first;
}

std::string name_of(const std::filesystem::path& file) {
    return file.filename().string();
}

// Appends one rank's trace: lanes become that rank's, times move onto the job's clock.
// Ranks never share a lane, so nothing nests anew and one sort at the end suffices.
void append_rank(Trace& job, Trace&& from, std::int32_t rank) {
    const std::int64_t shift_ns = from.base_ns - job.base_ns;
    const LaneId lane_offset = static_cast<LaneId>(job.lanes.size());
    for (Lane& lane : from.lanes) {
        lane.rank = rank;
        lane.name = fmt::format("rank {} · {}", rank, lane.name);
        job.lanes.push_back(std::move(lane));
    }
    std::vector<StringId> string_map(from.strings.size());
    for (std::size_t i = 0; i < string_map.size(); ++i)
        string_map[i] = job.strings.intern(from.strings.at(static_cast<StringId>(i)));
    job.activities.reserve(job.activities.size() + from.activities.size());
    for (Activity a : from.activities) {
        a.start_ns += shift_ns;
        a.end_ns += shift_ns;
        a.lane += lane_offset;
        a.name = string_map[a.name];
        job.activities.push_back(a);
    }
    from.activities = {};
    for (CollectiveCall c : from.collectives) {
        c.start_ns += shift_ns;
        c.end_ns += shift_ns;
        c.lane += lane_offset;
        c.rank = rank;
        c.group = string_map[c.group];
        c.dtype = string_map[c.dtype];
        job.collectives.push_back(c);
    }
    for (CounterSeries& series : from.counters) {
        series.rank = rank;
        for (CounterSample& s : series.samples)
            s.t_ns += shift_ns;
        job.counters.push_back(std::move(series));
    }
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
    if (files.empty())
        throw JobAssemblyError("no trace files to import as a job");
    JobAssembly job;

    // Which rank is each file, and how do we know.
    std::size_t with_info = 0;
    for (const RankTraceFile& f : files)
        with_info += metadata_int(f.trace, "distributed.rank").has_value() ? 1 : 0;
    if (with_info != 0 && with_info != files.size()) {
        std::vector<std::string> without;
        for (const RankTraceFile& f : files) {
            if (!metadata_int(f.trace, "distributed.rank"))
                without.push_back(name_of(f.file));
        }
        throw JobAssemblyError(fmt::format(
            "some traces name their rank (distributedInfo) and some do not ({}): they look "
            "like files of different jobs; import each job on its own",
            fmt::join(without, ", ")));
    }
    bool names_say = true;
    for (const RankTraceFile& f : files)
        names_say = names_say && rank_from_file_name(f.file) >= 0;
    const RankSource source = with_info != 0 ? RankSource::DistributedInfo
                              : names_say    ? RankSource::FileName
                                             : RankSource::Order;

    std::optional<std::int64_t> world;
    std::string world_file;
    std::string backend_file;
    std::map<std::int32_t, std::size_t> file_of_rank;
    for (std::size_t i = 0; i < files.size(); ++i) {
        const RankTraceFile& f = files[i];
        std::int64_t rank = static_cast<std::int64_t>(i);
        if (source == RankSource::DistributedInfo) {
            rank = *metadata_int(f.trace, "distributed.rank");
            const auto w = metadata_int(f.trace, "distributed.world_size");
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
            const std::string b = metadata_text(f.trace, "distributed.backend");
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
        first_abs[i] = files[i].trace.base_ns + first_event_ns(files[i].trace);
        earliest = std::min(earliest, first_abs[i]);
        latest = std::max(latest, first_abs[i]);
    }
    job.start_spread_ns = latest - earliest;
    job.trace.base_ns = earliest;
    job.trace.world_size = job.world_size;
    job.trace.capture_begin_ns = std::numeric_limits<std::int64_t>::max();
    job.trace.capture_end_ns = std::numeric_limits<std::int64_t>::min();
    job.trace.source_clock_offset_ns = files.front().trace.source_clock_offset_ns;
    for (const auto& [rank, index] : file_of_rank) {
        RankTraceFile& f = files[index];
        if (f.trace.source_clock_offset_ns != job.trace.source_clock_offset_ns)
            job.trace.source_clock_offset_ns = 0;  // no one file clock to reproduce
        job.ranks.push_back(JobRank{rank, f.file, source, first_abs[index] - earliest});
        append_rank(job.trace, std::move(f.trace), rank);
    }
    job.trace.sort();
    job.trace.metadata["job.world_size"] = std::to_string(job.world_size);
    job.trace.metadata["job.ranks_present"] = std::to_string(job.ranks.size());
    job.trace.metadata["job.rank_source"] = std::string(to_string(source));
    job.trace.metadata["job.start_spread_ns"] = std::to_string(job.start_spread_ns);
    if (!job.backend.empty())
        job.trace.metadata["job.backend"] = job.backend;
    return job;
}

}  // namespace trainscope::profiler
