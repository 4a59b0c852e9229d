#include "profiler/formats/detail/KinetoJsonReader.hpp"

#include <nlohmann/json.hpp>

#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope::profiler::detail {

const KinetoField* KinetoRawObject::find(std::string_view key) const {
    for (const auto& f : fields) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

std::string_view KinetoRawObject::text(std::string_view key) const {
    const KinetoField* f = find(key);
    return f ? std::string_view(f->text) : std::string_view();
}

namespace {

using Json = nlohmann::json;

// Collected objects sit at depth 3 of the document: root object -> array -> object.
constexpr std::size_t kCollectedDepth = 3;
// Scalars deeper than object -> args -> array are not needed by the importer.
constexpr std::size_t kMaxCollectedNesting = 2;
// Limits that keep a hostile file from costing more than it is worth; a real trace nests
// five levels and its longest names (C++ template kernels) are a few kilobytes.
constexpr std::size_t kMaxNesting = 100;
constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;

enum class Collecting { None, Event, Device };

struct Frame {
    bool is_array = false;
    std::size_t index = 0;  // next element index when is_array
    std::string key;        // last key seen when an object
};

class KinetoSaxHandler {
  public:
    explicit KinetoSaxHandler(const KinetoJsonCallbacks& callbacks) : callbacks_(callbacks) {}

    bool null() { return scalar("null", false); }
    bool boolean(bool v) { return scalar(v ? "true" : "false", false); }
    bool number_integer(Json::number_integer_t v) { return scalar(std::to_string(v), false); }
    bool number_unsigned(Json::number_unsigned_t v) { return scalar(std::to_string(v), false); }
    bool number_float(Json::number_float_t, const Json::string_t& text) {
        return scalar(text, false);
    }
    bool string(Json::string_t& v) { return check_length(v, "string") && scalar(v, true); }
    bool binary(Json::binary_t&) { return scalar("", false); }

    bool start_object(std::size_t) {
        if (!check_depth())
            return false;
        frames_.push_back(Frame{false, 0, {}});
        if (frames_.size() == kCollectedDepth && frames_[1].is_array) {
            const std::string& array_key = frames_[0].key;
            if (array_key == "traceEvents") {
                collecting_ = Collecting::Event;
            } else if (array_key == "deviceProperties") {
                collecting_ = Collecting::Device;
            }
            object_.fields.clear();
        }
        return true;
    }
    bool end_object() {
        if (frames_.size() == kCollectedDepth && collecting_ != Collecting::None) {
            if (collecting_ == Collecting::Event) {
                ++event_count_;
                if (callbacks_.on_event)
                    callbacks_.on_event(object_);
            } else if (callbacks_.on_device) {
                callbacks_.on_device(object_);
            }
            collecting_ = Collecting::None;
        }
        frames_.pop_back();
        advance_parent();
        return true;
    }
    bool start_array(std::size_t) {
        if (!check_depth())
            return false;
        if (frames_.size() == 1 && frames_[0].key == "traceEvents")
            saw_trace_events_ = true;
        frames_.push_back(Frame{true, 0, {}});
        return true;
    }
    bool end_array() {
        frames_.pop_back();
        advance_parent();
        return true;
    }
    bool key(Json::string_t& k) {
        if (!check_length(k, "key"))
            return false;
        frames_.back().key = k;
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& ex) {
        error_ = "malformed JSON at byte " + std::to_string(position) + ": " + ex.what();
        return false;
    }

    [[nodiscard]] const std::string& error() const { return error_; }
    [[nodiscard]] bool saw_trace_events() const { return saw_trace_events_; }
    [[nodiscard]] bool root_is_object() const { return root_is_object_; }

  private:
    bool check_depth() {
        if (frames_.size() < kMaxNesting)
            return true;
        error_ = "JSON nested deeper than " + std::to_string(kMaxNesting) +
                 " levels (a Kineto trace nests about five)";
        return false;
    }
    bool check_length(const std::string& text, const char* what) {
        if (text.size() <= kMaxStringBytes)
            return true;
        error_ = "a " + std::string(what) + " of " + std::to_string(text.size() >> 10) +
                 " KiB (names and values are limited to " + std::to_string(kMaxStringBytes >> 10) +
                 " KiB)";
        return false;
    }

    bool scalar(const std::string& text, bool is_string) {
        if (frames_.empty()) {
            root_is_object_ = false;  // a bare scalar document
            return true;
        }
        if (frames_.size() == 1 && !frames_[0].is_array) {
            if (callbacks_.on_top_level_scalar) {
                callbacks_.on_top_level_scalar(frames_[0].key,
                                               KinetoField{frames_[0].key, text, is_string});
            }
        } else if (frames_.size() == 2 && !frames_[0].is_array && !frames_[1].is_array) {
            // A top-level object's scalars ("distributedInfo": {"rank": 3}) as
            // "distributedInfo.rank".
            if (callbacks_.on_top_level_scalar) {
                const std::string key = frames_[0].key + "." + frames_[1].key;
                callbacks_.on_top_level_scalar(key, KinetoField{key, text, is_string});
            }
        } else if (collecting_ != Collecting::None && frames_.size() >= kCollectedDepth &&
                   frames_.size() - kCollectedDepth <= kMaxCollectedNesting) {
            object_.fields.push_back(KinetoField{relative_key(), text, is_string});
        }
        advance_parent();
        return true;
    }

    // The key of the current value relative to the collected object: "args.grid[0]".
    std::string relative_key() const {
        std::string k;
        for (std::size_t i = kCollectedDepth - 1; i < frames_.size(); ++i) {
            const Frame& f = frames_[i];
            if (f.is_array) {
                k += '[' + std::to_string(f.index) + ']';
            } else {
                if (!k.empty())
                    k += '.';
                k += f.key;
            }
        }
        return k;
    }

    void advance_parent() {
        if (!frames_.empty() && frames_.back().is_array)
            ++frames_.back().index;
    }

    const KinetoJsonCallbacks& callbacks_;
    std::vector<Frame> frames_;
    KinetoRawObject object_;
    Collecting collecting_ = Collecting::None;
    std::size_t event_count_ = 0;
    bool saw_trace_events_ = false;
    bool root_is_object_ = true;
    std::string error_;
};

}  // namespace

void read_kineto_json(const std::string& content, const std::filesystem::path& file,
                      const KinetoJsonCallbacks& callbacks) {
    if (content.empty())
        throw TraceFormatError(file, "file is empty");
    KinetoSaxHandler handler(callbacks);
    bool ok = false;
    try {
        ok = Json::sax_parse(content, &handler);
    } catch (const nlohmann::json::exception& ex) {
        throw TraceFormatError(file, std::string("malformed JSON: ") + ex.what());
    }
    if (!ok) {
        throw TraceFormatError(file, handler.error().empty() ? "malformed JSON" : handler.error());
    }
    if (!handler.root_is_object() || !handler.saw_trace_events()) {
        throw TraceFormatError(file,
                               "not a Kineto/Chrome trace: no top-level \"traceEvents\" array");
    }
}

}  // namespace trainscope::profiler::detail
