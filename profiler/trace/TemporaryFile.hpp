#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>

namespace trainscope::profiler {

// Scratch bytes on disk, in a file of $TMPDIR (else /tmp) that no name leads to: the
// system removes it when it is closed, however the process ends. Written at the end and
// read anywhere (pread: readers on other threads may read what was written before they
// were handed the file). Every failure throws std::system_error naming `purpose` and
// $TMPDIR.
class TemporaryFile {
  public:
    // `purpose`: what the file is for, in the errors ("the lane summaries").
    explicit TemporaryFile(std::string purpose);

    // Returns the offset the bytes were written at.
    std::int64_t append(std::span<const std::byte> bytes);
    void read(std::int64_t offset, std::span<std::byte> out) const;
    [[nodiscard]] std::int64_t size() const { return size_; }

  private:
    struct Closer {
        void operator()(std::FILE* f) const noexcept { std::fclose(f); }
    };
    [[noreturn]] void fail(const char* doing, const char* hint = nullptr) const;

    std::string purpose_;
    std::unique_ptr<std::FILE, Closer> file_;
    std::int64_t size_ = 0;
};

}  // namespace trainscope::profiler
