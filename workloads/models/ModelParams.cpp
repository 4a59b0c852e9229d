#include "workloads/models/ModelParams.hpp"

#include <charconv>

#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {

ModelParams::ModelParams(std::string model, const std::map<std::string, std::string>& values,
                         std::set<std::string> known)
    : model_(std::move(model)), values_(values) {
    for (const auto& [key, value] : values_) {
        if (known.count(key) == 0) {
            std::string list;
            for (const std::string& k : known) {
                list += (list.empty() ? "" : ", ") + k;
            }
            throw ConfigError("model parameter '" + key + "' (value '" + value +
                              "') is not a parameter of model " + model_ +
                              "; its parameters: " + (list.empty() ? "none" : list));
        }
    }
}

std::string ModelParams::text(const std::string& key, const std::string& fallback) const {
    auto found = values_.find(key);
    return found == values_.end() ? fallback : found->second;
}

int ModelParams::integer(const std::string& key, int fallback, int minimum) const {
    auto found = values_.find(key);
    if (found == values_.end()) {
        return fallback;
    }
    const std::string& value = found->second;
    int number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (error != std::errc() || end != value.data() + value.size() || number < minimum) {
        throw ConfigError(model_ + " parameter " + key + ": '" + value +
                          "' is not an integer >= " + std::to_string(minimum));
    }
    return number;
}

}  // namespace trainscope::workloads
