#include "workloads/datasets/IdxImageSource.hpp"

#include <cstring>

#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {

IdxImageSource::IdxImageSource(const std::filesystem::path& images,
                               const std::filesystem::path& labels, int classes)
    : images_(read_idx_file(images)), labels_(read_idx_file(labels)) {
    if (images_.dims.size() != 3 && images_.dims.size() != 4) {
        throw ConfigError("dataset file " + images.string() + ": images must be N x H x W or " +
                          "N x C x H x W, the file has " + std::to_string(images_.dims.size()) +
                          " dimensions");
    }
    if (labels_.dims.size() != 1) {
        throw ConfigError("dataset file " + labels.string() + ": labels must be one dimension");
    }
    count_ = images_.dims[0];
    if (labels_.dims[0] != images_.dims[0]) {
        throw ConfigError("dataset files " + images.string() + " and " + labels.string() +
                          " disagree on the number of samples (" + std::to_string(images_.dims[0]) +
                          " vs " + std::to_string(labels_.dims[0]) + ")");
    }
    if (images_.dims.size() == 3) {
        shape_ = Shape{1, images_.dims[1], images_.dims[2]};
    } else {
        shape_ = Shape{images_.dims[1], images_.dims[2], images_.dims[3]};
    }
    for (std::uint8_t value : labels_.values) {
        if (value >= classes) {
            throw ConfigError("dataset file " + labels.string() + ": label " +
                              std::to_string(value) + " is outside 0.." +
                              std::to_string(classes - 1));
        }
    }
}

void IdxImageSource::read_pixels(std::int64_t index, std::uint8_t* pixels) const {
    const auto bytes = static_cast<std::size_t>(shape_.elements());
    std::memcpy(pixels, images_.values.data() + static_cast<std::size_t>(index) * bytes, bytes);
}

std::int32_t IdxImageSource::label(std::int64_t index) const {
    return labels_.values[static_cast<std::size_t>(index)];
}

}  // namespace trainscope::workloads
