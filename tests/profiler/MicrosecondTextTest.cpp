#include <gtest/gtest.h>

#include "profiler/formats/detail/MicrosecondText.hpp"

namespace trainscope::profiler::detail {
namespace {

TEST(MicrosecondText, IntegersAndFractionsConvertExactly) {
    EXPECT_EQ(microseconds_text_to_ns("0"), 0);
    EXPECT_EQ(microseconds_text_to_ns("123"), 123000);
    EXPECT_EQ(microseconds_text_to_ns("123.456"), 123456);
    EXPECT_EQ(microseconds_text_to_ns("1419247332972.313"), 1419247332972313);
    EXPECT_EQ(microseconds_text_to_ns("-2.5"), -2500);
}

TEST(MicrosecondText, ExponentsConvertExactly) {
    EXPECT_EQ(microseconds_text_to_ns("1.5e3"), 1500000);
    EXPECT_EQ(microseconds_text_to_ns("1.5E+3"), 1500000);
    EXPECT_EQ(microseconds_text_to_ns("2e-3"), 2);
    EXPECT_EQ(microseconds_text_to_ns("12345e-6"), 12);  // 12.345 ns -> 12
}

TEST(MicrosecondText, SubNanosecondDigitsRoundToNearestTiesAway) {
    EXPECT_EQ(microseconds_text_to_ns("0.0004"), 0);
    EXPECT_EQ(microseconds_text_to_ns("0.0005"), 1);
    EXPECT_EQ(microseconds_text_to_ns("0.0015"), 2);
    EXPECT_EQ(microseconds_text_to_ns("-0.0005"), -1);
    EXPECT_EQ(microseconds_text_to_ns("1.23449999"), 1234);
    EXPECT_EQ(microseconds_text_to_ns("1e-30"), 0);
}

TEST(MicrosecondText, RejectsTextThatIsNotANumberOrDoesNotFit) {
    EXPECT_FALSE(microseconds_text_to_ns(""));
    EXPECT_FALSE(microseconds_text_to_ns("abc"));
    EXPECT_FALSE(microseconds_text_to_ns("1.2.3"));
    EXPECT_FALSE(microseconds_text_to_ns("1e"));
    EXPECT_FALSE(microseconds_text_to_ns("9223372036854775807"));  // * 1000 overflows
    EXPECT_FALSE(microseconds_text_to_ns("1e400"));
    EXPECT_FALSE(microseconds_text_to_ns("123456789012345678901234567890123456789012345"));
    EXPECT_EQ(microseconds_text_to_ns("9223372036854775.807"), 9223372036854775807);
}

TEST(IntegerText, AcceptsIntegralValuesOnly) {
    EXPECT_EQ(integer_text_to_int64("4096"), 4096);
    EXPECT_EQ(integer_text_to_int64("4096.0"), 4096);
    EXPECT_EQ(integer_text_to_int64("1e3"), 1000);
    EXPECT_FALSE(integer_text_to_int64("1.5"));
    EXPECT_FALSE(integer_text_to_int64("stream 7"));
    EXPECT_FALSE(integer_text_to_int64("99999999999999999999"));
}

}  // namespace
}  // namespace trainscope::profiler::detail
