#include "profiler/analysis/ShortKernelName.hpp"

namespace trainscope::profiler {

namespace {

bool opens(char c) {
    return c == '(' || c == '<' || c == '[' || c == '{';
}
bool closes(char c) {
    return c == ')' || c == '>' || c == ']' || c == '}';
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// Every bracket closes one opened before it (kinds are not told apart: demangled names
// nest them properly, and a name that does not is left alone).
bool balanced(std::string_view s) {
    int depth = 0;
    for (const char c : s) {
        if (opens(c))
            ++depth;
        else if (closes(c) && --depth < 0)
            return false;
    }
    return depth == 0;
}

// Removes a trailing bracketed group ending in `close` (the parameter or template
// argument list), unless it is the whole name.
std::string_view drop_trailing_group(std::string_view s, char close) {
    if (s.empty() || s.back() != close)
        return s;
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
        if (closes(s[i]))
            ++depth;
        else if (opens(s[i]) && --depth == 0)
            return i > 0 ? trimmed(s.substr(0, i)) : s;
    }
    return s;
}

// Where the function's qualified name begins: after the last top-level space, which
// ends the return type (`void`).
std::size_t after_return_type(std::string_view s) {
    std::size_t begin = 0;
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (opens(s[i]))
            ++depth;
        else if (closes(s[i]))
            --depth;
        else if (depth == 0 && s[i] == ' ')
            begin = i + 1;
    }
    return begin;
}

}  // namespace

std::string normalize_kernel_name(std::string_view demangled) {
    const std::string_view full = trimmed(demangled);
    if (!balanced(full))
        return std::string(full);
    const std::string_view s = drop_trailing_group(full, ')');
    std::string out;
    out.reserve(s.size());
    // Depth inside a template argument list (any bracket nested in it counts too, so a
    // `(anonymous namespace)` or lambda inside the arguments goes with them).
    int skipped = 0;
    for (const char c : s.substr(after_return_type(s))) {
        if (skipped > 0) {
            if (opens(c))
                ++skipped;
            else if (closes(c))
                --skipped;
        } else if (c == '<') {
            skipped = 1;
        } else {
            out += c;
        }
    }
    const std::string_view name = trimmed(out);
    return name.empty() ? std::string(full) : std::string(name);
}

std::string shorten_kernel_name(std::string_view demangled) {
    const std::string_view full = trimmed(demangled);
    if (!balanced(full))
        return std::string(full);
    std::string_view s = drop_trailing_group(full, ')');
    s = drop_trailing_group(s, '>');
    // What follows the last top-level space (the return type ends there) or `::`
    // (namespaces and classes end there) is the function's own name.
    std::size_t begin = 0;
    int depth = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const char c = s[i];
        if (opens(c))
            ++depth;
        else if (closes(c))
            --depth;
        else if (depth == 0 && c == ' ')
            begin = i + 1;
        else if (depth == 0 && c == ':' && i + 1 < s.size() && s[i + 1] == ':')
            begin = i + 2;
    }
    const std::string_view name = s.substr(begin);
    return name.empty() ? std::string(full) : std::string(name);
}

}  // namespace trainscope::profiler
