#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

#include "profiler/trace/Activity.hpp"

namespace trainscope::profiler {

// Interned names: an activity carries a 4-byte id instead of a string. Id 0 is "".
class StringTable {
  public:
    StringTable();
    StringTable(const StringTable& other);
    StringTable& operator=(const StringTable& other);
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;

    StringId intern(std::string_view text);
    [[nodiscard]] const std::string& at(StringId id) const;
    [[nodiscard]] std::size_t size() const { return strings_.size(); }

  private:
    void rebuild_index();

    std::deque<std::string> strings_;  // deque: views into it stay valid as it grows
    std::unordered_map<std::string_view, StringId> index_;
};

}  // namespace trainscope::profiler
