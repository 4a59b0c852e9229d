#include "profiler/trace/StringTable.hpp"

#include <stdexcept>
#include <string>

namespace trainscope::profiler {

StringTable::StringTable() {
    intern("");
}

StringTable::StringTable(const StringTable& other) : strings_(other.strings_) {
    rebuild_index();
}

StringTable& StringTable::operator=(const StringTable& other) {
    if (this != &other) {
        strings_ = other.strings_;
        rebuild_index();
    }
    return *this;
}

void StringTable::rebuild_index() {
    index_.clear();
    for (std::size_t i = 0; i < strings_.size(); ++i) {
        index_.emplace(strings_[i], static_cast<StringId>(i));
    }
}

StringId StringTable::intern(std::string_view text) {
    if (auto it = index_.find(text); it != index_.end()) {
        return it->second;
    }
    const auto id = static_cast<StringId>(strings_.size());
    strings_.emplace_back(text);
    index_.emplace(strings_.back(), id);
    return id;
}

const std::string& StringTable::at(StringId id) const {
    if (id >= strings_.size()) {
        throw std::out_of_range("string id " + std::to_string(id) + " is not in the table of " +
                                std::to_string(strings_.size()));
    }
    return strings_[id];
}

}  // namespace trainscope::profiler
