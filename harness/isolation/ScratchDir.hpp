#pragma once

#include <filesystem>

namespace trainscope::harness {

// A private folder under $TMPDIR for one cell's hand-over files
// ("trainscope-cell-<pid of the matrix>-XXXXXX"), removed with its contents when the owner
// goes away.
class ScratchDir {
  public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

    // Removes the folders left by matrices that were killed (kill -9 runs no destructor):
    // those of this user whose owner pid is no longer alive. Returns how many.
    static std::size_t remove_stale();

  private:
    std::filesystem::path path_;
};

}  // namespace trainscope::harness
