#include "profiler/formats/detail/MicrosecondText.hpp"

#include <limits>

namespace trainscope::profiler::detail {

namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

// 128 bits hold any int64 times 10 without overflow; __extension__ keeps -Wpedantic quiet.
__extension__ typedef unsigned __int128 Uint128;

// A JSON number split into its decimal digits (as one unsigned integer, leading digits
// only while they fit) and a power of ten: value = sign * digits * 10^exponent.
struct DecimalNumber {
    bool negative = false;
    Uint128 digits = 0;
    std::int64_t exponent = 0;
};

std::optional<DecimalNumber> split_decimal(std::string_view text) {
    DecimalNumber n;
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
        n.negative = text[i] == '-';
        ++i;
    }
    bool any_digit = false;
    // Digits past what 128 bits hold are dropped and counted into the exponent; that
    // only happens for absurd inputs, which then fail the range check below.
    constexpr Uint128 kDigitLimit = static_cast<Uint128>(1) << 120;
    auto take_digit = [&](char c, bool fractional) {
        any_digit = true;
        if (n.digits < kDigitLimit) {
            n.digits = n.digits * 10 + static_cast<unsigned>(c - '0');
            if (fractional)
                --n.exponent;
        } else if (!fractional) {
            ++n.exponent;
        }
    };
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
        take_digit(text[i++], false);
    if (i < text.size() && text[i] == '.') {
        ++i;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9')
            take_digit(text[i++], true);
    }
    if (!any_digit)
        return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool exp_negative = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
            exp_negative = text[i] == '-';
            ++i;
        }
        std::int64_t e = 0;
        bool any_exp_digit = false;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            any_exp_digit = true;
            if (e < 100000)
                e = e * 10 + (text[i] - '0');
            ++i;
        }
        if (!any_exp_digit)
            return std::nullopt;
        n.exponent += exp_negative ? -e : e;
    }
    if (i != text.size())
        return std::nullopt;
    return n;
}

// sign * digits * 10^exponent rounded to the nearest integer (ties away from zero).
std::optional<std::int64_t> scale_to_integer(const DecimalNumber& n, bool require_exact) {
    Uint128 magnitude = n.digits;
    if (magnitude == 0)
        return 0;
    if (n.exponent >= 0) {
        for (std::int64_t k = 0; k < n.exponent; ++k) {
            if (magnitude > static_cast<Uint128>(kMax))
                return std::nullopt;
            magnitude *= 10;
        }
    } else {
        Uint128 divisor = 1;
        for (std::int64_t k = 0; k < -n.exponent; ++k) {
            if (divisor > magnitude) {
                divisor = 0;  // more than enough: the value rounds to zero
                break;
            }
            divisor *= 10;
        }
        if (divisor == 0) {
            if (require_exact)
                return std::nullopt;
            magnitude = 0;
        } else {
            const Uint128 remainder = magnitude % divisor;
            magnitude /= divisor;
            if (require_exact && remainder != 0)
                return std::nullopt;
            if (remainder * 2 >= divisor)
                ++magnitude;
        }
    }
    if (magnitude > static_cast<Uint128>(kMax))
        return std::nullopt;
    const auto value = static_cast<std::int64_t>(magnitude);
    return n.negative ? -value : value;
}

}  // namespace

std::optional<std::int64_t> microseconds_text_to_ns(std::string_view text) {
    auto n = split_decimal(text);
    if (!n)
        return std::nullopt;
    n->exponent += 3;  // µs -> ns
    return scale_to_integer(*n, false);
}

std::optional<std::int64_t> integer_text_to_int64(std::string_view text) {
    auto n = split_decimal(text);
    if (!n)
        return std::nullopt;
    return scale_to_integer(*n, true);
}

}  // namespace trainscope::profiler::detail
