#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

// Launcher of the row gather behind CudaBackend::gather_rows (placement=resident).
namespace trainscope::workloads::cuda::kernels {

// destination row r = source row rows[r] for r < row_count, copied bit for bit in the
// widest word that divides row_bytes. rows live in device memory and must be in range
// (the caller built them; a device kernel cannot report a bad one).
void gather_rows(cudaStream_t stream, std::int64_t row_count, std::size_t row_bytes,
                 const std::int32_t* rows, const void* source, void* destination);

}  // namespace trainscope::workloads::cuda::kernels
