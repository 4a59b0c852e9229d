#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "tests/fuzz/FuzzInputs.hpp"

namespace trainscope::fuzz {

// The importers and readers under test take a path, so each input goes through a file:
// one per process and suffix, rewritten for every input, removed at exit.
class ScratchFile {
  public:
    explicit ScratchFile(const std::string& suffix);
    ~ScratchFile();
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    const std::filesystem::path& write(Bytes data);
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace trainscope::fuzz
