#include "harness/isolation/ScratchDir.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace trainscope::harness {

namespace {

constexpr std::string_view kPrefix = "trainscope-cell-";

// The owner's pid in a folder name "trainscope-cell-<pid>-XXXXXX", or 0.
pid_t owner_of(std::string_view name) {
    if (name.substr(0, kPrefix.size()) != kPrefix)
        return 0;
    name.remove_prefix(kPrefix.size());
    long long pid = 0;
    const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
    if (ec != std::errc{} || end == name.data() + name.size() || *end != '-' || pid <= 0)
        return 0;
    return static_cast<pid_t>(pid);
}

}  // namespace

ScratchDir::ScratchDir() {
    const auto temp = std::filesystem::temp_directory_path();
    std::string pattern =
        (temp / (std::string(kPrefix) + std::to_string(getpid()) + "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a scratch folder in " + temp.string() + ": " +
                                 std::strerror(errno) + " (set TMPDIR to a writable folder)");
    }
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::size_t ScratchDir::remove_stale() {
    std::error_code ec;
    const auto temp = std::filesystem::temp_directory_path(ec);
    if (ec)
        return 0;
    std::size_t removed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(temp, ec)) {
        const pid_t owner = owner_of(entry.path().filename().string());
        struct stat st {};
        if (owner == 0 || lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) ||
            st.st_uid != geteuid()) {
            continue;
        }
        // Only a folder whose owner is gone: a live matrix (ours or another's) keeps its own.
        if (kill(owner, 0) == 0 || errno != ESRCH)
            continue;
        std::error_code remove_ec;
        std::filesystem::remove_all(entry.path(), remove_ec);
        removed += remove_ec ? 0 : 1;
    }
    return removed;
}

}  // namespace trainscope::harness
