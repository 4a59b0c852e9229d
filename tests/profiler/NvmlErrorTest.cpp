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
        TRAINSCOPE_NVML_CHECK(fake_error_string, returns(6));
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

TEST(NvmlError, SuccessPassesAndAMissingErrorStringStillDescribes) {
    EXPECT_NO_THROW(TRAINSCOPE_NVML_CHECK(fake_error_string, returns(0)));
    EXPECT_EQ(describe_nvml_status(999, nullptr), "unknown error (NVML code 999)");
}

}  // namespace
}  // namespace trainscope::profiler
