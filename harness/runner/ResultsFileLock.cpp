#include "harness/runner/ResultsFileLock.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <system_error>

#include "harness/cli/UsageError.hpp"
#include "harness/runner/MatrixPlan.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"

namespace trainscope::harness {

namespace {

// SQLite locks bytes near 1 GiB of the file; ours lie from 2^62 on, where no database
// reaches, one byte per matrix.
constexpr off_t kLockBase = off_t{1} << 62;

// Stable across runs and builds (std::hash is not): FNV-1a over what makes two matrices
// the same for --resume (matrix_identity: the cells and the settings).
std::uint64_t matrix_key(const std::string& definition_json) {
    const std::string identity = matrix_identity(definition_json).value_or(definition_json);
    std::uint64_t hash = 14695981039346656037ULL;
    for (const unsigned char c : identity) {
        hash ^= c;
        hash *= 1099511628211ULL;
    }
    return hash;
}

// True unless the file holds a matrix: another run (of another matrix) may have recorded
// into the file this run created, and that must stay.
bool holds_no_results(const std::filesystem::path& database) {
    std::error_code ec;
    if (std::filesystem::file_size(database, ec) == 0 && !ec)
        return true;
    try {
        const reports::ResultsDatabase db(database, reports::OpenMode::ReadOnly);
        return reports::list_matrices(db).empty();
    } catch (const std::exception&) {
        return true;  // created here and never completed (a full disk): nobody's results
    }
}

}  // namespace

ResultsFileLock::ResultsFileLock(std::filesystem::path database, const std::string& definition_json)
    : database_(std::move(database)) {
    fd_ = open(database_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) {
        created_ = true;
    } else if (errno == EEXIST) {
        fd_ = open(database_.c_str(), O_RDWR | O_CLOEXEC);
    }
    if (fd_ < 0) {
        throw UsageError(
            fmt::format("cannot write --out '{}': {}", database_.string(), std::strerror(errno)));
    }
    struct flock lock {};
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = kLockBase + static_cast<off_t>(matrix_key(definition_json) & 0x3fffffffU);
    lock.l_len = 1;
    if (fcntl(fd_, F_OFD_SETLK, &lock) != 0) {
        const int error = errno;
        close(fd_);
        fd_ = -1;
        if (error == EAGAIN || error == EACCES) {
            throw UsageError(fmt::format(
                "another trainscope process is running this matrix into '{}' now; wait for it "
                "to end (then --resume runs what it did not record), or give another --out",
                database_.string()));
        }
        throw UsageError(fmt::format("cannot lock --out '{}' for this matrix: {}",
                                     database_.string(), std::strerror(error)));
    }
}

ResultsFileLock::~ResultsFileLock() {
    if (created_ && holds_no_results(database_)) {
        std::error_code ec;
        for (const char* suffix : {"", "-wal", "-shm", "-journal"})
            std::filesystem::remove(database_.string() + suffix, ec);
    }
    if (fd_ >= 0)
        close(fd_);
}

}  // namespace trainscope::harness
