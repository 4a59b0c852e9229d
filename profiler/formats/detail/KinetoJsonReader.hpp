#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace trainscope::profiler::detail {

// One scalar of a Kineto JSON object, flattened: "ph", "args.correlation",
// "args.grid[0]". Numbers keep their original text so that times convert exactly. Views:
// into the KinetoRawObject that holds the field, or, for a top-level scalar handed to a
// callback, into the reader's buffers for the time of the call.
struct KinetoField {
    std::string_view key;
    std::string_view text;
    bool is_string = false;
};

// One object of "traceEvents" (or of "deviceProperties"): its scalars up to two levels
// below the object (event -> args -> grid[i]); deeper values (input shapes) are skipped.
// The keys and texts lie one after another in one buffer of the object's: a parsing
// thread writes them in a row and the builder's thread reads them in a row, where
// strings of their own, recycled from event to event, cost each thread a cache miss per
// field (the key compare alone was 13 % of the import's samples). The reader refills one
// object per event, so the buffer keeps its capacity; a moved or swapped object keeps its
// views valid.
class KinetoRawObject {
  public:
    KinetoRawObject() = default;
    KinetoRawObject(const KinetoRawObject& other);
    KinetoRawObject& operator=(const KinetoRawObject& other);
    // The buffer moves with its views; the moved-from object is left empty.
    KinetoRawObject(KinetoRawObject&& other) noexcept;
    KinetoRawObject& operator=(KinetoRawObject&& other) noexcept;
    ~KinetoRawObject() = default;

    [[nodiscard]] const KinetoField* find(std::string_view key) const;
    [[nodiscard]] std::string_view text(std::string_view key) const;  // "" when absent
    [[nodiscard]] std::size_t size() const { return used_; }
    [[nodiscard]] const KinetoField& operator[](std::size_t i) const { return fields_[i]; }

    void clear() {
        used_ = 0;
        bytes_used_ = 0;
    }
    // Appends the field "prefix.name" ("prefix" alone when `name` is empty, "name" alone
    // when `prefix` is), its text copied.
    void add(std::string_view prefix, std::string_view name, std::string_view text, bool is_string);

  private:
    // Room for `n` more bytes; the fields' views follow the buffer when it moves.
    char* reserve(std::size_t n);

    std::vector<KinetoField> fields_;
    std::unique_ptr<char[]> bytes_;
    std::size_t capacity_ = 0;
    std::size_t bytes_used_ = 0;
    std::size_t used_ = 0;
};

// A batch of whole events as the reader's scan cut it out of "traceEvents": a JSON array
// "[{...}, {...}]" of `length` bytes, the first of them the file's byte `file_offset`.
// Valid only during the callback.
struct KinetoEventBytes {
    const char* json = nullptr;
    std::size_t length = 0;
    std::uintmax_t file_offset = 0;
};

struct KinetoJsonCallbacks {
    // The object is the reader's scratch, refilled for the next one: a callback may take
    // its content (swap it for an emptied object) instead of copying it.
    std::function<void(KinetoRawObject&)> on_event;   // traceEvents[i]
    std::function<void(KinetoRawObject&)> on_device;  // deviceProperties[i]
    // Scalars of the root object ("schemaVersion") and of its objects, keyed
    // "distributedInfo.rank".
    std::function<void(std::string_view, const KinetoField&)> on_top_level_scalar;
    // When set, the reader does not parse the batches of "traceEvents" itself: it hands
    // each one here, in file order, for other threads to parse (KinetoParsePool), and
    // on_event gets only the events of a "traceEvents" key written with escapes (read
    // with the rest of the document, after every batch).
    std::function<void(const KinetoEventBytes&)> on_event_batch;
};

// Streams the file (plain or gzip) in bounded pieces: a quick scan that respects strings
// cuts the "traceEvents" array into batches of whole events, and simdjson's On-Demand
// parser reads each batch; the rest of the document (a few kilobytes: device
// properties, distributedInfo, baseTimeNanoseconds) is parsed after the events, so
// callbacks for top-level scalars and devices come after every event. Memory stays near
// the batch size whatever the file size. Throws TraceFormatError naming `file` on
// malformed JSON or when the document is not an object with a "traceEvents" array.
void read_kineto_json(const std::filesystem::path& file, const KinetoJsonCallbacks& callbacks);

}  // namespace trainscope::profiler::detail
