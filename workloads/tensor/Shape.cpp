#include "workloads/tensor/Shape.hpp"

#include <stdexcept>

namespace trainscope::workloads {

Shape::Shape(std::initializer_list<std::int64_t> dims) {
    if (dims.size() > kMaxRank) {
        throw std::logic_error("Shape: rank above " + std::to_string(kMaxRank));
    }
    for (std::int64_t d : dims) {
        dims_[static_cast<std::size_t>(rank_++)] = d;
    }
}

std::int64_t Shape::elements() const {
    std::int64_t n = 1;
    for (int i = 0; i < rank_; ++i) {
        n *= dims_[static_cast<std::size_t>(i)];
    }
    return n;
}

std::int64_t Shape::inner_elements() const {
    std::int64_t n = 1;
    for (int i = 1; i < rank_; ++i) {
        n *= dims_[static_cast<std::size_t>(i)];
    }
    return n;
}

Shape Shape::with_batch(std::int64_t batch) const {
    if (rank_ == kMaxRank) {
        throw std::logic_error("Shape::with_batch: shape " + to_string() + " is already rank 4");
    }
    Shape out;
    out.rank_ = rank_ + 1;
    out.dims_[0] = batch;
    for (int i = 0; i < rank_; ++i) {
        out.dims_[static_cast<std::size_t>(i + 1)] = dims_[static_cast<std::size_t>(i)];
    }
    return out;
}

Shape Shape::without_batch() const {
    Shape out;
    out.rank_ = rank_ > 0 ? rank_ - 1 : 0;
    for (int i = 0; i < out.rank_; ++i) {
        out.dims_[static_cast<std::size_t>(i)] = dims_[static_cast<std::size_t>(i + 1)];
    }
    return out;
}

std::string Shape::to_string() const {
    std::string text;
    for (int i = 0; i < rank_; ++i) {
        if (i > 0) {
            text += 'x';
        }
        text += std::to_string(dims_[static_cast<std::size_t>(i)]);
    }
    return text;
}

bool operator==(const Shape& a, const Shape& b) {
    if (a.rank_ != b.rank_) {
        return false;
    }
    for (int i = 0; i < a.rank_; ++i) {
        if (a.dims_[static_cast<std::size_t>(i)] != b.dims_[static_cast<std::size_t>(i)]) {
            return false;
        }
    }
    return true;
}

}  // namespace trainscope::workloads
