#include "reports/csv/CsvSet.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "reports/csv/TableRenderer.hpp"

namespace trainscope::reports {

namespace {

using profiler::OutputFileError;

std::filesystem::path make_temp_folder(const std::string& prefix,
                                       const std::filesystem::path& for_dir) {
    std::string pattern = prefix + "XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        throw OutputFileError("cannot write the CSV files into '" + for_dir.string() +
                              "': " + std::strerror(errno));
    }
    return pattern;
}

// Removes the temporary folder unless released: an exception leaves nothing behind.
class TempFolder {
  public:
    explicit TempFolder(std::filesystem::path path) : path_(std::move(path)) {}
    ~TempFolder() {
        std::error_code ec;
        if (!path_.empty())
            std::filesystem::remove_all(path_, ec);
    }
    TempFolder(const TempFolder&) = delete;
    TempFolder& operator=(const TempFolder&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }
    void release() { path_.clear(); }

  private:
    std::filesystem::path path_;
};

}  // namespace

void write_csv_set(const std::filesystem::path& dir, const std::vector<NamedCsvTable>& files) {
    std::error_code ec;
    const bool existed = std::filesystem::exists(dir, ec);
    if (existed && !std::filesystem::is_directory(dir, ec)) {
        throw OutputFileError("cannot write the CSV files into '" + dir.string() +
                              "': it is not a folder (choose another --csv folder)");
    }
    for (const auto& f : files) {
        if (const std::string why = profiler::why_not_replaceable(dir / f.file_name);
            !why.empty()) {
            throw OutputFileError("cannot write '" + (dir / f.file_name).string() + "': " + why);
        }
    }
    std::filesystem::path parent = dir.parent_path();
    if (!existed && !parent.empty()) {
        std::filesystem::create_directories(parent, ec);
        if (ec) {
            throw OutputFileError("cannot create the folder '" + parent.string() +
                                  "': " + ec.message());
        }
    }
    // A new folder appears whole by one rename; into an existing one the files move one
    // by one, which needs no space and so cannot fail for a full disk.
    TempFolder temp(existed ? make_temp_folder((dir / ".trainscope-csv-").string(), dir)
                            : make_temp_folder(dir.string() + ".tmp-", dir));
    for (const auto& f : files)
        write_csv_table(*f.table, temp.path() / f.file_name);
    if (!existed) {
        // mkdtemp makes the folder private; the new folder gets the usual permissions.
        chmod(temp.path().c_str(), 0777 & ~profiler::current_umask());
        std::filesystem::rename(temp.path(), dir, ec);
        if (ec) {
            throw OutputFileError("cannot write the CSV files into '" + dir.string() +
                                  "': " + ec.message());
        }
        temp.release();
        return;
    }
    for (const auto& f : files) {
        std::filesystem::rename(temp.path() / f.file_name, dir / f.file_name, ec);
        if (ec) {
            throw OutputFileError("cannot write '" + (dir / f.file_name).string() +
                                  "': " + ec.message());
        }
    }
}

}  // namespace trainscope::reports
