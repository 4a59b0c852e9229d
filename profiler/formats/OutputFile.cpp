#include "profiler/formats/OutputFile.hpp"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <system_error>

namespace trainscope::profiler {

namespace {

std::string describe_kind(mode_t mode) {
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISDIR(mode))
        return "a folder";
    return "not a regular file";
}

[[noreturn]] void fail(const std::filesystem::path& target, const std::string& cause) {
    throw OutputFileError("cannot write '" + target.string() + "': " + cause);
}

}  // namespace

unsigned current_umask() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("Umask:", 0) == 0)
            return static_cast<unsigned>(std::stoul(line.substr(6), nullptr, 8));
    }
    return 022;
}

std::string why_not_replaceable(const std::filesystem::path& path) {
    struct stat st {};
    if (lstat(path.c_str(), &st) != 0)
        return errno == ENOENT ? "" : std::strerror(errno);
    if (S_ISREG(st.st_mode))
        return "";
    return "it is " + describe_kind(st.st_mode) +
           ", which trainscope never replaces with a file: choose another path";
}

AtomicOutputFile::AtomicOutputFile(std::filesystem::path target) : target_(std::move(target)) {
    if (const std::string why = why_not_replaceable(target_); !why.empty())
        fail(target_, why);
    std::string pattern = target_.string() + ".tmp-XXXXXX";
    const int fd = mkstemp(pattern.data());
    if (fd < 0)
        fail(target_, std::strerror(errno));
    // mkstemp makes the file private (0600); the result gets the permissions a new file
    // would have had.
    fchmod(fd, 0666 & ~current_umask());
    close(fd);
    temp_ = pattern;
    out_.open(temp_, std::ios::binary | std::ios::trunc);
    if (!out_) {
        const int error = errno;
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
        fail(target_, std::strerror(error));
    }
}

AtomicOutputFile::~AtomicOutputFile() {
    if (!committed_) {
        out_.close();
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
    }
}

void AtomicOutputFile::commit() {
    errno = 0;
    out_.flush();
    if (out_)
        out_.close();
    if (!out_) {
        const int error = errno;
        // A full disk often fails the buffered write without leaving errno set; say so
        // when the file system shows no space left.
        const std::filesystem::path folder =
            target_.has_parent_path() ? target_.parent_path() : std::filesystem::path(".");
        struct statvfs fs {};
        const bool full =
            error == ENOSPC || (statvfs(folder.c_str(), &fs) == 0 && fs.f_bavail == 0);
        fail(target_, full ? "the disk is full (free some space and try again)"
                           : (error != 0 ? std::strerror(error) : "the write failed"));
    }
    // Something may have appeared at the target while the file was written.
    if (const std::string why = why_not_replaceable(target_); !why.empty())
        fail(target_, why);
    std::error_code ec;
    std::filesystem::rename(temp_, target_, ec);
    if (ec)
        fail(target_, ec.message());
    committed_ = true;
}

}  // namespace trainscope::profiler
