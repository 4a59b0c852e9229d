#include "workloads/training/ConfigValidation.hpp"

#include <cmath>
#include <string>

#include "workloads/training/ConfigError.hpp"
#include "workloads/training/CudaGraphSupport.hpp"

namespace trainscope::workloads {
namespace {

void require_positive(std::int64_t value, const char* name) {
    if (value < 1) {
        throw ConfigError(std::string(name) + ": " + std::to_string(value) + " must be at least 1");
    }
}

void require_non_negative(std::int64_t value, const char* name) {
    if (value < 0) {
        throw ConfigError(std::string(name) + ": " + std::to_string(value) + " must be >= 0");
    }
}

// A GPU-only memory axis on the CPU backend: only its default, which describes what the
// CPU does anyway, is accepted.
template <class E>
void require_cpu_axis(E value, const char* name, E cpu_default) {
    if (value != cpu_default) {
        throw ConfigError(std::string(name) + ": '" + to_string(value) +
                          "' is a CUDA memory strategy; the cpu backend has none (use " +
                          to_string(cpu_default) + "; a cpu run records it as n/a)");
    }
}

}  // namespace

void validate_run_parameters(const TrainingConfig& config) {
    require_positive(config.batch, "batch");
    require_non_negative(config.steps, "steps");
    if (config.steps == 0) {
        require_positive(config.epochs, "epochs");
    }
    require_non_negative(config.warmup_steps, "warmup_steps");
    require_non_negative(config.threads, "threads");
    require_non_negative(config.eval_every_steps, "eval_every_steps");
    if (config.target_accuracy &&
        (*config.target_accuracy <= 0.0 || *config.target_accuracy > 1.0)) {
        throw ConfigError("target_accuracy: " + std::to_string(*config.target_accuracy) +
                          " must be in (0, 1]");
    }
    if (!(config.learning_rate > 0.0)) {
        throw ConfigError("learning_rate: " + std::to_string(config.learning_rate) +
                          " must be positive");
    }
    // Also on precisions without loss scaling: a bad value is a mistake there too.
    if (!(config.initial_loss_scale > 0.0) || !std::isfinite(config.initial_loss_scale)) {
        throw ConfigError("initial_loss_scale: " + std::to_string(config.initial_loss_scale) +
                          " must be a positive finite number (PyTorch's default is 65536)");
    }
    require_positive(config.loss_scale_growth_interval, "loss_scale_growth_interval");
    require_positive(config.ranks, "ranks");
    if (config.batch % config.ranks != 0) {
        throw ConfigError("batch: the global batch " + std::to_string(config.batch) +
                          " does not divide among " + std::to_string(config.ranks) +
                          " ranks; use a batch that is a multiple of ranks");
    }
    if (!(config.bucket_mb > 0.0) || !std::isfinite(config.bucket_mb)) {
        throw ConfigError("bucket_mb: " + std::to_string(config.bucket_mb) +
                          " must be a positive number of MiB (PyTorch DDP's default is 25)");
    }
    if (config.ranks > 1 && config.cuda_graph) {
        throw ConfigError("cuda_graph: a captured step cannot hold the all-reduces of ranks=" +
                          std::to_string(config.ranks) + "; use cuda_graph=false with ranks > 1");
    }
    if (!is_backend(config.backend, BackendKind::cpu)) {
        // The GPU backend validates its own memory axes; the combinations a captured
        // step cannot run are refused here already.
        if (config.cuda_graph) {
            const std::string refusal = cuda_graph_refusal(config.allocator);
            if (!refusal.empty()) {
                throw ConfigError(refusal);
            }
        }
        return;
    }
    if (allocator_needs_cuda(config.allocator)) {
        throw ConfigError("allocator: '" + to_string(config.allocator) +
                          "' needs the CUDA backend; on backend cpu use device or pool");
    }
    require_cpu_axis(config.host_memory, "host_memory", HostMemory::pageable);
    require_cpu_axis(config.transfer, "transfer", Transfer::sync);
    require_cpu_axis(config.placement, "placement", Placement::stream);
    if (config.cuda_graph) {
        throw ConfigError(
            "cuda_graph: true captures training steps into CUDA graphs, which needs the CUDA "
            "backend; use cuda_graph=false on backend cpu");
    }
}

}  // namespace trainscope::workloads
