#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "../reports/TempDir.hpp"
#include "profiler/trace/TemporaryFile.hpp"

namespace trainscope::profiler {
namespace {

// $TMPDIR set for the test's scope, as it was after.
class ScopedTmpdir {
  public:
    explicit ScopedTmpdir(const std::string& dir) {
        if (const char* old = std::getenv("TMPDIR"); old != nullptr)
            old_ = old;
        setenv("TMPDIR", dir.c_str(), 1);
    }
    ScopedTmpdir(const ScopedTmpdir&) = delete;
    ScopedTmpdir& operator=(const ScopedTmpdir&) = delete;
    ~ScopedTmpdir() {
        if (old_.empty())
            unsetenv("TMPDIR");
        else
            setenv("TMPDIR", old_.c_str(), 1);
    }

  private:
    std::string old_;
};

std::span<const std::byte> bytes_of(const std::string& s) {
    return std::as_bytes(std::span(s.data(), s.size()));
}

TEST(TemporaryFile, ReadsBackWhatWasAppendedWhereverAsked) {
    trainscope::testing::TempDir dir;
    const ScopedTmpdir tmp(dir.path().string());
    TemporaryFile file("the test");
    EXPECT_EQ(file.append(bytes_of("first,")), 0);
    EXPECT_EQ(file.append(bytes_of("second")), 6);
    EXPECT_EQ(file.size(), 12);
    std::string back(6, '\0');
    file.read(6, std::as_writable_bytes(std::span(back.data(), back.size())));
    EXPECT_EQ(back, "second");
    // No name leads to it: nothing is left in $TMPDIR to remove.
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(TemporaryFile, AMissingTmpdirIsNamedWithWhatTheFileWasFor) {
    trainscope::testing::TempDir dir;
    const ScopedTmpdir tmp((dir / "missing").string());
    try {
        TemporaryFile file("the lane summaries");
        FAIL() << "a temporary file was made in a missing folder";
    } catch (const std::system_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("the lane summaries"), std::string::npos) << what;
        EXPECT_NE(what.find("$TMPDIR"), std::string::npos) << what;
    }
}

TEST(TemporaryFile, ReadingPastTheEndFailsRatherThanReturningZeros) {
    trainscope::testing::TempDir dir;
    const ScopedTmpdir tmp(dir.path().string());
    TemporaryFile file("the test");
    file.append(bytes_of("abc"));
    std::vector<std::byte> out(8);
    EXPECT_THROW(file.read(0, out), std::system_error);
}

}  // namespace
}  // namespace trainscope::profiler
