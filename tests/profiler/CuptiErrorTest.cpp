// The CUPTI checking macro with a failing status passed in, no GPU needed.
#include <gtest/gtest.h>

#include <string>

#include "profiler/cupti/CuptiError.hpp"

namespace trainscope::profiler {
namespace {

CUptiResult returns(CUptiResult status) {
    return status;
}

std::string cupti_words(CUptiResult status) {
    const char* text = nullptr;
    return cuptiGetResultString(status, &text) == CUPTI_SUCCESS && text != nullptr ? text : "";
}

TEST(CuptiCheck, FailingStatusThrowsCuptiErrorWithItsFields) {
    const int line = __LINE__ + 2;
    try {
        TS_CUPTI_CHECK(returns(CUPTI_ERROR_NOT_INITIALIZED));
        FAIL() << "no CuptiError";
    } catch (const CuptiError& e) {
        EXPECT_EQ(e.library(), "CUPTI");
        EXPECT_EQ(e.call(), "returns(CUPTI_ERROR_NOT_INITIALIZED)");
        EXPECT_NE(e.file().find("CuptiErrorTest.cpp"), std::string::npos) << e.file();
        EXPECT_EQ(e.line(), line);
        EXPECT_EQ(e.library_message(), cupti_words(CUPTI_ERROR_NOT_INITIALIZED));
        EXPECT_NE(e.library_message().find("CUPTI_ERROR_NOT_INITIALIZED"), std::string::npos);
        EXPECT_EQ(e.result(), CUPTI_ERROR_NOT_INITIALIZED);
        const std::string what = e.what();
        EXPECT_EQ(what.rfind("CUPTI call `returns(CUPTI_ERROR_NOT_INITIALIZED)` failed at ", 0), 0u)
            << what;
        EXPECT_NE(what.find("(CUPTI code " +
                            std::to_string(static_cast<int>(CUPTI_ERROR_NOT_INITIALIZED)) + ")"),
                  std::string::npos)
            << what;
    }
}

TEST(CuptiCheck, SuccessPassesAndIsALibraryError) {
    EXPECT_NO_THROW(TS_CUPTI_CHECK(returns(CUPTI_SUCCESS)));
    EXPECT_THROW(TS_CUPTI_CHECK(returns(CUPTI_ERROR_UNKNOWN)), LibraryError);
}

TEST(CuptiCheck, NoexceptTwinLogsOnlyFailures) {
    testing::internal::CaptureStderr();
    EXPECT_FALSE(TS_CUPTI_CHECK_NOEXCEPT(returns(CUPTI_ERROR_INVALID_PARAMETER)));
    EXPECT_TRUE(TS_CUPTI_CHECK_NOEXCEPT(returns(CUPTI_SUCCESS)));
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("returns(CUPTI_ERROR_INVALID_PARAMETER)"), std::string::npos) << log;
    EXPECT_EQ(log.find("returns(CUPTI_SUCCESS)"), std::string::npos) << log;
}

}  // namespace
}  // namespace trainscope::profiler
