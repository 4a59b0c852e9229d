#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace trainscope::workloads {

// Dimensions of a tensor, outermost first (NCHW for images). Fixed capacity so that
// making shapes in the training loop never allocates.
class Shape {
  public:
    static constexpr int kMaxRank = 4;

    Shape() = default;
    Shape(std::initializer_list<std::int64_t> dims);

    int rank() const { return rank_; }
    std::int64_t operator[](int axis) const { return dims_[static_cast<std::size_t>(axis)]; }
    std::int64_t elements() const;
    // Everything but the outermost dimension: the size of one sample.
    std::int64_t inner_elements() const;
    // This shape with a batch dimension in front (rank + 1).
    Shape with_batch(std::int64_t batch) const;
    // This shape without its outermost dimension.
    Shape without_batch() const;
    std::string to_string() const;  // "32x26x26"

    friend bool operator==(const Shape& a, const Shape& b);

  private:
    std::array<std::int64_t, kMaxRank> dims_{};
    int rank_ = 0;
};

}  // namespace trainscope::workloads
