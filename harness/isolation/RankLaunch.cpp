#include "harness/isolation/RankLaunch.hpp"

#include <cstdlib>

#include "harness/executor/Subprocess.hpp"

namespace trainscope::harness {

std::filesystem::path find_mpirun() {
    for (const char* name : {"mpirun", "mpiexec"}) {
        if (auto found = find_on_path(name))
            return *found;
    }
    return {};
}

std::filesystem::path find_launcher(RankLauncher launcher) {
    return launcher == RankLauncher::Srun ? find_on_path("srun").value_or(std::filesystem::path())
                                          : find_mpirun();
}

std::vector<std::string> srun_command(const std::filesystem::path& srun, int ranks,
                                      const std::vector<std::string>& command) {
    std::vector<std::string> argv{srun.string(), "--mpi=pmix", "--ntasks=" + std::to_string(ranks),
                                  "--kill-on-bad-exit=1"};
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

std::vector<std::string> mpirun_command(const std::filesystem::path& mpirun, int ranks,
                                        bool as_root, const std::vector<std::string>& command) {
    // --oversubscribe: more ranks than cores is a measurement choice here, not a mistake.
    // --bind-to none: mpirun binds each of up to 2 ranks to one core by default, which
    // confines a rank's --threads workers to that core and keeps it there however busy the
    // core is, so the rank on the busier core set every all-reduce's pace (measured on the
    // 2-core development machine: 90 % of the step waiting, against 4 % unbound).
    std::vector<std::string> argv{mpirun.string(),   "-np",       std::to_string(ranks),
                                  "--oversubscribe", "--bind-to", "none"};
    if (as_root)
        argv.emplace_back("--allow-run-as-root");
    argv.insert(argv.end(), command.begin(), command.end());
    return argv;
}

std::filesystem::path rank_file(const std::filesystem::path& folder, int rank,
                                const std::string& name) {
    return rank == 0 ? folder / name : folder / ("rank" + std::to_string(rank) + "." + name);
}

std::optional<int> launched_rank() {
    // OpenMPI's mpirun, then PMIx and PMI2 (srun --mpi=pmix|pmi2).
    for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"}) {
        if (const char* value = std::getenv(name); value != nullptr && *value != '\0')
            return std::atoi(value);
    }
    return std::nullopt;
}

void mark_trace_rank(profiler::Trace& trace, int rank, int world_size) {
    for (profiler::Lane& lane : trace.lanes)
        lane.rank = rank;
    for (profiler::CounterSeries& series : trace.counters)
        series.rank = rank;
    // The host tracer records collectives without knowing the rank or the world.
    for (profiler::CollectiveCall& c : trace.collectives) {
        c.rank = rank;
        if (c.group_size == 0)
            c.group_size = world_size;
    }
    trace.world_size = world_size;
}

}  // namespace trainscope::harness
