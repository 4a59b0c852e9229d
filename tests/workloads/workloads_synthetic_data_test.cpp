// Synthetic data: the test set is not the training set again. With a few thousand noise
// windows per stream, a shared noise buffer would make almost every test image a
// training image, and test accuracy on synthetic data would measure memorisation.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "workloads/datasets/SyntheticImageSource.hpp"

namespace trainscope::workloads {
namespace {

// Each image's bytes as a string key.
std::set<std::string> images(const SyntheticImageSource& source) {
    std::set<std::string> out;
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(source.image_shape().elements()));
    for (std::int64_t i = 0; i < source.size(); ++i) {
        source.read_pixels(i, pixels.data());
        out.emplace(pixels.begin(), pixels.end());
    }
    return out;
}

TEST(WorkloadsSyntheticData, NoTestImageIsATrainingImage) {
    const Shape shape{1, 8, 8};
    const SyntheticImageSource train(shape, 4, 3000, 7, 0);
    const SyntheticImageSource test(shape, 4, 500, 7, 1);
    const auto train_images = images(train);
    std::int64_t shared = 0;
    for (const auto& image : images(test))
        shared += train_images.count(image) > 0 ? 1 : 0;
    EXPECT_EQ(shared, 0);
}

TEST(WorkloadsSyntheticData, SameSeedAndStreamGiveTheSameImages) {
    const Shape shape{3, 4, 4};
    const SyntheticImageSource a(shape, 5, 50, 11, 1);
    const SyntheticImageSource b(shape, 5, 50, 11, 1);
    EXPECT_EQ(images(a), images(b));
    for (std::int64_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(a.label(i), b.label(i));
}

}  // namespace
}  // namespace trainscope::workloads
