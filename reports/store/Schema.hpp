#pragma once

namespace trainscope::reports::detail {

// The whole schema of version kSchemaVersion; documented column by column in
// docs/formats.md. Activities of one run are contiguous rowids (a run is written in one
// transaction) so trace_info's rowid range finds them without an index.
inline constexpr const char* kSchemaSql = R"sql(
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE matrices (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  created_utc TEXT NOT NULL,
  definition TEXT NOT NULL DEFAULT '',
  trainscope_version TEXT NOT NULL DEFAULT '',
  git_revision TEXT NOT NULL DEFAULT ''
);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  matrix_id INTEGER REFERENCES matrices(id),
  cell_key TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('ok', 'failed', 'skipped')),
  error TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL DEFAULT 'trainscope',
  started_utc TEXT NOT NULL DEFAULT '',
  finished_utc TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  model_params TEXT NOT NULL DEFAULT '',
  dataset TEXT NOT NULL DEFAULT '',
  precision TEXT NOT NULL DEFAULT '',
  batch INTEGER,
  optimizer TEXT NOT NULL DEFAULT '',
  learning_rate REAL,
  backend TEXT NOT NULL DEFAULT '',
  device TEXT NOT NULL DEFAULT '',
  allocator TEXT NOT NULL DEFAULT '',
  host_memory TEXT NOT NULL DEFAULT '',
  transfer TEXT NOT NULL DEFAULT '',
  placement TEXT NOT NULL DEFAULT '',
  activations TEXT NOT NULL DEFAULT '',
  cuda_graph TEXT NOT NULL DEFAULT '',
  trace_level TEXT NOT NULL DEFAULT '',
  threads INTEGER,
  seed INTEGER,
  emulated INTEGER NOT NULL DEFAULT 0,
  ranks INTEGER NOT NULL DEFAULT 1,
  bucket_mb REAL,
  overlap TEXT NOT NULL DEFAULT '',
  framework TEXT NOT NULL DEFAULT ''
);
CREATE INDEX runs_matrix ON runs (matrix_id, cell_key);
CREATE TABLE environment (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE TABLE metrics (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value REAL,
  unit TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
CREATE TABLE steps (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  step INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  duration_ns INTEGER NOT NULL,
  loss REAL,
  loss_scale REAL NOT NULL DEFAULT 1,
  skipped INTEGER NOT NULL DEFAULT 0,
  warmup INTEGER NOT NULL DEFAULT 0,
  data_ns INTEGER,
  PRIMARY KEY (run_id, step)
) WITHOUT ROWID;
CREATE TABLE evaluations (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  after_step INTEGER NOT NULL,
  epoch INTEGER NOT NULL,
  train_time_ns INTEGER NOT NULL,
  test_accuracy REAL,
  test_loss REAL,
  PRIMARY KEY (run_id, after_step)
) WITHOUT ROWID;
CREATE TABLE trace_info (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  base_ns INTEGER NOT NULL,
  capture_begin_ns INTEGER NOT NULL,
  capture_end_ns INTEGER NOT NULL,
  dropped_records INTEGER NOT NULL,
  source_clock_offset_ns INTEGER NOT NULL DEFAULT 0,
  world_size INTEGER NOT NULL DEFAULT 1,
  first_activity INTEGER,
  last_activity INTEGER,
  activity_count INTEGER NOT NULL
);
CREATE TABLE trace_metadata (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID;
CREATE TABLE strings (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  id INTEGER NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (run_id, id)
) WITHOUT ROWID;
CREATE TABLE lanes (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  lane INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  device INTEGER NOT NULL,
  stream_or_thread INTEGER NOT NULL,
  process INTEGER NOT NULL,
  name TEXT NOT NULL,
  rank INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (run_id, lane)
) WITHOUT ROWID;
CREATE TABLE activities (
  run_id INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  lane INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  name_id INTEGER NOT NULL,
  correlation INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  copy_kind INTEGER NOT NULL,
  depth INTEGER NOT NULL,
  grid_x INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
  block_x INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL,
  registers INTEGER NOT NULL,
  shared_mem_bytes INTEGER NOT NULL,
  graph_id INTEGER NOT NULL,
  device INTEGER NOT NULL
);
CREATE TABLE counter_series (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  series INTEGER NOT NULL,
  name TEXT NOT NULL,
  unit TEXT NOT NULL,
  device INTEGER NOT NULL,
  PRIMARY KEY (run_id, series)
) WITHOUT ROWID;
CREATE TABLE counters (
  run_id INTEGER NOT NULL,
  series INTEGER NOT NULL,
  t_ns INTEGER NOT NULL,
  value REAL NOT NULL
);
CREATE INDEX counters_run ON counters (run_id, series, t_ns);
)sql";

// Added in version 3 (a distributed trace's collectives); a new file and an upgraded one
// both create it from here.
inline constexpr const char* kCollectivesSql = R"sql(
CREATE TABLE collectives (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  kind INTEGER NOT NULL,
  lane INTEGER NOT NULL,
  start_ns INTEGER NOT NULL,
  end_ns INTEGER NOT NULL,
  sequence INTEGER NOT NULL,
  elements INTEGER NOT NULL,
  bytes INTEGER NOT NULL,
  group_size INTEGER NOT NULL,
  group_id INTEGER NOT NULL,
  dtype_id INTEGER NOT NULL
);
CREATE INDEX collectives_run ON collectives (run_id);
)sql";

// Added in version 4 (level-of-detail summaries of a trace's rows, made when the trace is
// stored; profiler/analysis/LaneSummary). lane_summary_runs says a run's summaries were
// made and with which parameters, so a run with none kept (a small trace) is told from a
// run stored before them. Each lane_summaries row is one level of one row (lane, depth):
// its buckets packed in a BLOB, kLaneSummaryRecordBytes each (docs/formats.md).
inline constexpr const char* kLaneSummariesSql = R"sql(
CREATE TABLE lane_summary_runs (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  base_width_ns INTEGER NOT NULL,
  level_factor INTEGER NOT NULL,
  min_per_bucket INTEGER NOT NULL
);
CREATE TABLE lane_summaries (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  lane INTEGER NOT NULL,
  depth INTEGER NOT NULL,
  level INTEGER NOT NULL,
  width_ns INTEGER NOT NULL,
  origin_ns INTEGER NOT NULL,
  bucket_count INTEGER NOT NULL,
  buckets BLOB NOT NULL,
  PRIMARY KEY (run_id, lane, depth, level)
);
)sql";

