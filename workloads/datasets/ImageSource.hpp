#pragma once

#include <cstdint>

#include "workloads/tensor/Shape.hpp"

namespace trainscope::workloads {

// A labelled set of images stored as bytes; the loader scales them to [0, 1].
class ImageSource {
  public:
    virtual ~ImageSource() = default;
    virtual std::int64_t size() const = 0;
    virtual const Shape& image_shape() const = 0;  // CxHxW
    // Writes image_shape().elements() bytes of image `index`.
    virtual void read_pixels(std::int64_t index, std::uint8_t* pixels) const = 0;
    virtual std::int32_t label(std::int64_t index) const = 0;
};

}  // namespace trainscope::workloads
