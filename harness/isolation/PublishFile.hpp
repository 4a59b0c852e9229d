#pragma once

#include <filesystem>

namespace trainscope::harness {

// Moves a finished file to `to` so that readers there see no file or the whole one: a
// rename where both lie on one file system; else (node-local scratch to a shared file
// system) a copy to `to`.tmp, flushed to disk (fsync), renamed, and the original removed.
// SQLite files are written on node-local disk and published with this, since SQLite's
// locks and journals are not to be trusted on a network file system.
void publish_file(const std::filesystem::path& from, const std::filesystem::path& to);

// Where to write a file that publish_file will move to `to`: `to`.tmp when `to`'s folder
// lies on the node-local scratch's file system (one rename then), else a file in the
// node-local scratch named after this process and `to`. Whatever an earlier attempt left
// at that path (with SQLite's -wal and -shm) is removed first.
std::filesystem::path local_staging(const std::filesystem::path& to);

// Node-local scratch: $TMPDIR (which Slurm usually points at the node's disk), else /tmp.
std::filesystem::path local_scratch();

}  // namespace trainscope::harness
