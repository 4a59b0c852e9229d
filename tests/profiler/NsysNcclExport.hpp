#pragma once

#include <cstdint>
#include <filesystem>

namespace trainscope::profiler::testing {

inline constexpr std::int64_t kGlobalTid = (std::int64_t{4242} << 24) | 4243;  // pid 4242, tid 4243

// One rank of a hand-made two-rank NCCL job as Nsight Systems exports it (the shared nsys
// export has no NCCL), written to `dir`/rank-<rank>.sqlite: the tables and columns the
// importer reads, an all-reduce and a send launched inside NCCL's NVTX ranges (with the
// extended payload nsys exports as JSON text), an all-gather launched outside any range,
// and a GEMM. `late` delays every kernel of the rank. GoogleTest failures on a fault.
std::filesystem::path write_rank(const std::filesystem::path& dir, int rank, std::int64_t late);

}  // namespace trainscope::profiler::testing
