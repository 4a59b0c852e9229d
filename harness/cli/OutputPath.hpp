#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace trainscope::harness {

// Output paths are checked before any work starts, so that a typo fails in a second
// rather than after an hour of training; each throws UsageError (exit 2) naming the flag,
// the path and the fix.

// A results database to create or add to (run --out, import -o): not empty, a name the
// file system takes, in a writable folder; an existing path must be a regular file that is
// a trainscope results database (or an empty SQLite file).
void check_database_output(const std::filesystem::path& path, std::string_view flag);

// A file to write whole (report --html, export -o): as above, and an existing path must be
// a regular file, never a device, FIFO, socket or symbolic link.
void check_file_output(const std::filesystem::path& path, std::string_view flag);

// A folder to write `file_names` into (report --csv): missing (then created), or a folder
// whose files of those names are regular files.
void check_folder_output(const std::filesystem::path& dir, std::string_view flag,
                         const std::vector<std::string>& file_names);

}  // namespace trainscope::harness
