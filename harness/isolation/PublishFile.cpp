#include "harness/isolation/PublishFile.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <system_error>

namespace trainscope::harness {

void publish_file(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::error_code ec;
    std::filesystem::rename(from, to, ec);
    if (!ec)
        return;
    if (ec != std::errc::cross_device_link)
        throw std::filesystem::filesystem_error("cannot move the result into place", from, to, ec);
    const std::filesystem::path temp = to.string() + ".tmp";
    std::filesystem::copy_file(from, temp, std::filesystem::copy_options::overwrite_existing);
    const int fd = ::open(temp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0 || ::fsync(fd) != 0) {
        if (fd >= 0)
            ::close(fd);
        throw std::runtime_error("cannot flush " + temp.string() + " to disk");
    }
    ::close(fd);
    std::filesystem::rename(temp, to);
    std::filesystem::remove(from, ec);
}

std::filesystem::path local_staging(const std::filesystem::path& to) {
    struct stat target {};
    struct stat scratch {};
    const std::filesystem::path local = local_scratch();
    const bool same = ::stat(to.parent_path().c_str(), &target) == 0 &&
                      ::stat(local.c_str(), &scratch) == 0 && target.st_dev == scratch.st_dev;
    const std::filesystem::path staging =
        same ? std::filesystem::path(to.string() + ".tmp")
             : local / ("trainscope-staging-" + std::to_string(::getpid()) + "-" +
                        to.filename().string());
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(staging.string() + suffix, ec);
    return staging;
}

std::filesystem::path local_scratch() {
    const char* tmp = std::getenv("TMPDIR");
    return tmp != nullptr && *tmp != '\0' ? std::filesystem::path(tmp)
                                          : std::filesystem::path("/tmp");
}

}  // namespace trainscope::harness
