#include "profiler/formats/detail/KinetoJsonReader.hpp"

#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/formats/detail/CompressedFile.hpp"
#include "profiler/formats/detail/KinetoBatchParser.hpp"
#include "profiler/formats/detail/KinetoJsonFlatten.hpp"
#include "profiler/formats/detail/KinetoJsonScan.hpp"

namespace trainscope::profiler::detail {

KinetoRawObject::KinetoRawObject(const KinetoRawObject& other) {
    *this = other;
}

KinetoRawObject& KinetoRawObject::operator=(const KinetoRawObject& other) {
    if (this != &other) {
        clear();
        for (std::size_t i = 0; i < other.size(); ++i)
            add({}, other[i].key, other[i].text, other[i].is_string);
    }
    return *this;
}

KinetoRawObject::KinetoRawObject(KinetoRawObject&& other) noexcept
    : fields_(std::move(other.fields_)),
      bytes_(std::move(other.bytes_)),
      capacity_(std::exchange(other.capacity_, 0)),
      bytes_used_(std::exchange(other.bytes_used_, 0)),
      used_(std::exchange(other.used_, 0)) {
    other.fields_.clear();
}

KinetoRawObject& KinetoRawObject::operator=(KinetoRawObject&& other) noexcept {
    if (this != &other) {
        fields_ = std::move(other.fields_);
        bytes_ = std::move(other.bytes_);
        capacity_ = std::exchange(other.capacity_, 0);
        bytes_used_ = std::exchange(other.bytes_used_, 0);
        used_ = std::exchange(other.used_, 0);
        other.fields_.clear();
    }
    return *this;
}

const KinetoField* KinetoRawObject::find(std::string_view key) const {
    for (std::size_t i = 0; i < used_; ++i) {
        if (fields_[i].key == key)
            return &fields_[i];
    }
    return nullptr;
}

std::string_view KinetoRawObject::text(std::string_view key) const {
    const KinetoField* f = find(key);
    return f ? f->text : std::string_view();
}

char* KinetoRawObject::reserve(std::size_t n) {
    if (bytes_used_ + n > capacity_) {
        const std::size_t capacity = std::max({std::size_t{1024}, 2 * capacity_, bytes_used_ + n});
        auto bytes = std::make_unique_for_overwrite<char[]>(capacity);
        const char* old = bytes_.get();
        if (bytes_used_ != 0)
            std::memcpy(bytes.get(), old, bytes_used_);
        const auto moved = [&](std::string_view v) {
            return v.empty() ? std::string_view()
                             : std::string_view(bytes.get() + (v.data() - old), v.size());
        };
        for (std::size_t i = 0; i < used_; ++i) {
            fields_[i].key = moved(fields_[i].key);
            fields_[i].text = moved(fields_[i].text);
        }
        bytes_ = std::move(bytes);
        capacity_ = capacity;
    }
    char* at = bytes_.get() + bytes_used_;
    bytes_used_ += n;
    return at;
}

void KinetoRawObject::add(std::string_view prefix, std::string_view name, std::string_view text,
                          bool is_string) {
    const std::size_t dot = !prefix.empty() && !name.empty() ? 1 : 0;
    const std::size_t key_size = prefix.size() + dot + name.size();
    char* at = reserve(key_size + text.size());
    // Copied before any view is made: `prefix`, `name` and `text` are never this buffer's.
    const auto put = [](char* to, std::string_view from) {
        if (!from.empty())  // an empty view's data() may be null, which memcpy may not get
            std::memcpy(to, from.data(), from.size());
    };
    put(at, prefix);
    if (dot != 0)
        at[prefix.size()] = '.';
    put(at + prefix.size() + dot, name);
    put(at + key_size, text);
    if (used_ == fields_.size())
        fields_.emplace_back();
    KinetoField& f = fields_[used_++];
    f.key = std::string_view(at, key_size);
    f.text = std::string_view(at + key_size, text.size());
    f.is_string = is_string;
}

namespace {

namespace od = simdjson::ondemand;

// Events are read in batches of about this many bytes: large enough that simdjson runs
// at full speed, small enough that its index (about 4 bytes per input byte) stays small.
constexpr std::size_t kBatchBytes = std::size_t{2} << 20;
// Batches handed to other threads to parse (on_event_batch) end at the first separator
// after this many bytes: a few of them in flight, flattened, stay in the cores' caches.
constexpr std::size_t kHandedBatchBytes = std::size_t{64} << 10;
// One event may be at most this large; the buffer grows to hold it.
constexpr std::size_t kMaxEventBytes = std::size_t{256} << 20;
// The document outside "traceEvents" (device properties, distributedInfo) is kept whole;
// a real trace has a few kilobytes of it.
constexpr std::size_t kMaxOutsideBytes = std::size_t{256} << 20;
// A real trace nests five levels.
constexpr std::size_t kMaxNesting = 100;

static_assert(simdjson::SIMDJSON_PADDING >= kScanBlock,
              "the scan reads past the filled bytes into simdjson's padding");

bool is_space(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

class KinetoStreamReader {
  public:
    KinetoStreamReader(const std::filesystem::path& file, const KinetoJsonCallbacks& callbacks)
        : in_(file),
          callbacks_(callbacks),
          hand_batches_(static_cast<bool>(callbacks.on_event_batch)),
          batch_parser_(file) {
        buffer_.resize(kBatchBytes + simdjson::SIMDJSON_PADDING);
    }

    void run() {
        for (;;) {
            if (pos_ == filled_ && !refill())
                break;
            if (in_events_) {
                scan_events();
            } else {
                scan_outside();
            }
        }
        if (total_bytes_ == 0)
            fail_plain("file is empty");
        if (in_string_ || !stack_.empty()) {
            fail_plain("malformed JSON: the document ends early at byte " +
                       std::to_string(total_bytes_) + " (a truncated file?)");
        }
        parse_outside();
    }

  private:
    [[noreturn]] void fail_plain(const std::string& message) const {
        throw TraceFormatError(in_.file(), message);
    }
    [[noreturn]] void fail_at(std::size_t index, const std::string& message) const {
        fail_plain("malformed JSON at byte " + std::to_string(buffer_offset_ + index) + ": " +
                   message);
    }

    std::size_t capacity() const { return buffer_.size() - simdjson::SIMDJSON_PADDING; }

    // Parses the batch that is complete, drops what has been read, reads more.
    bool refill() {
        std::size_t keep_from = filled_;
        if (in_events_) {
            if (last_separator_ != kNone) {
                parse_batch(batch_begin_, last_separator_, false);
                batch_begin_ = last_separator_ + 1;
                last_separator_ = kNone;
            }
            keep_from = batch_begin_ - 1;  // the byte before a batch becomes its '['
        }
        std::memmove(buffer_.data(), buffer_.data() + keep_from, filled_ - keep_from);
        buffer_offset_ += keep_from;
        filled_ -= keep_from;
        pos_ -= keep_from;
        if (in_events_)
            batch_begin_ -= keep_from;
        if (filled_ == capacity()) {
            if (capacity() >= kMaxEventBytes) {
                fail_at(filled_, "an event of more than " + std::to_string(kMaxEventBytes >> 20) +
                                     " MiB in traceEvents");
            }
            buffer_.resize(capacity() * 2 + simdjson::SIMDJSON_PADDING);
        }
        const std::size_t n = in_.read(buffer_.data() + filled_, capacity() - filled_);
        filled_ += n;
        total_bytes_ += n;
        return n != 0;
    }

    void open(char c) {
        if (stack_.size() >= kMaxNesting) {
            fail_plain("JSON nested deeper than " + std::to_string(kMaxNesting) +
                       " levels (a Kineto trace nests about five)");
        }
        stack_.push_back(c);
    }
    void close(char c, std::size_t index) {
        const char expected = c == '}' ? '{' : '[';
        if (stack_.empty() || stack_.back() != expected)
            fail_at(index, std::string("unexpected '") + c + "'");
        stack_.pop_back();
    }

    // Inside "traceEvents": only strings and brackets matter; a ',' at the array's own
    // level separates two events and is where a batch may end. The scan reads every byte
    // of the file, so it finds the brackets and commas outside strings 64 bytes at a time
    // (KinetoJsonScan) and visits only those.
    void scan_events() {
        const char* data = buffer_.data();
        std::size_t i = pos_;
        const std::size_t end = filled_;
        ScanState state{in_string_, escape_};
        while (i < end) {
            const std::size_t n = std::min(kScanBlock, end - i);
            std::uint64_t structural = scan_block(data + i, n, state).structural;
            while (structural != 0) {
                const std::size_t at = i + static_cast<std::size_t>(__builtin_ctzll(structural));
                structural &= structural - 1;
                const char c = data[at];
                if (c == ',') {
                    if (stack_.size() == 2) {
                        saw_separator_ = true;
                        last_separator_ = at;
                        if (hand_batches_ && at - batch_begin_ >= kHandedBatchBytes) {
                            parse_batch(batch_begin_, at, false);
                            batch_begin_ = at + 1;
                            last_separator_ = kNone;
                        }
                    }
                } else if (c == '{' || c == '[') {
                    open(c);
                } else {
                    close(c, at);
                    if (stack_.size() == 1) {  // the end of "traceEvents"
                        parse_batch(batch_begin_, at, true);
                        in_events_ = false;
                        in_string_ = false;
                        escape_ = false;
                        outside_.push_back(']');
                        pos_ = at + 1;
                        return;
                    }
                }
            }
            i += n;
        }
        in_string_ = state.in_string;
        escape_ = state.escape;
        pos_ = i;
    }

    // Outside "traceEvents" every byte is kept for the parse at the end; the scan only
    // finds where the events array starts.
    void scan_outside() {
        const char* data = buffer_.data();
        std::size_t i = pos_;
        const std::size_t start = i;
        for (; i < filled_; ++i) {
            const char c = data[i];
            if (in_string_) {
                if (escape_) {
                    escape_ = false;
                } else if (c == '\\') {
                    escape_ = true;
                } else if (c == '"') {
                    in_string_ = false;
                } else if (stack_.size() == 1 && key_.size() < 32) {
                    key_.push_back(c);
                }
                continue;
            }
            if (finished_ && !is_space(c))
                fail_at(i, "text after the end of the document");
            switch (c) {
                case '"':
                    in_string_ = true;
                    key_.clear();
                    break;
                case ':':
                    if (stack_.size() == 1)
                        current_key_ = key_;
                    break;
                case ',':
                    current_key_.clear();
                    break;
                case '{':
                case '[':
                    if (c == '[' && stack_.size() == 1 && current_key_ == "traceEvents") {
                        open(c);
                        outside_.append(data + start, i + 1 - start);
                        in_events_ = true;
                        saw_separator_ = false;
                        batch_begin_ = i + 1;
                        last_separator_ = kNone;
                        pos_ = i + 1;
                        return;
                    }
                    open(c);
                    break;
                case '}':
                case ']':
                    close(c, i);
                    finished_ = stack_.empty();
                    break;
                default:
                    break;
            }
        }
        outside_.append(data + start, i - start);
        if (outside_.size() > kMaxOutsideBytes) {
            fail_plain("not a Kineto/Chrome trace: more than " +
                       std::to_string(kMaxOutsideBytes >> 20) +
                       " MiB outside a top-level \"traceEvents\" array");
        }
        pos_ = i;
    }

    // Events between `begin` and `end` (a separator or the array's ']') as one JSON
    // array in place, the byte before `begin` made '[' and the one at `end` ']': parsed
    // here, or handed to on_event_batch to be parsed on another thread.
    void parse_batch(std::size_t begin, std::size_t end, bool last) {
        std::size_t first = begin;
        while (first < end && is_space(buffer_[first]))
            ++first;
        if (first == end) {
            if (!last || saw_separator_)
                fail_at(end, "an empty element (two commas, or a comma before ']')");
            return;
        }
        buffer_[begin - 1] = '[';
        buffer_[end] = ']';
        const std::size_t length = end + 1 - (begin - 1);
        const std::size_t allocated = buffer_.size() - (begin - 1);
        const char* json = buffer_.data() + begin - 1;
        if (callbacks_.on_event_batch) {
            callbacks_.on_event_batch({json, length, buffer_offset_ + begin - 1});
            return;
        }
        batch_parser_.parse(json, length, allocated, buffer_offset_ + begin - 1,
                            callbacks_.on_event);
    }

    // The document without its events: "{"schemaVersion": 1, ..., "traceEvents": [],
    // "baseTimeNanoseconds": ...}".
    void parse_outside() {
        const simdjson::padded_string padded(outside_);
        od::parser parser;
        od::document doc;
        const auto fail = [this](simdjson::error_code e) {
            fail_plain(std::string("malformed JSON outside traceEvents: ") +
                       simdjson::error_message(e));
        };
        if (auto e = parser.iterate(padded).get(doc))
            fail(e);
        od::json_type type;
        if (auto e = doc.type().get(type))
            fail(e);
        bool saw_events = false;
        if (type == od::json_type::object) {
            od::object root;
            if (auto e = doc.get_object().get(root))
                fail(e);
            for (auto member : root) {
                od::field field;
                std::string_view key_view;
                if (auto e = std::move(member).get(field))
                    fail(e);
                if (auto e = field.unescaped_key().get(key_view))
                    fail(e);
                const std::string key(key_view);
                saw_events = read_top_level(key, field.value(), fail) || saw_events;
            }
        } else {
            // Still read it through, so that malformed JSON is named as such.
            if (auto e = doc.raw_json().error())
                fail(e);
        }
        if (type != od::json_type::object || !saw_events) {
            fail_plain("not a Kineto/Chrome trace: no top-level \"traceEvents\" array");
        }
    }

    template <typename Fail>
    bool read_top_level(const std::string& key, od::value value, const Fail& fail) {
        ScalarText scalar;
        FlattenError error = scalar_text(value, scalar);
        if (error.failed()) {
            if (!error.message.empty())
                fail_plain(error.message);
            fail(error.code);
        }
        if (!scalar.is_container) {
            if (callbacks_.on_top_level_scalar)
                callbacks_.on_top_level_scalar(key, {key, scalar.text, scalar.is_string});
            return false;
        }
        od::json_type type;
        if (auto e = value.type().get(type))
            fail(e);
        if (type == od::json_type::object) {
            od::object object;
            if (auto e = value.get_object().get(object))
                fail(e);
            for (auto member : object) {
                od::field inner;
                std::string_view inner_key;
                if (auto e = std::move(member).get(inner))
                    fail(e);
                if (auto e = inner.unescaped_key().get(inner_key))
                    fail(e);
                ScalarText inner_scalar;
                error = scalar_text(inner.value(), inner_scalar);
                if (error.failed()) {
                    if (!error.message.empty())
                        fail_plain(error.message);
                    fail(error.code);
                }
                if (inner_scalar.is_container) {
                    error = validate_value(inner.value());
                    if (error.failed())
                        fail(error.code);
                    continue;
                }
                // A top-level object's scalars ("distributedInfo": {"rank": 3}) as
                // "distributedInfo.rank".
                const std::string inner_name = key + "." + std::string(inner_key);
                if (callbacks_.on_top_level_scalar) {
                    callbacks_.on_top_level_scalar(
                        inner_name, {inner_name, inner_scalar.text, inner_scalar.is_string});
                }
            }
            return false;
        }
        // An array: the devices, or events whose key the scan did not recognise as
        // "traceEvents" because it is written with escapes.
        const bool events = key == "traceEvents";
        od::array array;
        if (auto e = value.get_array().get(array))
            fail(e);
        for (auto element : array) {
            od::value item;
            if (auto e = element.get(item))
                fail(e);
            od::json_type item_type;
            if (auto e = item.type().get(item_type))
                fail(e);
            if (item_type != od::json_type::object || (!events && key != "deviceProperties")) {
                error = validate_value(item);
                if (error.failed())
                    fail(error.code);
                continue;
            }
            od::object object;
            if (auto e = item.get_object().get(object))
                fail(e);
            object_.clear();
            error = flatten_object(object, prefix_, object_);
            if (error.failed()) {
                if (!error.message.empty())
                    fail_plain(error.message);
                fail(error.code);
            }
            const auto& callback = events ? callbacks_.on_event : callbacks_.on_device;
            if (callback)
                callback(object_);
        }
        return events;
    }

    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

    CompressedFileReader in_;
    const KinetoJsonCallbacks& callbacks_;
    bool hand_batches_;
    std::vector<char> buffer_;
    std::size_t filled_ = 0;
    std::size_t pos_ = 0;
    std::uintmax_t buffer_offset_ = 0;  // file offset of buffer_[0]
    std::uintmax_t total_bytes_ = 0;
    std::vector<char> stack_;
    bool in_string_ = false;
    bool escape_ = false;
    bool finished_ = false;
    std::string key_;
    std::string current_key_;
    std::string outside_;
    bool in_events_ = false;
    bool saw_separator_ = false;
    std::size_t batch_begin_ = 0;
    std::size_t last_separator_ = kNone;
    KinetoBatchParser batch_parser_;
    KinetoRawObject object_;
    std::string prefix_;
};

}  // namespace

void read_kineto_json(const std::filesystem::path& file, const KinetoJsonCallbacks& callbacks) {
    KinetoStreamReader(file, callbacks).run();
}

}  // namespace trainscope::profiler::detail
