#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace trainscope::profiler::detail {

// One scalar of a Kineto JSON object, flattened: "ph", "args.correlation",
// "args.grid[0]". Numbers keep their original text so that times convert exactly.
struct KinetoField {
    std::string key;
    std::string text;
    bool is_string = false;
};

// One object of "traceEvents" (or of "deviceProperties"): its scalars up to two levels
// below the object (event -> args -> grid[i]); deeper values (input shapes) are skipped.
struct KinetoRawObject {
    std::vector<KinetoField> fields;

    [[nodiscard]] const KinetoField* find(std::string_view key) const;
    [[nodiscard]] std::string_view text(std::string_view key) const;  // "" when absent
};

struct KinetoJsonCallbacks {
    std::function<void(const KinetoRawObject&)> on_event;   // traceEvents[i]
    std::function<void(const KinetoRawObject&)> on_device;  // deviceProperties[i]
    // Scalars of the root object ("schemaVersion") and of its objects, keyed
    // "distributedInfo.rank".
    std::function<void(std::string_view, const KinetoField&)> on_top_level_scalar;
};

// Streams the document through nlohmann's SAX parser: the 35 MB ResNet trace never
// becomes a DOM. Throws TraceFormatError naming `file` on malformed JSON or when the
// document is not an object with a "traceEvents" array.
void read_kineto_json(const std::string& content, const std::filesystem::path& file,
                      const KinetoJsonCallbacks& callbacks);

}  // namespace trainscope::profiler::detail
