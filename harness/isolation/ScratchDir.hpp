#pragma once

#include <filesystem>

namespace trainscope::harness {

// A private folder under $TMPDIR for one cell's hand-over files, removed with its
// contents when the owner goes away.
class ScratchDir {
public:
    ScratchDir();
    ~ScratchDir();
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace trainscope::harness
