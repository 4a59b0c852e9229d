// The root of the error family (common/): what every library fault carries and how it
// reads, and the split from input errors.
#include <gtest/gtest.h>

#include <string>

#include "common/InputError.hpp"
#include "common/LibraryError.hpp"
#include "profiler/formats/TraceFormatError.hpp"

namespace trainscope {
namespace {

TEST(LibraryError, CarriesLibraryCallPlaceMessageAndCode) {
    const LibraryError e("cuDNN", "/src/Conv.cpp", 42, "cudnnCreate(&h)", "CUDNN_STATUS_BAD_PARAM",
                         2000);
    EXPECT_EQ(e.library(), "cuDNN");
    EXPECT_EQ(e.call(), "cudnnCreate(&h)");
    EXPECT_EQ(e.file(), "/src/Conv.cpp");
    EXPECT_EQ(e.line(), 42);
    EXPECT_EQ(e.library_message(), "CUDNN_STATUS_BAD_PARAM");
    EXPECT_EQ(e.code(), 2000);
    EXPECT_STREQ(e.what(),
                 "cuDNN call `cudnnCreate(&h)` failed at /src/Conv.cpp:42: CUDNN_STATUS_BAD_PARAM "
                 "(cuDNN code 2000)");
}

TEST(LibraryError, AnEmptyLibraryMessageStillReads) {
    const LibraryError e("NVML", "f.cpp", 1, "init()", "", 999);
    EXPECT_STREQ(e.what(), "NVML call `init()` failed at f.cpp:1: unknown error (NVML code 999)");
}

TEST(LibraryError, LoggingWritesTheSameWordsAsTheException) {
    testing::internal::CaptureStderr();
    EXPECT_FALSE(log_library_failure("CUPTI", "t.cpp", 7, "cuptiSubscribe(...)",
                                     "CUPTI_ERROR_NOT_INITIALIZED", 15));
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "trainscope: CUPTI call `cuptiSubscribe(...)` failed at t.cpp:7: "
              "CUPTI_ERROR_NOT_INITIALIZED (CUPTI code 15)\n");
}

TEST(InputError, IsNotALibraryError) {
    const profiler::TraceFormatError e("trace.json", "not JSON");
    const std::exception& any = e;
    EXPECT_NE(dynamic_cast<const InputError*>(&any), nullptr);
    EXPECT_EQ(dynamic_cast<const LibraryError*>(&any), nullptr);
}

}  // namespace
}  // namespace trainscope
