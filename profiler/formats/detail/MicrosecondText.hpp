#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace trainscope::profiler::detail {

// Converts the JSON text of a number of microseconds ("123", "123.456", "1.5e3", "-2")
// to integer nanoseconds without going through floating point, so that Kineto's
// ns-resolution fractional microseconds come back exactly. Digits beyond 1 ns are
// rounded to the nearest ns, ties away from zero. Returns nullopt for text that is not
// a JSON number or whose value does not fit in int64 nanoseconds.
std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text);

// The same for a plain count (bytes, ids): an integer, or a number whose text has an
// integral value such as "4096.0" or "1e3". Nullopt otherwise.
std::optional<std::int64_t> integer_text_to_int64(std::string_view text);

}  // namespace trainscope::profiler::detail
