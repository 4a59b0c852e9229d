// The libFuzzer entry point of one target; CMake names the target's input function.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/FuzzInputs.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    trainscope::fuzz::TRAINSCOPE_FUZZ_INPUT(trainscope::fuzz::Bytes(data, size));
    return 0;
}
