#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "profiler/formats/detail/KinetoJsonScan.hpp"

namespace trainscope::profiler::detail {
namespace {

// The rule the block scan must agree with, one byte at a time: a backslash escapes the
// next byte, quotes not escaped open and close strings, and only brackets and commas
// outside strings count. Like simdjson, the scan lets a backslash escape outside strings
// too; that is never valid JSON, and the batch's parse refuses it.
std::vector<std::size_t> structural_bytewise(const std::string& text) {
    std::vector<std::size_t> out;
    bool in_string = false;
    bool escape = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (escape) {
            escape = false;
            continue;
        }
        if (c == '\\') {
            escape = true;
            continue;
        }
        if (c == '"') {
            in_string = !in_string;
            continue;
        }
        if (!in_string && (c == ',' || c == '{' || c == '}' || c == '[' || c == ']'))
            out.push_back(i);
    }
    return out;
}

// Blocks of random lengths, as the reader's buffer ends cut them.
std::vector<std::size_t> structural_in_blocks(const std::string& text, std::mt19937& random) {
    std::string padded = text;
    padded.append(kScanBlock, 'x');  // the reader's buffer has padding after its bytes
    std::uniform_int_distribution<std::size_t> length(1, kScanBlock);
    std::vector<std::size_t> out;
    ScanState state;
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t n = std::min(length(random), text.size() - i);
        std::uint64_t bits = scan_block(padded.data() + i, n, state).structural;
        while (bits != 0) {
            out.push_back(i + static_cast<std::size_t>(__builtin_ctzll(bits)));
            bits &= bits - 1;
        }
        i += n;
    }
    return out;
}

TEST(KinetoJsonScan, FindsWhatTheBytewiseScanFindsWhereverBlocksEnd) {
    // Mostly backslashes and quotes, so that runs of escapes cross block ends.
    const std::string alphabet = R"(\\\\""",{}[]a )";
    std::mt19937 random(19);
    std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
    std::uniform_int_distribution<std::size_t> size(1, 600);
    for (int round = 0; round < 3000; ++round) {
        std::string text(size(random), ' ');
        for (char& c : text)
            c = alphabet[pick(random)];
        ASSERT_EQ(structural_in_blocks(text, random), structural_bytewise(text)) << text;
    }
}

TEST(KinetoJsonScan, EscapedQuotesAndBracketsInStringsAreNotStructure) {
    const std::string text = R"({"name": "a\"],[{\\", "x": [1, "\\\"}"]})";
    std::mt19937 random(1);
    const std::vector<std::size_t> expected = structural_bytewise(text);
    EXPECT_EQ(expected.size(), 6u);  // the outer braces, x's brackets, two commas
    for (int round = 0; round < 50; ++round)
        EXPECT_EQ(structural_in_blocks(text, random), expected);
}

}  // namespace
}  // namespace trainscope::profiler::detail
