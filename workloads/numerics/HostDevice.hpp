#pragma once

// Lets the per-element math in this folder compile unchanged into CUDA kernels while a
// host-only build (and every CPU test) sees plain inline functions.
#if defined(__CUDACC__)
#define TS_HD __host__ __device__
#else
#define TS_HD
#endif
