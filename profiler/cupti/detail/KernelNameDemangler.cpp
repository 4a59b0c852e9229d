#include "profiler/cupti/detail/KernelNameDemangler.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace trainscope::profiler::detail {

namespace {
struct FreeDeleter {
    void operator()(char* p) const noexcept { std::free(p); }
};
}  // namespace

std::string demangle_kernel_name(const char* name) {
    if (name == nullptr)
        return {};
    int status = 0;
    const std::unique_ptr<char, FreeDeleter> demangled(
        abi::__cxa_demangle(name, nullptr, nullptr, &status));
    if (status == 0 && demangled)
        return demangled.get();
    return name;
}

}  // namespace trainscope::profiler::detail
