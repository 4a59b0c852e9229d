#pragma once

#include <map>
#include <set>
#include <string>

namespace trainscope::workloads {

// Reads the model parameters of one model: rejects keys the model does not have and
// turns values into numbers, naming the parameter in every ConfigError.
class ModelParams {
  public:
    ModelParams(std::string model, const std::map<std::string, std::string>& values,
                std::set<std::string> known);

    std::string text(const std::string& key, const std::string& fallback) const;
    int integer(const std::string& key, int fallback, int minimum) const;

  private:
    std::string model_;
    const std::map<std::string, std::string>& values_;
};

}  // namespace trainscope::workloads
