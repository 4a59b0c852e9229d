#pragma once

#include <string>
#include <string_view>

namespace trainscope::profiler {

// The short name Nsight Systems shows for a demangled kernel name (its `shortName`):
// the function's own identifier, without the return type (`void`), the qualifying
// namespaces and classes, the template argument list and the parameter list.
//   void at::native::vectorized_elementwise_kernel<4, ...>(int, ...) ->
//   vectorized_elementwise_kernel void cutlass::Kernel2<cutlass_80_tensorop_...>(...::Params) ->
//   Kernel2 volta_sgemm_128x64_nn (extern "C", nothing to remove)              ->
//   volta_sgemm_128x64_nn
// A name with unbalanced brackets comes back unchanged. Only kernel names are C++:
// callers keep the names of copies and sets ("Memcpy HtoD (Pageable -> Device)") as
// they are. Grouping and lookups keep using the full name; this is for display.
std::string shorten_kernel_name(std::string_view demangled);

// The name two kernels are compared by (`trainscope diff`, the GUI's kernels diff): the
// qualified name without the return type, the template argument lists and the parameter
// list, so that instantiations of one kernel count as one kernel.
//   void at::native::vectorized_elementwise_kernel<4, ...>(int, ...) ->
//   at::native::vectorized_elementwise_kernel
//   void at::native::(anonymous namespace)::CatArrayBatchedCopy<float, ...>(...) ->
//   at::native::(anonymous namespace)::CatArrayBatchedCopy
// Unlike shorten_kernel_name it keeps the namespaces and classes: a `reduce_kernel` of
// two libraries stays two kernels. Unbalanced names come back unchanged (trimmed).
std::string normalize_kernel_name(std::string_view demangled);

}  // namespace trainscope::profiler
