#include "harness/isolation/ScratchDir.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace trainscope::harness {

ScratchDir::ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "trainscope-cell-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) {
        throw std::runtime_error("cannot create a scratch folder in " +
                                 std::filesystem::temp_directory_path().string() + ": " +
                                 std::strerror(errno) + " (set TMPDIR to a writable folder)");
    }
    path_ = pattern;
}

ScratchDir::~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

}  // namespace trainscope::harness
