#include "profiler/formats/detail/KinetoJsonFlatten.hpp"

namespace trainscope::profiler::detail {

namespace {

namespace od = simdjson::ondemand;

// Scalars up to this many containers below the event (event -> args -> grid[i]).
constexpr int kMaxCollectedNesting = 2;

FlattenError too_long(std::size_t bytes, const char* what) {
    return {simdjson::SUCCESS, "a " + std::string(what) + " of " + std::to_string(bytes >> 10) +
                                   " KiB (names and values are limited to " +
                                   std::to_string(kMaxStringBytes >> 10) + " KiB)"};
}

std::string_view trim_right(std::string_view token) {
    while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                              token.back() == '\t')) {
        token.remove_suffix(1);
    }
    return token;
}

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// RFC 8259: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool is_json_number(std::string_view t) {
    std::size_t i = 0;
    const std::size_t n = t.size();
    if (i < n && t[i] == '-')
        ++i;
    if (i == n || !is_digit(t[i]))
        return false;
    if (t[i++] != '0') {
        while (i < n && is_digit(t[i]))
            ++i;
    }
    if (i < n && t[i] == '.') {
        if (++i == n || !is_digit(t[i]))
            return false;
        while (i < n && is_digit(t[i]))
            ++i;
    }
    if (i < n && (t[i] == 'e' || t[i] == 'E')) {
        ++i;
        if (i < n && (t[i] == '+' || t[i] == '-'))
            ++i;
        if (i == n || !is_digit(t[i]))
            return false;
        while (i < n && is_digit(t[i]))
            ++i;
    }
    return i == n;
}

// By reference: a copy of the value (its iterator) stalls on store forwarding.
FlattenError flatten_value(od::value& value, std::string& prefix, int nesting,
                           KinetoRawObject& out);

}  // namespace

FlattenError validate_value(od::value& value) {
    od::json_type type;
    if (auto e = value.type().get(type))
        return {e, {}};
    switch (type) {
        case od::json_type::object: {
            od::object object;
            if (auto e = value.get_object().get(object))
                return {e, {}};
            for (auto member : object) {
                od::field field;
                if (auto e = std::move(member).get(field))
                    return {e, {}};
                std::string_view key;
                if (auto e = field.unescaped_key().get(key))
                    return {e, {}};
                if (key.size() > kMaxStringBytes)
                    return too_long(key.size(), "key");
                FlattenError error = validate_value(field.value());
                if (error.failed())
                    return error;
            }
            return {};
        }
        case od::json_type::array: {
            od::array array;
            if (auto e = value.get_array().get(array))
                return {e, {}};
            for (auto element : array) {
                od::value v;
                if (auto e = element.get(v))
                    return {e, {}};
                FlattenError error = validate_value(v);
                if (error.failed())
                    return error;
            }
            return {};
        }
        default: {
            ScalarText scalar;
            return scalar_text(value, scalar);
        }
    }
}

namespace {

FlattenError flatten_members(od::object object, std::string& prefix, int nesting,
                             KinetoRawObject& out) {
    for (auto member : object) {
        if (auto e = member.error())
            return {e, {}};
        // The field in place: copying it out of its result costs a store-forwarding stall
        // per field (GCC copies the iterator with one 16-byte load).
        od::field&& field = std::move(member).value_unsafe();
        std::string_view key;
        if (auto e = field.unescaped_key().get(key))
            return {e, {}};
        if (key.size() > kMaxStringBytes)
            return too_long(key.size(), "key");
        od::value& value = field.value();
        od::json_type type;
        if (auto e = value.type().get(type))
            return {e, {}};
        if (type != od::json_type::object && type != od::json_type::array) {
            // Most fields: the key goes straight into the field, not through `prefix`.
            ScalarText scalar;
            if (FlattenError error = scalar_text(value, scalar); error.failed())
                return error;
            out.add(prefix, key, scalar.text, scalar.is_string);
            continue;
        }
        const std::size_t mark = prefix.size();
        if (mark != 0)
            prefix += '.';
        prefix += key;
        FlattenError error = flatten_value(value, prefix, nesting, out);
        prefix.resize(mark);
        if (error.failed())
            return error;
    }
    return {};
}

FlattenError flatten_value(od::value& value, std::string& prefix, int nesting,
                           KinetoRawObject& out) {
    od::json_type type;
    if (auto e = value.type().get(type))
        return {e, {}};
    if (type == od::json_type::object || type == od::json_type::array) {
        if (nesting >= kMaxCollectedNesting)
            return validate_value(value);  // input shapes and the like: not kept
        if (type == od::json_type::object) {
            od::object inner;
            if (auto e = value.get_object().get(inner))
                return {e, {}};
            return flatten_members(inner, prefix, nesting + 1, out);
        }
        od::array inner;
        if (auto e = value.get_array().get(inner))
            return {e, {}};
        std::size_t index = 0;
        for (auto element : inner) {
            od::value v;
            if (auto e = element.get(v))
                return {e, {}};
            const std::size_t mark = prefix.size();
            prefix += '[';
            prefix += std::to_string(index++);
            prefix += ']';
            FlattenError error = flatten_value(v, prefix, nesting + 1, out);
            prefix.resize(mark);
            if (error.failed())
                return error;
        }
        return {};
    }
    ScalarText scalar;
    if (FlattenError error = scalar_text(value, scalar); error.failed())
        return error;
    out.add(prefix, {}, scalar.text, scalar.is_string);
    return {};
}

}  // namespace

FlattenError scalar_text(od::value& value, ScalarText& out) {
    od::json_type type;
    if (auto e = value.type().get(type))
        return {e, {}};
    out = {};
    switch (type) {
        case od::json_type::string: {
            std::string_view text;
            if (auto e = value.get_string().get(text))
                return {e, {}};
            if (text.size() > kMaxStringBytes)
                return too_long(text.size(), "string");
            out.text = text;
            out.is_string = true;
            return {};
        }
        case od::json_type::number: {
            // The text as written: times convert to integer nanoseconds without rounding.
            // On-Demand checks a number only when asked for its value, so the grammar is
            // checked here: "00.5" or "1." must stay malformed JSON.
            const std::string_view token = trim_right(value.raw_json_token());
            if (!is_json_number(token))
                return {simdjson::NUMBER_ERROR, {}};
            out.text = token;
            return {};
        }
        case od::json_type::boolean: {
            bool b = false;
            if (auto e = value.get_bool().get(b))
                return {e, {}};
            out.text = b ? "true" : "false";
            return {};
        }
        case od::json_type::null: {
            bool null = false;
            if (auto e = value.is_null().get(null))
                return {e, {}};
            if (!null)
                return {simdjson::INCORRECT_TYPE, {}};
            out.text = "null";
            return {};
        }
        case od::json_type::object:
        case od::json_type::array:
            out.is_container = true;
            return {};
    }
    return {simdjson::INCORRECT_TYPE, {}};
}

FlattenError flatten_object(od::object object, std::string& prefix, KinetoRawObject& out) {
    return flatten_members(object, prefix, 0, out);
}

}  // namespace trainscope::profiler::detail
