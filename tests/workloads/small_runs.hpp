#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>

namespace trainscope::workloads::testing {

// The runs the per-step allocation checks train (small_synthetic_run): seed-cnn and
// ResNet-8, each at fp32 and fp16. A parameter is (model, precision).
using SmallRun = std::pair<std::string, std::string>;

inline auto seed_cnn_and_resnet_fp32_fp16() {
    return ::testing::Values(SmallRun{"seed-cnn", "fp32"}, SmallRun{"seed-cnn", "fp16"},
                             SmallRun{"resnet", "fp32"}, SmallRun{"resnet", "fp16"});
}

// "seed_fp32", "resn_fp16", ...
inline std::string small_run_name(const ::testing::TestParamInfo<SmallRun>& info) {
    return info.param.first.substr(0, 4) + "_" + info.param.second;
}

}  // namespace trainscope::workloads::testing
