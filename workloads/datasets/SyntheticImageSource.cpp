#include "workloads/datasets/SyntheticImageSource.hpp"

namespace trainscope::workloads {
namespace {

// SplitMix64: a counter-based generator, so image i needs no state from image i-1.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

// Distinct noise windows: image i reads its noise from offset (hash of i) mod this.
constexpr std::size_t kNoiseOffsets = 4093;

}  // namespace

SyntheticImageSource::SyntheticImageSource(const Shape& image_shape, int classes,
                                           std::int64_t count, std::uint64_t seed,
                                           std::uint64_t stream)
    : shape_(image_shape),
      classes_(classes),
      count_(count),
      seed_(seed),
      sample_seed_(mix(seed ^ mix(stream + 1))) {
    const auto pixels = static_cast<std::size_t>(shape_.elements());
    prototypes_.resize(pixels * static_cast<std::size_t>(classes_));
    std::uint64_t state = mix(seed_ ^ 0x5eedULL);
    for (std::uint8_t& value : prototypes_) {
        state = mix(state);
        value = static_cast<std::uint8_t>(state >> 56);
    }
    // The noise is the stream's own (train and test differ), so no test image is a
    // training image: accuracy on synthetic data is not memorisation. The prototypes are
    // shared: they are the classes.
    noise_.resize(pixels + kNoiseOffsets);
    std::uint64_t noise_state = mix(sample_seed_ ^ 0x401eULL);
    for (std::uint8_t& value : noise_) {
        noise_state = mix(noise_state);
        value = static_cast<std::uint8_t>(noise_state >> 56);
    }
}

void SyntheticImageSource::read_pixels(std::int64_t index, std::uint8_t* pixels) const {
    const auto count = static_cast<std::size_t>(shape_.elements());
    const std::uint8_t* prototype =
        prototypes_.data() + static_cast<std::size_t>(label(index)) * count;
    // A window of the noise made once, not a draw per pixel: staging a 3x224x224 batch
    // costs a pass over memory, not seconds of hashing.
    const std::uint8_t* noise =
        noise_.data() +
        mix(sample_seed_ + 0x1234567ULL * static_cast<std::uint64_t>(index + 1)) % kNoiseOffsets;
    for (std::size_t i = 0; i < count; ++i) {
        pixels[i] = static_cast<std::uint8_t>((prototype[i] + noise[i]) / 2);
    }
}

std::int32_t SyntheticImageSource::label(std::int64_t index) const {
    return static_cast<std::int32_t>(mix(sample_seed_ ^ static_cast<std::uint64_t>(index)) %
                                     static_cast<std::uint64_t>(classes_));
}

}  // namespace trainscope::workloads
