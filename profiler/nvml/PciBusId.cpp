#include "profiler/nvml/PciBusId.hpp"

#include <array>
#include <cstdio>
#include <vector>

namespace trainscope::profiler {

namespace {

// One hexadecimal field of 1 to `max_digits` digits, at most `max_value`.
std::optional<std::uint32_t> parse_hex(std::string_view text, std::size_t max_digits,
                                       std::uint32_t max_value) {
    if (text.empty() || text.size() > max_digits)
        return std::nullopt;
    std::uint64_t value = 0;
    for (const char c : text) {
        std::uint32_t digit = 0;
        if (c >= '0' && c <= '9')
            digit = static_cast<std::uint32_t>(c - '0');
        else if (c >= 'a' && c <= 'f')
            digit = static_cast<std::uint32_t>(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            digit = static_cast<std::uint32_t>(c - 'A' + 10);
        else
            return std::nullopt;
        value = value * 16 + digit;
    }
    if (value > max_value)
        return std::nullopt;
    return static_cast<std::uint32_t>(value);
}

std::string_view trim(std::string_view text) {
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
    while (!text.empty() && blank(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && blank(text.back()))
        text.remove_suffix(1);
    return text;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
    std::vector<std::string_view> parts;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t end = text.find(separator, begin);
        parts.push_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
        if (end == std::string_view::npos)
            return parts;
        begin = end + 1;
    }
}

}  // namespace

std::optional<PciBusId> parse_pci_bus_id(std::string_view text) {
    text = trim(text);
    const std::vector<std::string_view> colon = split(text, ':');
    if (colon.size() != 2 && colon.size() != 3)
        return std::nullopt;
    const std::vector<std::string_view> dot = split(colon.back(), '.');
    if (dot.size() > 2)
        return std::nullopt;
    // "bus:device" alone is not a documented form: two fields need the function.
    if (colon.size() == 2 && dot.size() != 2)
        return std::nullopt;
    PciBusId id;
    if (colon.size() == 3) {
        const auto domain = parse_hex(colon[0], 8, 0xffffffffu);
        if (!domain)
            return std::nullopt;
        id.domain = *domain;
    }
    const auto bus = parse_hex(colon[colon.size() - 2], 2, 0xffu);
    const auto device = parse_hex(dot[0], 2, 0x1fu);
    if (!bus || !device)
        return std::nullopt;
    id.bus = *bus;
    id.device = *device;
    if (dot.size() == 2) {
        const auto function = parse_hex(dot[1], 1, 7u);
        if (!function)
            return std::nullopt;
        id.function = *function;
    }
    return id;
}

std::string to_nvml_bus_id(const PciBusId& id) {
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%08X:%02X:%02X.%X", id.domain, id.bus, id.device,
                  id.function);
    return text.data();
}

}  // namespace trainscope::profiler
