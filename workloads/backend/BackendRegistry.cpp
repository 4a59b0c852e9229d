#include "workloads/backend/BackendRegistry.hpp"

#include <map>
#include <mutex>

#include "workloads/backends/cpu/CpuBackend.hpp"
#if defined(TRAINSCOPE_HAS_CUDA)
#include "workloads/backends/cuda/CudaModuleApi.hpp"
#endif
#include "workloads/training/ConfigError.hpp"

namespace trainscope::workloads {
namespace {

struct Registry {
    Registry() {
        factories["cpu"] = [](const BackendOptions& options) -> std::unique_ptr<Backend> {
            return std::make_unique<CpuBackend>(options.threads);
        };
#if defined(TRAINSCOPE_HAS_CUDA)
        // The CUDA backend is the CUDA module's: loaded with dlopen when the first one is
        // made, so a CPU-only run never maps the CUDA libraries.
        factories["cuda"] = [](const BackendOptions& options) -> std::unique_ptr<Backend> {
            return cuda_workloads_api().make_backend(options);
        };
#endif
    }
    std::mutex mutex;
    std::map<std::string, BackendFactory> factories;
};

Registry& registry() {
    static Registry instance;
    return instance;
}

}  // namespace

void register_backend(const std::string& name, BackendFactory factory) {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    r.factories[name] = std::move(factory);
}

bool backend_registered(const std::string& name) {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    return r.factories.count(name) != 0;
}

std::vector<std::string> registered_backends() {
    Registry& r = registry();
    std::lock_guard lock(r.mutex);
    std::vector<std::string> names;
    for (const auto& entry : r.factories) {
        names.push_back(entry.first);
    }
    return names;
}

std::unique_ptr<Backend> create_backend(const std::string& name, const BackendOptions& options) {
    BackendFactory factory;
    {
        Registry& r = registry();
        std::lock_guard lock(r.mutex);
        auto found = r.factories.find(name);
        if (found != r.factories.end()) {
            factory = found->second;
        }
    }
    if (!factory) {
        std::string known;
        for (const std::string& n : registered_backends()) {
            known += (known.empty() ? "" : ", ") + n;
        }
        std::string hint = is_backend(name, BackendKind::cuda)
                               ? " (this build has no CUDA backend registered; use "
                                 "backend=cpu or a build with TRAINSCOPE_CUDA=ON)"
                               : "";
        throw ConfigError("backend: '" + name + "' is not available" + hint +
                          "; valid values: " + known);
    }
    return factory(options);
}

}  // namespace trainscope::workloads
