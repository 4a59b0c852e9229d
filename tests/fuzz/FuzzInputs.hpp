#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

// One function per fuzz target: each takes one input, does what trainscope does with such
// an input, and returns normally when trainscope handled it (a result, or the documented
// error for bad input). Anything else — a sanitizer report, an undocumented exception, a
// broken trace invariant — ends the process. libFuzzer drives these (tests/fuzz/*_fuzz)
// and the regression suite replays every input that once failed (fuzz_regression_test).
namespace trainscope::fuzz {

using Bytes = std::span<const std::uint8_t>;

// A Kineto JSON trace (plain or gzip) imported with profiler::import_kineto_trace.
void kineto_importer_input(Bytes data);
// Either an SQLite file (starts with "SQLite format 3") or an SQL script that builds one,
// imported with profiler::import_nsys_sqlite.
void nsys_sqlite_input(Bytes data);
// A matrix TOML file parsed with harness::parse_matrix_text.
void matrix_file_input(Bytes data);
// A cell job file read with harness::read_cell_job.
void cell_job_input(Bytes data);
// CUPTI activity records laid out in a buffer, decoded with CuptiActivityDecoder.
// Only in builds that have CUPTI (kHaveCuptiDecoder).
void cupti_decoder_input(Bytes data);
extern const bool kHaveCuptiDecoder;

}  // namespace trainscope::fuzz
