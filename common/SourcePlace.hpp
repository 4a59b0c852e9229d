#pragma once

namespace trainscope {

// Where in our code a call was made, taken at the caller when used as a default argument
// (`SourcePlace where = SourcePlace::here()`), so a library error names the caller's
// file:line rather than the wrapper's. Not std::source_location: clang 14, which builds the
// sanitizer presets, cannot compile libstdc++ 12's <source_location> (it lacks
// __builtin_source_location); __builtin_FILE/__builtin_LINE are in GCC and clang alike.
struct SourcePlace {
    const char* file = "";
    int line = 0;

    static constexpr SourcePlace here(const char* file = __builtin_FILE(),
                                      int line = __builtin_LINE()) {
        return {file, line};
    }
};

}  // namespace trainscope
