// The NVML checking macro: a failed call throws NvmlError with the call, file:line and
// NVML's own words; success passes.
#include <gtest/gtest.h>

#include <string>

#include "profiler/nvml/NvmlError.hpp"

namespace trainscope::profiler {
namespace {

const char* fake_error_string(int status) {
    return status == 6 ? "Not Found" : "Unknown Error";
}

int returns(int status) {
    return status;
}

TEST(NvmlError, AFailedCallThrowsWithTheCallTheLineAndNvmlsWords) {
    try {
        TS_NVML_CHECK(fake_error_string, returns(6));
        FAIL() << "no NvmlError";
    } catch (const NvmlError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("returns(6)"), std::string::npos) << message;
        EXPECT_NE(message.find("NvmlErrorTest.cpp:"), std::string::npos) << message;
        EXPECT_NE(message.find("Not Found (NVML code 6)"), std::string::npos) << message;
        EXPECT_EQ(error.code(), 6);
        EXPECT_EQ(error.nvml_text(), "Not Found (NVML code 6)");
    }
}

TEST(NvmlError, IsALibraryErrorWithItsFields) {
    const int line = __LINE__ + 2;
    try {
        TS_NVML_CHECK(fake_error_string, returns(6));
        FAIL() << "no NvmlError";
    } catch (const LibraryError& error) {
        EXPECT_NE(dynamic_cast<const NvmlError*>(&error), nullptr);
        EXPECT_EQ(error.library(), "NVML");
        EXPECT_EQ(error.call(), "returns(6)");
        EXPECT_NE(error.file().find("NvmlErrorTest.cpp"), std::string::npos) << error.file();
        EXPECT_EQ(error.line(), line);
        EXPECT_EQ(error.library_message(), "Not Found");
        EXPECT_EQ(std::string(error.what()).rfind("NVML call `returns(6)` failed at ", 0), 0u)
            << error.what();
    }
}

TEST(NvmlError, NoexceptTwinLogsAndYieldsWhetherTheCallSucceeded) {
    testing::internal::CaptureStderr();
    EXPECT_FALSE(TS_NVML_CHECK_NOEXCEPT(fake_error_string, returns(6)));
    EXPECT_TRUE(TS_NVML_CHECK_NOEXCEPT(fake_error_string, returns(0)));
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("returns(6)"), std::string::npos) << log;
    EXPECT_NE(log.find("Not Found (NVML code 6)"), std::string::npos) << log;
    EXPECT_EQ(log.find("returns(0)"), std::string::npos) << log;
}

TEST(NvmlError, SuccessPassesAndAMissingErrorStringStillDescribes) {
    EXPECT_NO_THROW(TS_NVML_CHECK(fake_error_string, returns(0)));
    EXPECT_EQ(describe_nvml_status(999, nullptr), "unknown error (NVML code 999)");
}

}  // namespace
}  // namespace trainscope::profiler
