#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope::profiler {

TraceFormatError::TraceFormatError(const std::filesystem::path& file, const std::string& problem)
    : InputError(file.string() + ": " + problem), file_(file) {}

}  // namespace trainscope::profiler
