#pragma once

#include <cstdint>
#include <vector>

#include "workloads/datasets/ImageSource.hpp"

namespace trainscope::workloads {

// Deterministic images of any shape, made on demand from (seed, index): each class has
// a random prototype, and an image is its class's prototype blended with a window of one
// noise sequence made at construction, starting at an offset hashed from the index (4093
// distinct windows). Models can learn it; the prototypes and the noise (one image plus
// 4093 bytes) are all that is stored, and making an image is one pass over its bytes.
class SyntheticImageSource final : public ImageSource {
  public:
    // Sources with the same seed share prototypes; `stream` tells their images apart
    // (0: training set, 1: test set).
    SyntheticImageSource(const Shape& image_shape, int classes, std::int64_t count,
                         std::uint64_t seed, std::uint64_t stream);

    std::int64_t size() const override { return count_; }
    const Shape& image_shape() const override { return shape_; }
    void read_pixels(std::int64_t index, std::uint8_t* pixels) const override;
    std::int32_t label(std::int64_t index) const override;

  private:
    Shape shape_;
    int classes_;
    std::int64_t count_;
    std::uint64_t seed_;
    std::uint64_t sample_seed_;
    std::vector<std::uint8_t> prototypes_;
    std::vector<std::uint8_t> noise_;
};

}  // namespace trainscope::workloads
