#pragma once

#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "profiler/formats/detail/KinetoJsonReader.hpp"

namespace trainscope::profiler::detail {

// Parses one batch of "traceEvents" that the reader's scan cut out: whole events in a
// JSON array, `[{...}, {...}]`, flattened one by one (KinetoJsonFlatten). The reader runs
// one for its own batches; a KinetoParsePool runs one per worker, so that batches are
// parsed on several cores while the reader scans on.
class KinetoBatchParser {
  public:
    explicit KinetoBatchParser(std::filesystem::path file) : file_(std::move(file)) {}

    // `json` holds `length` bytes, readable up to `allocated` (at least
    // simdjson::SIMDJSON_PADDING more); `file_offset` is the file's byte at json[0], for
    // the error message. Each event goes to `on_event` as the reader's scratch object.
    // Throws TraceFormatError naming the file and the byte on malformed JSON.
    void parse(const char* json, std::size_t length, std::size_t allocated,
               std::uintmax_t file_offset, const std::function<void(KinetoRawObject&)>& on_event);

  private:
    [[noreturn]] void fail_at(std::uintmax_t byte, const char* message) const;

    std::filesystem::path file_;
    simdjson::ondemand::parser parser_;
    KinetoRawObject object_;
    std::string prefix_;
};

}  // namespace trainscope::profiler::detail
