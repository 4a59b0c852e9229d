#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "harness/executor/SlurmClient.hpp"
#include "reports/store/RunRecord.hpp"

namespace trainscope::harness {

struct CollectResult {
    std::vector<reports::RunRecord> added;  // recorded now, with their new ids
    std::size_t already = 0;                // cells whose newest attempt was in before
    std::size_t waiting = 0;                // cells still pending or running in Slurm
};

// Merges the finished array tasks of the Slurm-run matrices of `out` (or only
// `matrix_id`) into it, all in one transaction. Idempotent: a cell is recorded once per
// matrix, keyed by its cell key; an ok run is never replaced, a failed one is replaced by
// a newer attempt's run. A task that ended without a result file (time limit, memory,
// scancel, node failure) is recorded as failed with Slurm's reason.
CollectResult collect_results(const std::filesystem::path& out, const SlurmClient* slurm,
                              std::optional<std::int64_t> matrix_id = std::nullopt);

}  // namespace trainscope::harness
