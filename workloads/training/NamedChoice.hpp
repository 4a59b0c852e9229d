#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {

// The spellings of one enum, in the order people read them (the first is listed first
// in messages and in the CLI's help). Every configuration axis parses and formats
// through one such table, so a spelling lives in exactly one place.
template <class E, std::size_t N>
using ChoiceTable = std::array<std::pair<std::string_view, E>, N>;

// "allocator: unknown value 'x'; valid values are pool, device, async, managed"
template <class E, std::size_t N>
E parse_choice(const ChoiceTable<E, N>& table, std::string_view parameter, std::string_view text) {
    std::string valid;
    for (const auto& [name, value] : table) {
        if (name == text)
            return value;
        valid += (valid.empty() ? "" : ", ") + std::string(name);
    }
    throw ConfigError(std::string(parameter) + ": unknown value '" + std::string(text) +
                      "'; valid values are " + valid);
}

template <class E, std::size_t N>
std::string choice_name(const ChoiceTable<E, N>& table, E value) {
    for (const auto& [name, v] : table) {
        if (v == value)
            return std::string(name);
    }
    // Only an enum value cast from outside its range gets here.
    return "unknown";
}

template <class E, std::size_t N>
constexpr std::array<E, N> choice_values(const ChoiceTable<E, N>& table) {
    std::array<E, N> values{};
    for (std::size_t i = 0; i < N; ++i)
        values[i] = table[i].second;
    return values;
}

}  // namespace trainscope::workloads
