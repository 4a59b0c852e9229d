#include "workloads/backends/cuda/kernels/GatherKernels.hpp"
#include "workloads/backends/cuda/kernels/GatherMath.hpp"
#include "workloads/backends/cuda/kernels/LaunchShape.hpp"

namespace trainscope::workloads::cuda::kernels {
namespace {

template <typename Word>
__global__ void gather_rows_kernel(std::int64_t words, std::int64_t row_words,
                                   const std::int32_t* rows, const Word* source,
                                   Word* destination) {
    const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * blockDim.x;
    for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
         i < words; i += stride) {
        destination[i] = source[math::gather_source_word(i, row_words, rows)];
    }
}

template <typename Word>
void launch(cudaStream_t stream, std::int64_t row_count, std::size_t row_bytes,
            const std::int32_t* rows, const void* source, void* destination) {
    const auto row_words = static_cast<std::int64_t>(row_bytes / sizeof(Word));
    const std::int64_t words = row_count * row_words;
    gather_rows_kernel<Word><<<blocks_for(words), kThreadsPerBlock, 0, stream>>>(
        words, row_words, rows, static_cast<const Word*>(source), static_cast<Word*>(destination));
    TS_CUDA_CHECK_LAUNCH();
}

}  // namespace

void gather_rows(cudaStream_t stream, std::int64_t row_count, std::size_t row_bytes,
                 const std::int32_t* rows, const void* source, void* destination) {
    if (row_count == 0 || row_bytes == 0) {
        return;  // an empty launch is an invalid configuration
    }
    switch (math::gather_word_bytes(row_bytes)) {
        case 8:
            launch<std::uint64_t>(stream, row_count, row_bytes, rows, source, destination);
            break;
        case 4:
            launch<std::uint32_t>(stream, row_count, row_bytes, rows, source, destination);
            break;
        case 2:
            launch<std::uint16_t>(stream, row_count, row_bytes, rows, source, destination);
            break;
        default:
            launch<std::uint8_t>(stream, row_count, row_bytes, rows, source, destination);
            break;
    }
}

}  // namespace trainscope::workloads::cuda::kernels
