#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace trainscope::profiler::detail {

// The reader's scan over "traceEvents" looks at 64 bytes at a time, as simdjson's first
// stage does: which of them are brackets or commas outside strings. Strings and numbers
// make up most of a trace, so the scan then visits about one byte in fifteen instead of
// every byte and every quote. `data` must stay readable for 64 bytes from any block's
// start (the reader's buffer keeps simdjson's padding after its end).
inline constexpr std::size_t kScanBlock = 64;

// String state carried from one block to the next.
struct ScanState {
    bool in_string = false;
    bool escape = false;  // the next byte is escaped by a backslash
};

// The bytes of one block that matter to the scan.
struct ScanBlock {
    std::uint64_t structural = 0;  // '{', '}', '[', ']', ',' outside strings
};

namespace scan_detail {

struct RawMasks {
    std::uint64_t quote = 0;
    std::uint64_t backslash = 0;
    std::uint64_t structure = 0;  // '{', '}', '[', ']', ','
};

#if defined(__SSE2__)
inline std::uint64_t movemask(__m128i v, int shift) {
    return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(v))) << shift;
}

inline RawMasks raw_masks(const char* p) {
    const __m128i quote = _mm_set1_epi8('"');
    const __m128i backslash = _mm_set1_epi8('\\');
    const __m128i comma = _mm_set1_epi8(',');
    // Setting bit 0x20 turns '[' into '{' and ']' into '}' and no other byte into either.
    const __m128i lower = _mm_set1_epi8(0x20);
    const __m128i open = _mm_set1_epi8('{');
    const __m128i close = _mm_set1_epi8('}');
    RawMasks m;
    for (int k = 0; k < 4; ++k) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
        const __m128i folded = _mm_or_si128(v, lower);
        m.quote |= movemask(_mm_cmpeq_epi8(v, quote), 16 * k);
        m.backslash |= movemask(_mm_cmpeq_epi8(v, backslash), 16 * k);
        m.structure |= movemask(
            _mm_or_si128(_mm_cmpeq_epi8(v, comma),
                         _mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close))),
            16 * k);
    }
    return m;
}
#else
inline RawMasks raw_masks(const char* p) {
    RawMasks m;
    for (int k = 0; k < 64; ++k) {
        const std::uint64_t bit = std::uint64_t{1} << k;
        switch (p[k]) {
            case '"':
                m.quote |= bit;
                break;
            case '\\':
                m.backslash |= bit;
                break;
            case ',':
            case '{':
            case '}':
            case '[':
            case ']':
                m.structure |= bit;
                break;
            default:
                break;
        }
    }
    return m;
}
#endif

// Bit i set when an odd number of quotes is at or before i.
inline std::uint64_t prefix_xor(std::uint64_t x) {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

}  // namespace scan_detail

// The block of `n` (1..64) bytes at `p`, given the state before it; `state` becomes the
// state after its last byte. A backslash escapes the byte after it, a run of them pairs
// off (simdjson's rule); quotes not escaped open and close strings.
inline ScanBlock scan_block(const char* p, std::size_t n, ScanState& state) {
    using scan_detail::prefix_xor;
    scan_detail::RawMasks m = scan_detail::raw_masks(p);
    const std::uint64_t valid = n == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1;
    m.quote &= valid;
    m.backslash &= valid;
    m.structure &= valid;

    // Escaped bytes: the byte after each backslash that is not itself escaped.
    const std::uint64_t carry = state.escape ? 1 : 0;
    std::uint64_t backslash = m.backslash & ~carry;
    const std::uint64_t follows_escape = (backslash << 1) | carry;
    constexpr std::uint64_t kEven = 0x5555555555555555ULL;
    const std::uint64_t odd_starts = backslash & ~kEven & ~follows_escape;
    std::uint64_t even_sequences = 0;
    const bool overflow = __builtin_add_overflow(odd_starts, backslash, &even_sequences);
    const std::uint64_t escaped = (kEven ^ (even_sequences << 1)) & follows_escape;

    const std::uint64_t quotes = m.quote & ~escaped;
    const std::uint64_t inside = prefix_xor(quotes) ^ (state.in_string ? ~std::uint64_t{0} : 0);

    state.in_string = ((inside >> (n - 1)) & 1) != 0;
    state.escape = n == 64 ? overflow : ((escaped >> n) & 1) != 0;
    return {m.structure & ~inside & ~escaped};
}

}  // namespace trainscope::profiler::detail
