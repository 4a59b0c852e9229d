#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace trainscope {

// Builds "<library> call `<call>` failed at <file>:<line>: <message> (<library> code <code>)",
// the one wording of every library fault, thrown or logged.
inline std::string describe_library_failure(std::string_view library, const char* file, int line,
                                            std::string_view call, std::string_view message,
                                            int code) {
    std::string text;
    text.reserve(library.size() * 2 + call.size() + message.size() + 64);
    text.append(library).append(" call `").append(call).append("` failed at ");
    text.append(file != nullptr ? file : "?").append(":").append(std::to_string(line));
    text.append(": ").append(message.empty() ? std::string_view("unknown error") : message);
    text.append(" (").append(library).append(" code ").append(std::to_string(code)).append(")");
    return text;
}

// A call into a library that failed: CUDA, cuDNN, cuBLAS, CUPTI, NVML, SQLite, oneDNN.
// Neither bad input (InputError) nor a bug in trainscope: the library, the driver or the
// machine said no, and the message says which call, where, and in the library's words.
// Each library has one subclass and one checking macro, TS_<LIBRARY>_CHECK(call), which
// calls a [[noreturn]] throw_<library>_error(__FILE__, __LINE__, #call, status).
class LibraryError : public std::runtime_error {
  public:
    LibraryError(std::string library, const char* file, int line, std::string call,
                 std::string library_message, int code)
        : std::runtime_error(
              describe_library_failure(library, file, line, call, library_message, code)),
          library_(std::move(library)),
          call_(std::move(call)),
          file_(file != nullptr ? file : "?"),
          line_(line),
          library_message_(std::move(library_message)),
          code_(code) {}

    [[nodiscard]] const std::string& library() const { return library_; }
    // The call as written at the check, e.g. "cudaMalloc(&p, bytes)".
    [[nodiscard]] const std::string& call() const { return call_; }
    [[nodiscard]] const std::string& file() const { return file_; }
    [[nodiscard]] int line() const { return line_; }
    // The library's own description of the failure, e.g. "out of memory".
    [[nodiscard]] const std::string& library_message() const { return library_message_; }
    // The library's status code as a number (cudaError_t, cudnnStatus_t, SQLite result...).
    [[nodiscard]] int code() const { return code_; }

  private:
    std::string library_;
    std::string call_;
    std::string file_;
    int line_;
    std::string library_message_;
    int code_;
};

// The logging half of the _NOEXCEPT twins (destructors, deleters, C callbacks): the same
// text as the exception, on stderr. Never throws; returns false so a twin can yield it.
inline bool log_library_failure(std::string_view library, const char* file, int line,
                                std::string_view call, std::string_view message,
                                int code) noexcept {
    try {
        const std::string text = describe_library_failure(library, file, line, call, message, code);
        std::fprintf(stderr, "trainscope: %s\n", text.c_str());
    } catch (...) {
        // Out of memory while describing: say at least which library and code.
        std::fprintf(stderr, "trainscope: a %.*s call failed (code %d)\n",
                     static_cast<int>(library.size()), library.data(), code);
    }
    return false;
}

}  // namespace trainscope
