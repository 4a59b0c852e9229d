#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::harness {

// How a multi-rank cell starts (docs/distributed.md): its child becomes
// `mpirun -np N --oversubscribe --bind-to none [--allow-run-as-root] <this binary> __cell
// JOB DIR`, every rank running the same child code; rank 0 writes the cell's result as a
// single-rank child does and rank r > 0 writes its own beside it (rank_file), which the
// parent merges.

// Who starts the ranks: mpirun locally; srun inside a Slurm allocation (the Slurm
// executor's array task holds --ntasks for them), which starts them as one job step
// wherever Slurm placed the tasks and hands MPI its ranks through PMIx.
enum class RankLauncher { Mpirun, Srun };

// The first mpirun (or mpiexec) on PATH; empty when there is none.
std::filesystem::path find_mpirun();
// The launcher's program on PATH (mpirun/mpiexec, or srun); empty when there is none.
std::filesystem::path find_launcher(RankLauncher launcher);

// The argv that starts `ranks` copies of `command` under mpirun. as_root adds
// --allow-run-as-root (OpenMPI refuses root otherwise; containers run as root).
std::vector<std::string> mpirun_command(const std::filesystem::path& mpirun, int ranks,
                                        bool as_root, const std::vector<std::string>& command);

// The argv that starts `ranks` copies of `command` as one Slurm job step:
// --mpi=pmix (Debian's Slurm and OpenMPI both speak PMIx), --kill-on-bad-exit so that a
// rank that dies ends its siblings as mpirun does.
std::vector<std::string> srun_command(const std::filesystem::path& srun, int ranks,
                                      const std::vector<std::string>& command);

// Where rank `rank` writes the file `name` in a cell's result folder: rank 0 the name
// itself, rank r "rank<r>.<name>".
std::filesystem::path rank_file(const std::filesystem::path& folder, int rank,
                                const std::string& name);

// This process's rank when an MPI launcher started it for a multi-rank cell.
std::optional<int> launched_rank();

// A rank's trace, recorded by tracers that know one process: every lane and counter series
// becomes rank `rank`'s and the trace one of `world_size` ranks, so that the merged run
// keeps them apart (lanes grouped by rank, a memory stack per rank); its collectives
// become rank `rank`'s too.
void mark_trace_rank(profiler::Trace& trace, int rank, int world_size);

}  // namespace trainscope::harness
