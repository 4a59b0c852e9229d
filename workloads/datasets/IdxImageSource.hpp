#pragma once

#include <filesystem>

#include "workloads/datasets/IdxFile.hpp"
#include "workloads/datasets/ImageSource.hpp"

namespace trainscope::workloads {

// Images and labels from a pair of IDX files (MNIST, Fashion-MNIST), held in memory.
class IdxImageSource final : public ImageSource {
  public:
    // Throws ConfigError when the two files do not describe the same number of samples
    // or a label is outside [0, classes).
    IdxImageSource(const std::filesystem::path& images, const std::filesystem::path& labels,
                   int classes);

    std::int64_t size() const override { return count_; }
    const Shape& image_shape() const override { return shape_; }
    void read_pixels(std::int64_t index, std::uint8_t* pixels) const override;
    std::int32_t label(std::int64_t index) const override;

  private:
    IdxArray images_;
    IdxArray labels_;
    Shape shape_;
    std::int64_t count_ = 0;
};

}  // namespace trainscope::workloads
