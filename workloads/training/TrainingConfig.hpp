#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "workloads/backend/BackendKind.hpp"
#include "workloads/backend/MemoryStrategy.hpp"
#include "workloads/distributed/Overlap.hpp"
#include "workloads/numerics/Precision.hpp"
#include "workloads/optim/OptimizerKind.hpp"

namespace trainscope::workloads {

// Everything one training run (one matrix cell) needs. The axes are typed: their text
// (docs/architecture.md's vocabulary) is parsed where it comes in, by the parse_* and
// to_string pairs beside each enum. The harness fills it from the CLI or a matrix file;
// the engine validates it and throws ConfigError naming the bad parameter.
struct TrainingConfig {
    std::string model = "seed-cnn";
    std::map<std::string, std::string> model_params;  // e.g. {"depth","20"},{"width","16"}
    std::string dataset = "fashion-mnist";  // "fashion-mnist", "mnist", "synthetic" or a folder
    std::string dataset_dir;                // empty: the default location of `dataset`
    std::string input_shape;                // synthetic only: "CxHxW"
    int classes = 10;                       // synthetic only
    Precision precision = Precision::fp32;
    // A registered backend's name: "cpu", "cuda" (to_string(BackendKind)) or one a test
    // registered; already resolved from "auto".
    std::string backend = to_string(BackendKind::cpu);
    int device = 0;
    int batch = 64;
    std::int64_t steps = 0;  // 0: use epochs
    int epochs = 1;
    int warmup_steps = 5;  // not counted in step-time statistics
    int threads = 0;       // 0: all cores
    std::uint64_t seed = 1;
    OptimizerKind optimizer = OptimizerKind::adam;
    double learning_rate = 1e-3;
    double momentum = 0.9;      // sgd
    double weight_decay = 0.0;  // sgd
    // fp16's dynamic loss scaling (PyTorch GradScaler's init_scale and growth_interval):
    // the first scale, and the clean steps in a row after which it doubles.
    double initial_loss_scale = 65536.0;
    std::int64_t loss_scale_growth_interval = 2000;
    std::optional<double> target_accuracy;
    // Evaluate on the test set every this many steps (0: at the end of each epoch and of the run).
    std::int64_t eval_every_steps = 0;
    // false: no test-set evaluation at all (throughput benchmarks); evaluations stay empty.
    bool evaluate = true;
    // Memory strategy axes. A backend without host_memory, transfer and placement (cpu)
    // takes their defaults; a run records them as "n/a".
    Allocator allocator = Allocator::pool;  // a caching allocator, as PyTorch has by default
    HostMemory host_memory = HostMemory::pageable;
    Transfer transfer = Transfer::sync;
    Placement placement = Placement::stream;
    Activations activations = Activations::keep;
    bool cuda_graph = false;
    CudnnAlgo cudnn_algo = CudnnAlgo::heuristic;
    std::int64_t cudnn_workspace_bytes = 256LL << 20;
    // Data parallelism (docs/distributed.md): the number of ranks, each training on
    // batch / ranks rows of every global batch; `batch` stays the global batch. ranks > 1
    // needs the process started by an MPI launcher with that many ranks.
    int ranks = 1;
    // Gradient bucket size for the all-reduces, in MiB (PyTorch DDP's bucket_cap_mb).
    double bucket_mb = 25.0;
    Overlap overlap = Overlap::on;
};

}  // namespace trainscope::workloads
