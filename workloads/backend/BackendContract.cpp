#include "workloads/backend/BackendContract.hpp"

#include "workloads/backend/Backend.hpp"
#include "workloads/backend/ContractError.hpp"

namespace trainscope::workloads {

std::string Contract::describe(const Tensor& t) {
    if (t.empty()) {
        return "empty";
    }
    return std::string(dtype_name(t.dtype())) + " [" + t.shape().to_string() + "]";
}

void Contract::fail(const char* argument, const std::string& actual,
                    const std::string& expected) const {
    throw ContractError(backend_->name() + " backend: " + op_ + ": " + argument + " is " + actual +
                        ", expected " + expected);
}

void Contract::not_empty(const char* argument, const Tensor& t) const {
    require(!t.empty(), argument, t, "a tensor");
}

void Contract::rank(const char* argument, const Tensor& t, int rank) const {
    require(!t.empty() && t.shape().rank() == rank, argument, t,
            [rank] { return "rank " + std::to_string(rank); });
}

void Contract::dtype(const char* argument, const Tensor& t, DType dtype) const {
    require(!t.empty() && t.dtype() == dtype, argument, t, dtype_name(dtype));
}

void Contract::floating(const char* argument, const Tensor& t) const {
    require(!t.empty() && t.dtype() != DType::i32, argument, t,
            "a float dtype (f32, f64, f16, bf16)");
}

void Contract::elements(const char* argument, const Tensor& t, std::int64_t elements,
                        const char* because) const {
    require(!t.empty() && t.elements() == elements, argument, t, [elements, because] {
        return std::to_string(elements) + " elements (" + because + ")";
    });
}

void Contract::like(const char* argument, const Tensor& t, const char* like_name,
                    const Tensor& like) const {
    require(!t.empty() && t.dtype() == like.dtype() && t.shape() == like.shape(), argument, t,
            [&like, like_name] { return describe(like) + " (as " + like_name + ")"; });
}

void Contract::same_dtype(const char* argument, const Tensor& t, const char* like_name,
                          const Tensor& like) const {
    require(!t.empty() && t.dtype() == like.dtype(), argument, t, [&like, like_name] {
        return std::string(dtype_name(like.dtype())) + " (as " + like_name + ")";
    });
}

void Contract::overflow_flag(const char* argument, const Tensor& t, bool optional) const {
    if (optional && t.empty()) {
        return;
    }
    require(!t.empty() && t.dtype() == DType::f32 && t.elements() == 1, argument, t,
            optional ? "empty or f32 [1]" : "f32 [1]");
}

void Contract::master_of(const char* argument, const Tensor& t, const char* storage_name,
                         const Tensor& storage) const {
    const DType master = storage.dtype() == DType::f64 ? DType::f64 : DType::f32;
    require(!t.empty() && t.dtype() == master, argument, t, [master, storage_name] {
        return std::string(dtype_name(master)) + " (the master dtype beside " + storage_name + ")";
    });
}

}  // namespace trainscope::workloads
