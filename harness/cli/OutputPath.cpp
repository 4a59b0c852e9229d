#include "harness/cli/OutputPath.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

#include "harness/cli/UsageError.hpp"
#include "profiler/formats/OutputFile.hpp"
#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::harness {

namespace {

[[noreturn]] void refuse(std::string_view flag, const std::filesystem::path& path,
                         const std::string& why) {
    throw UsageError(fmt::format("cannot write {} '{}': {}", flag, path.string(), why));
}

std::filesystem::path folder_of(const std::filesystem::path& path) {
    return path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
}

// The checks every output path gets: given, a length the file system takes, and a folder
// that exists and may be written.
void check_name_and_folder(const std::filesystem::path& path, std::string_view flag) {
    if (path.empty())
        throw UsageError(fmt::format("{} is empty: give a path, e.g. {} results.db", flag, flag));
    if (path.string().size() >= PATH_MAX) {
        refuse(flag, path.string().substr(0, 60) + "...",
               fmt::format("the path is {} characters long; the system takes fewer than {}",
                           path.string().size(), PATH_MAX));
    }
    const std::filesystem::path folder = folder_of(path);
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) {
        refuse(flag, path,
               fmt::format("the folder '{}' does not exist (create it, or choose another path)",
                           folder.string()));
    }
    const long name_max = pathconf(folder.c_str(), _PC_NAME_MAX);
    const std::string name = path.filename().string();
    if (name_max > 0 && name.size() > static_cast<std::size_t>(name_max)) {
        refuse(flag, path.parent_path() / (name.substr(0, 40) + "..."),
               fmt::format("the file name is {} characters long; this file system takes at most "
                           "{} (choose a shorter name)",
                           name.size(), name_max));
    }
    if (access(folder.c_str(), W_OK | X_OK) != 0) {
        refuse(
            flag, path,
            fmt::format("the folder '{}' is not writable (choose another path)", folder.string()));
    }
}

}  // namespace

void check_database_output(const std::filesystem::path& path, std::string_view flag) {
    check_name_and_folder(path, flag);
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) {
        if (errno != ENOENT)
            refuse(flag, path, std::strerror(errno));
        struct stat link {};
        if (lstat(path.c_str(), &link) == 0)
            refuse(flag, path,
                   "it is a symbolic link to nothing (remove it, or choose another path)");
        return;  // a new file
    }
    if (S_ISDIR(st.st_mode))
        refuse(flag, path, "it is a folder: give a file path such as results.db");
    if (!S_ISREG(st.st_mode)) {
        refuse(flag, path,
               "it is not a regular file (a device, FIFO or socket); the results database "
               "must be a file: choose another path");
    }
    // An existing file must be a results database this build can add to.
    const reports::ResultsDatabase existing(path, reports::OpenMode::CreateOrOpen);
}

void check_file_output(const std::filesystem::path& path, std::string_view flag) {
    check_name_and_folder(path, flag);
    if (const std::string why = profiler::why_not_replaceable(path); !why.empty())
        refuse(flag, path, why);
}

void check_folder_output(const std::filesystem::path& dir, std::string_view flag,
                         const std::vector<std::string>& file_names) {
    if (dir.empty())
        throw UsageError(fmt::format("{} is empty: give a folder, e.g. {} report", flag, flag));
    std::error_code ec;
    struct stat st {};
    if (lstat(dir.c_str(), &st) != 0) {
        // Missing: created with its parents; the nearest existing one must be writable.
        std::filesystem::path existing = folder_of(dir);
        while (!existing.empty() && !std::filesystem::exists(existing, ec))
            existing = folder_of(existing);
        if (!std::filesystem::is_directory(existing, ec) ||
            access(existing.c_str(), W_OK | X_OK) != 0) {
            refuse(flag, dir,
                   fmt::format("the folder '{}' is not writable (choose another folder)",
                               existing.string()));
        }
        return;
    }
    if (!std::filesystem::is_directory(dir, ec))
        refuse(flag, dir, "it is not a folder (choose another folder)");
    if (access(dir.c_str(), W_OK | X_OK) != 0)
        refuse(flag, dir, "the folder is not writable (choose another folder)");
    for (const auto& name : file_names)
        check_file_output(dir / name, flag);
}

}  // namespace trainscope::harness
