#include "tests/fuzz/ScratchFile.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <system_error>

namespace trainscope::fuzz {

ScratchFile::ScratchFile(const std::string& suffix)
    : path_(std::filesystem::temp_directory_path() /
            ("trainscope-fuzz-" + std::to_string(::getpid()) + suffix)) {}

ScratchFile::~ScratchFile() {
    // SQLite may leave its journal and WAL files beside a database it opened.
    for (const char* extra : {"", "-journal", "-wal", "-shm"}) {
        std::error_code ignored;
        std::filesystem::remove(path_.string() + extra, ignored);
    }
}

const std::filesystem::path& ScratchFile::write(Bytes data) {
    std::ofstream out(path_, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size()));
    out.close();
    if (!out) {
        // A fuzzing run that cannot write its inputs tests nothing: stop loudly.
        std::fprintf(stderr, "fuzz: cannot write %s\n", path_.c_str());
        std::abort();
    }
    return path_;
}

}  // namespace trainscope::fuzz
