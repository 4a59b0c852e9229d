// The NVML checking macro: a failed call throws NvmlError with the call, file:line and
// the words of the NVML in use; success passes. The macro takes the call only, like every
// TS_<LIBRARY>_CHECK.
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

// The NVML in use is the fake's for each test, as NvmlLibrary::open names its own.
class NvmlCheck : public testing::Test {
  protected:
    NvmlCheck() { use_nvml_error_string(fake_error_string); }
    ~NvmlCheck() override { forget_nvml_error_string(fake_error_string); }
};

TEST_F(NvmlCheck, AFailedCallThrowsWithTheCallTheLineAndNvmlsWords) {
    try {
        TS_NVML_CHECK(returns(6));
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

TEST_F(NvmlCheck, IsALibraryErrorWithItsFields) {
    const int line = __LINE__ + 2;
    try {
        TS_NVML_CHECK(returns(6));
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

TEST_F(NvmlCheck, NoexceptTwinLogsAndYieldsWhetherTheCallSucceeded) {
    testing::internal::CaptureStderr();
    EXPECT_FALSE(TS_NVML_CHECK_NOEXCEPT(returns(6)));
    EXPECT_TRUE(TS_NVML_CHECK_NOEXCEPT(returns(0)));
    const std::string log = testing::internal::GetCapturedStderr();
    EXPECT_NE(log.find("returns(6)"), std::string::npos) << log;
    EXPECT_NE(log.find("Not Found (NVML code 6)"), std::string::npos) << log;
    EXPECT_EQ(log.find("returns(0)"), std::string::npos) << log;
}

TEST_F(NvmlCheck, SuccessPassesAndAMissingErrorStringStillDescribes) {
    EXPECT_NO_THROW(TS_NVML_CHECK(returns(0)));
    EXPECT_EQ(describe_nvml_status(6), "Not Found (NVML code 6)");
}

// A library taken back (closed) is never called for words again; another one stays.
TEST_F(NvmlCheck, AFailureAfterItsLibraryClosedStillDescribesWithoutCallingIt) {
    forget_nvml_error_string(+[](int) -> const char* { return "other"; });
    EXPECT_EQ(describe_nvml_status(6), "Not Found (NVML code 6)");
    forget_nvml_error_string(fake_error_string);
    EXPECT_EQ(describe_nvml_status(999), "unknown error (NVML code 999)");
    try {
        TS_NVML_CHECK(returns(6));
        FAIL() << "no NvmlError";
    } catch (const NvmlError& error) {
        EXPECT_EQ(error.nvml_text(), "unknown error (NVML code 6)");
    }
}

// Two samplers open the same libnvidia-ml and register the same function: the first
// to close leaves the words of the one still open.
TEST_F(NvmlCheck, TheFirstOfTwoHoldersClosingKeepsTheWordsForTheOther) {
    use_nvml_error_string(fake_error_string);  // a second sampler on the same library
    forget_nvml_error_string(fake_error_string);
    EXPECT_EQ(describe_nvml_status(6), "Not Found (NVML code 6)");
}

const char* newer_error_string(int) {
    return "newer words";
}

TEST_F(NvmlCheck, TheNewestLibraryStillOpenAnswersAndTheOlderOneAfterItCloses) {
    use_nvml_error_string(newer_error_string);
    EXPECT_EQ(describe_nvml_status(6), "newer words (NVML code 6)");
    forget_nvml_error_string(newer_error_string);
    EXPECT_EQ(describe_nvml_status(6), "Not Found (NVML code 6)");
}

}  // namespace
}  // namespace trainscope::profiler
