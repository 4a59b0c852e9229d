#pragma once

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/InputError.hpp"

namespace trainscope::profiler {

// A file that cannot be written where the user asked: a device, FIFO or link in the way,
// a missing or read-only folder, a name too long, a full disk. The message names the
// path and the cause; the CLI prints it as one line and exits 2.
class OutputFileError : public InputError {
  public:
    using InputError::InputError;
};

// Why `path` may not be replaced by a new regular file, or "" when it may: it is absent,
// or a regular file (not a symbolic link). A character device, FIFO, socket, folder or
// link at the path is never replaced (as root, replacing /dev/full would break the
// machine).
std::string why_not_replaceable(const std::filesystem::path& path);

// The process's file-creation mask, read without changing it (umask() can only be read by
// setting it, which races with other threads creating files): files made private by
// mkstemp/mkdtemp get the permissions a plain new file would have had.
unsigned current_umask();

// Writes a file whole or not at all: the bytes go to a new private file beside the target
// (created exclusively, so a link planted there is not followed), which commit() renames
// over the target after checking again that the target may be replaced. A failed write
// (a full disk) or an exception before commit() removes the temporary file and leaves
// any previous file as it was.
class AtomicOutputFile {
  public:
    // Throws OutputFileError when the target may not be replaced or the folder refuses
    // the temporary file.
    explicit AtomicOutputFile(std::filesystem::path target);
    ~AtomicOutputFile();
    AtomicOutputFile(const AtomicOutputFile&) = delete;
    AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

    [[nodiscard]] std::ostream& stream() { return out_; }
    [[nodiscard]] const std::filesystem::path& target() const { return target_; }
    // Throws OutputFileError naming the target and the system's reason (e.g. "No space
    // left on device").
    void commit();

  private:
    std::filesystem::path target_;
    std::filesystem::path temp_;
    std::ofstream out_;
    bool committed_ = false;
};

}  // namespace trainscope::profiler
