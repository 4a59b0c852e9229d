#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "profiler/trace/Trace.hpp"

namespace trainscope::harness {

// How a multi-rank cell starts (docs/distributed.md): its child becomes
// `mpirun -np N --oversubscribe [--allow-run-as-root] <this binary> __cell JOB DIR`, every
// rank running the same child code; rank 0 writes the cell's result as a single-rank child
// does and rank r > 0 writes its own beside it (rank_file), which the parent merges.

// The first mpirun (or mpiexec) on PATH; empty when there is none.
std::filesystem::path find_mpirun();

// The argv that starts `ranks` copies of `command` under mpirun. as_root adds
// --allow-run-as-root (OpenMPI refuses root otherwise; containers run as root).
std::vector<std::string> mpirun_command(const std::filesystem::path& mpirun, int ranks,
                                        bool as_root, const std::vector<std::string>& command);

// Where rank `rank` writes the file `name` in a cell's result folder: rank 0 the name
// itself, rank r "rank<r>.<name>".
std::filesystem::path rank_file(const std::filesystem::path& folder, int rank,
                                const std::string& name);

// This process's rank when an MPI launcher started it for a multi-rank cell.
std::optional<int> launched_rank();

// A rank's trace, recorded by tracers that know one process: every lane becomes rank
// `rank`'s and the trace one of `world_size` ranks, so that the merged run keeps them
// apart (lanes grouped by rank); its collectives become rank `rank`'s too.
void mark_trace_rank(profiler::Trace& trace, int rank, int world_size);

}  // namespace trainscope::harness