// Added in version 4 (memory by tensor class): a run's tensor-memory peak, broken down by
// class, and for a traced run its moment and the op then; the bytes in use per class over
// time are counter series named "memory/<class>". A new file and an upgraded one both
// create these from here.
inline constexpr const char* kMemoryPeaksSql = R"sql(
CREATE TABLE memory_peaks (
  run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
  t_ns INTEGER,
  phase TEXT NOT NULL,
  op TEXT NOT NULL
);
CREATE TABLE memory_peak_classes (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  class TEXT NOT NULL,
  bytes_at_peak INTEGER NOT NULL,
  max_bytes INTEGER NOT NULL,
  PRIMARY KEY (run_id, position)
) WITHOUT ROWID;
)sql";

// Added in version 4 (the roofline): an op's FLOPs, from its NVTX payload (the minimum
// bytes it moves go in the existing bytes column). A new file and an upgraded one both
// add it from here.
inline constexpr const char* kOpFlopsSql = R"sql(
ALTER TABLE activities ADD COLUMN flops REAL NOT NULL DEFAULT 0;
)sql";

// Added in version 5 (memory per rank): a counter series' rank (each rank of a job has its
// own memory/<class> and NVML series), and the memory peak of each rank, not only rank
// 0's. It rebuilds the version-4 peak tables with the rank in their keys (a version-4
// file's peaks become rank 0's); a new file runs it after kMemoryPeaksSql, as an upgraded
// one does.
inline constexpr const char* kRankMemorySql = R"sql(
ALTER TABLE counter_series ADD COLUMN rank INTEGER NOT NULL DEFAULT 0;
CREATE TABLE memory_peaks_by_rank (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  t_ns INTEGER,
  phase TEXT NOT NULL,
  op TEXT NOT NULL,
  PRIMARY KEY (run_id, rank)
) WITHOUT ROWID;
INSERT INTO memory_peaks_by_rank (run_id, rank, t_ns, phase, op)
  SELECT run_id, 0, t_ns, phase, op FROM memory_peaks;
DROP TABLE memory_peaks;
ALTER TABLE memory_peaks_by_rank RENAME TO memory_peaks;
CREATE TABLE memory_peak_classes_by_rank (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  rank INTEGER NOT NULL,
  position INTEGER NOT NULL,
  class TEXT NOT NULL,
  bytes_at_peak INTEGER NOT NULL,
  max_bytes INTEGER NOT NULL,
  PRIMARY KEY (run_id, rank, position)
) WITHOUT ROWID;
INSERT INTO memory_peak_classes_by_rank (run_id, rank, position, class, bytes_at_peak, max_bytes)
  SELECT run_id, 0, position, class, bytes_at_peak, max_bytes FROM memory_peak_classes;
DROP TABLE memory_peak_classes;
ALTER TABLE memory_peak_classes_by_rank RENAME TO memory_peak_classes;
)sql";

// Added in version 6 (smaller files): how a run's lane_summaries.buckets are written
// (reports::LaneSummaryEncoding). Runs stored before keep theirs packed (0); a new file
// and an upgraded one both add it from here.
inline constexpr const char* kLaneSummaryEncodingSql = R"sql(
ALTER TABLE lane_summary_runs ADD COLUMN encoding INTEGER NOT NULL DEFAULT 0;
)sql";

}  // namespace trainscope::reports::detail
