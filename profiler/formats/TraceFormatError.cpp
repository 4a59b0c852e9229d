#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope::profiler {

TraceFormatError::TraceFormatError(const std::filesystem::path& file, const std::string& problem)
    : std::runtime_error(file.string() + ": " + problem), file_(file) {}

}  // namespace trainscope::profiler
