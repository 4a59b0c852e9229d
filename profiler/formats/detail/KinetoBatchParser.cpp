#include "profiler/formats/detail/KinetoBatchParser.hpp"

#include "profiler/formats/TraceFormatError.hpp"
#include "profiler/formats/detail/KinetoJsonFlatten.hpp"

namespace trainscope::profiler::detail {

namespace od = simdjson::ondemand;

void KinetoBatchParser::fail_at(std::uintmax_t byte, const char* message) const {
    throw TraceFormatError(file_,
                           "malformed JSON at byte " + std::to_string(byte) + ": " + message);
}

void KinetoBatchParser::parse(const char* json, std::size_t length, std::size_t allocated,
                              std::uintmax_t file_offset,
                              const std::function<void(KinetoRawObject&)>& on_event) {
    // The first event's byte: where an error with no better place is reported.
    const std::uintmax_t first_byte = file_offset + 1;
    od::document doc;
    if (auto e = parser_.iterate(json, length, allocated).get(doc))
        fail_at(first_byte, simdjson::error_message(e));  // no document to ask where
    const auto fail_batch = [&](simdjson::error_code e) {
        std::uintmax_t byte = first_byte;
        const char* location = nullptr;
        if (!doc.current_location().get(location) && location != nullptr)
            byte = file_offset + static_cast<std::uintmax_t>(location - json);
        fail_at(byte, simdjson::error_message(e));
    };
    od::array events;
    if (auto e = doc.get_array().get(events))
        fail_batch(e);
    for (auto element : events) {
        od::value value;
        if (auto e = element.get(value))
            fail_batch(e);
        od::json_type type;
        if (auto e = value.type().get(type))
            fail_batch(e);
        if (type != od::json_type::object) {
            // Nothing but objects are events, but a malformed value is still refused.
            if (auto e = validate_value(value); e.failed())
                fail_batch(e.code);
            continue;
        }
        od::object object;
        if (auto e = value.get_object().get(object))
            fail_batch(e);
        object_.clear();
        FlattenError error = flatten_object(object, prefix_, object_);
        if (error.failed()) {
            if (!error.message.empty())
                throw TraceFormatError(file_, error.message);
            fail_batch(error.code);
        }
        if (on_event)
            on_event(object_);
    }
    // No trailing content to check: the scan saw the brackets balance and stay above
    // the array's level inside the batch.
}

}  // namespace trainscope::profiler::detail
