#pragma once

#include <filesystem>
#include <string>

#include "common/InputError.hpp"

namespace trainscope::profiler {

// A trace file that cannot be read as the format it claims to be: missing, truncated,
// corrupt, or holding values out of range. The message always names the file.
class TraceFormatError : public InputError {
  public:
    TraceFormatError(const std::filesystem::path& file, const std::string& problem);

    [[nodiscard]] const std::filesystem::path& file() const { return file_; }

  private:
    std::filesystem::path file_;
};

}  // namespace trainscope::profiler
