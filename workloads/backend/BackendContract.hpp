#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "workloads/tensor/Tensor.hpp"

namespace trainscope::workloads {

// The checks behind Backend's public operations: each throws ContractError
// "<backend> backend: <op>: <argument> is <what it is>, expected <what the op needs>" when
// the condition fails. A Contract names the backend and the op once per call. The checks run
// on every Backend call inside the timed step, so a passing check allocates nothing: the
// expected text is a literal or a callable that builds it, and the message is built only
// when a check fails.
class Backend;

// Backend::gemm's problem on the 2-D views [dim0, rest] of its operands: op(a) is m x k,
// op(b) b_inner x n (b_inner must equal k), c m x n. One definition for the contract and
// the backends.
struct GemmDims {
    std::int64_t m = 0;
    std::int64_t n = 0;
    std::int64_t k = 0;
    std::int64_t b_inner = 0;
};

inline GemmDims gemm_dims(bool transpose_a, bool transpose_b, const Tensor& a, const Tensor& b) {
    const std::int64_t a_rows = a.shape()[0];
    const std::int64_t a_cols = a.shape().inner_elements();
    const std::int64_t b_rows = b.shape()[0];
    const std::int64_t b_cols = b.shape().inner_elements();
    return GemmDims{transpose_a ? a_cols : a_rows, transpose_b ? b_rows : b_cols,
                    transpose_a ? a_rows : a_cols, transpose_b ? b_cols : b_rows};
}

class Contract {
  public:
    // Asks the backend its name only when a check fails: a passing check costs no string.
    Contract(const Backend& backend, const char* op) : backend_(&backend), op_(op) {}

    // "f32 [2x3]", or "empty".
    static std::string describe(const Tensor& t);

    [[noreturn]] void fail(const char* argument, const std::string& actual,
                           const std::string& expected) const;
    // `expected`: a const char*, or a callable returning the text, called only on failure.
    template <class Expected>
    void require(bool condition, const char* argument, const Tensor& actual,
                 const Expected& expected) const {
        if (!condition) [[unlikely]] {
            if constexpr (std::is_invocable_v<const Expected&>) {
                fail(argument, describe(actual), expected());
            } else {
                fail(argument, describe(actual), std::string(expected));
            }
        }
    }

    void not_empty(const char* argument, const Tensor& t) const;
    void rank(const char* argument, const Tensor& t, int rank) const;
    void dtype(const char* argument, const Tensor& t, DType dtype) const;
    // f32, f64, f16 or bf16.
    void floating(const char* argument, const Tensor& t) const;
    void elements(const char* argument, const Tensor& t, std::int64_t elements,
                  const char* because) const;
    // Same dtype and shape as `like` (called like_name).
    void like(const char* argument, const Tensor& t, const char* like_name,
              const Tensor& like) const;
    void same_dtype(const char* argument, const Tensor& t, const char* like_name,
                    const Tensor& like) const;
    // An f32 tensor of one element, or empty when `optional`.
    void overflow_flag(const char* argument, const Tensor& t, bool optional) const;
    // A master-dtype tensor next to a storage-dtype one: f64 beside f64, f32 beside the rest.
    void master_of(const char* argument, const Tensor& t, const char* storage_name,
                   const Tensor& storage) const;

  private:
    const Backend* backend_;
    const char* op_;
};

}  // namespace trainscope::workloads
