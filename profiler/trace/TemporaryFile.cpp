#include "profiler/trace/TemporaryFile.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <system_error>

namespace trainscope::profiler {

// Unnamed from the start where the file system allows (O_TMPFILE), so that no crash can
// leave a scratch file behind; else created and unlinked at once. In $TMPDIR: where /tmp
// is a tmpfs the bytes would be held in memory after all, and TMPDIR moves them to a disk.
namespace {

// nullptr (errno set) when it cannot be made.
std::FILE* unnamed_temporary_file() {
    const char* dir = std::getenv("TMPDIR");
    const std::string folder = dir != nullptr && *dir != '\0' ? dir : "/tmp";
    int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
        std::string path = folder + "/trainscope-scratch-XXXXXX";
        fd = ::mkstemp(path.data());
        if (fd < 0)
            return nullptr;
        ::unlink(path.c_str());
    }
    std::FILE* file = ::fdopen(fd, "w+b");
    if (file == nullptr)
        ::close(fd);
    return file;
}

}  // namespace

TemporaryFile::TemporaryFile(std::string purpose) : purpose_(std::move(purpose)) {
    errno = 0;
    file_.reset(unnamed_temporary_file());
    if (!file_)
        fail("creating a temporary file in $TMPDIR (or /tmp) for", "is $TMPDIR a writable folder?");
}

void TemporaryFile::fail(const char* doing, const char* hint) const {
    std::string what = std::string(doing) + " " + purpose_;
    if (hint != nullptr)
        what.append(" (").append(hint).append(")");
    throw std::system_error(errno != 0 ? errno : EIO, std::generic_category(), what);
}

std::int64_t TemporaryFile::append(std::span<const std::byte> bytes) {
    const std::int64_t at = size_;
    std::size_t done = 0;
    while (done < bytes.size()) {
        errno = 0;
        const ssize_t n = ::pwrite(fileno(file_.get()), bytes.data() + done, bytes.size() - done,
                                   static_cast<off_t>(at + static_cast<std::int64_t>(done)));
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            fail("writing a temporary file in $TMPDIR for", "is $TMPDIR full?");
        }
        done += static_cast<std::size_t>(n);
    }
    size_ += static_cast<std::int64_t>(bytes.size());
    return at;
}

void TemporaryFile::read(std::int64_t offset, std::span<std::byte> out) const {
    std::size_t done = 0;
    while (done < out.size()) {
        errno = 0;
        const ssize_t n = ::pread(fileno(file_.get()), out.data() + done, out.size() - done,
                                  static_cast<off_t>(offset + static_cast<std::int64_t>(done)));
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            fail("reading a temporary file in $TMPDIR for");
        }
        done += static_cast<std::size_t>(n);
    }
}

}  // namespace trainscope::profiler
