#pragma once

#include <simdjson.h>

#include <string>

#include "profiler/formats/detail/KinetoJsonReader.hpp"

namespace trainscope::profiler::detail {

// Names and values longer than this are refused: a real trace's longest names (C++
// template kernels) are a few kilobytes.
inline constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;

// What went wrong while flattening: simdjson's code, or a limit of ours (message set).
struct FlattenError {
    simdjson::error_code code = simdjson::SUCCESS;
    std::string message;
    [[nodiscard]] bool failed() const { return code != simdjson::SUCCESS || !message.empty(); }
};

// Appends the scalars of `object` to `out` as the importer reads them: "args.grid[0]",
// numbers as their JSON text, containers more than two levels below `object` skipped.
// `prefix` is scratch space; it comes back as it was given.
FlattenError flatten_object(simdjson::ondemand::object object, std::string& prefix,
                            KinetoRawObject& out);

// One scalar's text: a number as written, a string unescaped, "true", "null". A view
// into the document's buffers (or a literal), valid while the document is.
struct ScalarText {
    std::string_view text;
    bool is_string = false;
    bool is_container = false;  // an object or an array: no text
};
FlattenError scalar_text(simdjson::ondemand::value& value, ScalarText& out);

// Walks a value that is not kept, so that it is as valid as one that is (On-Demand
// would skip it checking only its brackets): a malformed number deep in an event's
// shapes is malformed JSON, as it was for the whole-document parser before.
FlattenError validate_value(simdjson::ondemand::value& value);

}  // namespace trainscope::profiler::detail
