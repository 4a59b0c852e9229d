#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace trainscope::profiler {

// A trace file that cannot be read as the format it claims to be: missing, truncated,
// corrupt, or holding values out of range. The message always names the file.
class TraceFormatError : public std::runtime_error {
  public:
    TraceFormatError(const std::filesystem::path& file, const std::string& problem);

    [[nodiscard]] const std::filesystem::path& file() const { return file_; }

  private:
    std::filesystem::path file_;
};

}  // namespace trainscope::profiler
