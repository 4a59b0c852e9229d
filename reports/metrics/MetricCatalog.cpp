#include "reports/metrics/MetricCatalog.hpp"

#include <array>

#include "reports/metrics/MetricTags.hpp"

namespace trainscope::reports {

namespace {
constexpr auto H = Direction::HigherIsBetter;
constexpr auto L = Direction::LowerIsBetter;
constexpr auto N = Direction::Neither;

// Writers: harness/runner/RunMetrics and CellRunner, workloads' extra metrics
// (TrainingSession), reports/trace/TraceMetrics, harness/capture (host load, NVML
// telemetry), the micro-benchmarks. docs/formats.md lists the same tags.
constexpr std::array kCatalog{
    // Throughput, step time and what the model learnt: what a user looks at first.
    MetricInfo{metric_tag::images_per_s, "Throughput", "images/s", H,
               "Measured steps × batch ÷ their total time.", true},
    MetricInfo{metric_tag::step_ms_median, "Step time, median", "ms", L,
               "Median duration of a measured (non-warm-up) training step.", true},
    MetricInfo{metric_tag::step_ms_mean, "Step time, mean", "ms", L,
               "Mean duration of a measured training step.", true},
    MetricInfo{metric_tag::test_accuracy, "Test accuracy", "fraction", H,
               "Share of test images classified correctly at the last evaluation.", true},
    MetricInfo{metric_tag::time_to_target_s, "Time to target accuracy", "s", L,
               "Training time until the first evaluation reaching --target-accuracy.", true},
    MetricInfo{metric_tag::peak_mem_bytes, "Peak tensor memory", "bytes", L,
               "Peak bytes of live tensors.", true},
    MetricInfo{metric_tag::gpu_busy_pct, "GPU busy", "%", H,
               "Union of kernels, copies and sets over the span of GPU work.", true},
    MetricInfo{metric_tag::cpu_op_busy_pct, "CPU ops busy", "%", H,
               "Union of the CPU backend's ops over their span.", true},
    MetricInfo{metric_tag::final_loss, "Final training loss", "", L,
               "Training loss of the last step.", true},
    MetricInfo{metric_tag::step_ms_p95, "Step time, p95", "ms", L,
               "95th percentile of the measured step times (linear interpolation).", true},
    MetricInfo{metric_tag::tracing_overhead_pct, "Tracing overhead", "%", L,
               "What tracing added to the median step time, from interleaved untraced and "
               "traced blocks; absent when its interval holds zero (not measurable).",
               true},
    MetricInfo{metric_tag::tracing_overhead_pct_ci_low, "Tracing overhead: 95 % CI low", "%", N,
               "Lower end of the tracing overhead's 95 % interval.", false},
    MetricInfo{metric_tag::tracing_overhead_pct_ci_high, "Tracing overhead: 95 % CI high", "%", N,
               "Upper end of the tracing overhead's 95 % interval.", false},
    MetricInfo{metric_tag::step_count, "Measured steps", "", N,
               "Training steps the statistics are computed over (warm-up excluded).", true},
    // Step-time detail.
    MetricInfo{metric_tag::step_ms_median_ci_low, "Step time, median: 95 % CI low", "ms", N,
               "Lower end of the distribution-free (order-statistic) 95 % confidence "
               "interval of the median step time."},
    MetricInfo{metric_tag::step_ms_median_ci_high, "Step time, median: 95 % CI high", "ms", N,
               "Upper end of the order-statistic 95 % confidence interval of the median."},
    MetricInfo{metric_tag::step_ms_ci_low, "Step time, mean: 95 % CI low", "ms", N,
               "Lower end of the Student-t 95 % confidence interval of the mean step time."},
    MetricInfo{metric_tag::step_ms_ci_high, "Step time, mean: 95 % CI high", "ms", N,
               "Upper end of the Student-t 95 % confidence interval of the mean step time."},
    MetricInfo{metric_tag::step_ms_stdev, "Step time, standard deviation", "ms", L,
               "Sample standard deviation of the measured step times."},
    MetricInfo{metric_tag::step_ms_p5, "Step time, p5", "ms", L,
               "5th percentile of the measured step times (linear interpolation)."},
    MetricInfo{metric_tag::step_rse, "Step time, relative standard error", "fraction", L,
               "Standard error of the mean step time over the mean."},
    MetricInfo{metric_tag::noise_target_met, "Noise target met", "", H,
               "1 when the stopping rule reached --rse, 0 when the time cap stopped it."},
    MetricInfo{metric_tag::train_time_s, "Training time", "s", N,
               "All training steps' timed windows, warm-up included; evaluation and data "
               "staging excluded."},
    MetricInfo{metric_tag::data_ms_median, "Data staging, median", "ms", L,
               "Median host time staging a measured step's batch, outside its timed window."},
    MetricInfo{metric_tag::data_time_s, "Data staging time", "s", N,
               "Host time staging batches, summed over all steps."},
    // Learning.
    MetricInfo{metric_tag::test_loss, "Test loss", "", L,
               "Loss on the test set at the last evaluation."},
    MetricInfo{metric_tag::steps_to_target, "Steps to target accuracy", "", L,
               "Training steps until the first evaluation reaching --target-accuracy."},
    MetricInfo{metric_tag::skipped_steps, "Skipped steps", "", L,
               "Optimizer steps skipped for an fp16 overflow."},
    MetricInfo{metric_tag::steps_per_epoch, "Steps per epoch", "", N,
               "Training steps in one epoch."},
    MetricInfo{metric_tag::achieved_tflops, "Achieved TFLOP/s", "TFLOP/s", H,
               "Model FLOPs per image (forward + backward) × images/s; a multiply-add "
               "counts 2.",
               true},
    MetricInfo{metric_tag::mfu_pct, "Model FLOPs utilisation", "%", H,
               "Achieved TFLOP/s ÷ the device's peak for the run's precision (peak_tflops).", true},
    MetricInfo{metric_tag::model_flops_fwd_per_image, "Model FLOPs per image, forward", "FLOP", N,
               "FLOPs of one image's forward pass, every op of the model counted (OpCost)."},
    MetricInfo{metric_tag::model_flops_bwd_per_image, "Model FLOPs per image, backward", "FLOP", N,
               "FLOPs of one image's backward pass (no input gradient for the first layer)."},
    MetricInfo{metric_tag::peak_tflops, "Peak TFLOP/s", "TFLOP/s", N,
               "The device's compute roof for the run's precision; its source is the "
               "environment's peak_flops_source."},
    MetricInfo{metric_tag::peak_bandwidth_gbps, "Peak memory bandwidth", "GB/s", N,
               "The device's memory roof; its source is the environment's "
               "peak_bandwidth_source."},
    MetricInfo{metric_tag::parameter_count, "Parameters", "", N,
               "Trainable parameters of the model."},
    // Data parallelism (docs/distributed.md).
    MetricInfo{metric_tag::ranks, "Ranks", "", N, "Processes the cell trained on."},
    MetricInfo{metric_tag::rank, "Rank", "", N, "The rank whose figures these are."},
    MetricInfo{metric_tag::global_batch, "Global batch", "", N,
               "Images per step over all ranks (--batch)."},
    MetricInfo{metric_tag::rank_batch, "Batch per rank", "", N,
               "Images per step on each rank: the global batch over the ranks."},
    MetricInfo{metric_tag::gradient_buckets, "Gradient buckets", "", N,
               "All-reduces per step: the gradient buffer cut at --bucket-mb."},
    MetricInfo{metric_tag::communication_share, "Communication share", "fraction", L,
               "All-reduce time over step time, measured steps (buckets summed)."},
    MetricInfo{metric_tag::exposed_communication_share, "Exposed communication share", "fraction",
               L, "Time a step waited for its all-reduces over step time, measured steps."},
    // Memory.
    MetricInfo{metric_tag::tensor_allocations, "Tensor allocations", "", L,
               "Tensors allocated during training."},
    // Step anatomy: means per measured step, inside the timed window (CountingBackend).
    MetricInfo{metric_tag::allocations_per_step, "Backend allocations per step", "", L,
               "Allocations below the pool (malloc, cudaMalloc) inside a step's window."},
    MetricInfo{metric_tag::frees_per_step, "Backend frees per step", "", L,
               "Frees below the pool inside a step's window."},
    MetricInfo{metric_tag::tensor_allocations_per_step, "Tensors made per step", "", L,
               "Tensors made inside a step's window, pool hits included."},
    MetricInfo{metric_tag::tensor_frees_per_step, "Tensors released per step", "", N,
               "Tensors released inside a step's window."},
    MetricInfo{metric_tag::syncs_per_step, "Waits per step", "", L,
               "synchronize and copy_to_host calls inside a step's window."},
    MetricInfo{metric_tag::h2d_copies_per_step, "Host-to-device copies per step", "", L,
               "copy_from_host calls inside a step's window."},
    MetricInfo{metric_tag::backend_calls_per_step, "Backend calls per step", "", L,
               "Backend operations called inside a step's window (op_<name>_per_step by "
               "operation)."},
    MetricInfo{metric_tag::pool_high_water_bytes, "Pool high water", "bytes", L,
               "Most bytes the caching pool held at once."},
    MetricInfo{metric_tag::pool_reused_blocks, "Pool blocks reused", "", N,
               "Allocations the caching pool served from a freed block."},
    MetricInfo{metric_tag::pool_upstream_allocations, "Pool upstream allocations", "", L,
               "Allocations the caching pool passed on to the device allocator."},
    MetricInfo{metric_tag::graph_arena_bytes, "CUDA graph arena", "bytes", N,
               "Bytes reserved for the captured step's fixed-address memory."},
    MetricInfo{metric_tag::graph_captures, "CUDA graph captures", "", N,
               "Times the training step was captured into a CUDA graph."},
    // The trace.
    MetricInfo{metric_tag::gpu_idle_ms, "GPU idle", "ms", N,
               "Time inside the span of GPU work with no kernel, copy or set running."},
    MetricInfo{metric_tag::kernel_count, "Kernels", "", N, "Kernels in the trace."},
    MetricInfo{metric_tag::kernel_time_ms, "Kernel time", "ms", N, "Summed kernel durations."},
    MetricInfo{metric_tag::tensor_core_pct, "Tensor-core kernel time", "%", H,
               "Share of kernel time in kernels that use tensor cores (from the name)."},
    MetricInfo{metric_tag::copy_time_ms, "Copy time", "ms", N, "Summed memcpy durations."},
    MetricInfo{metric_tag::exposed_copy_ms, "Exposed copy time", "ms", N,
               "Copy time not overlapped by a kernel on the same device."},
    MetricInfo{metric_tag::dropped_records, "Dropped trace records", "", L,
               "Records the tracer lost (buffers full)."},
    MetricInfo{metric_tag::trace_activities, "Trace activities", "", N,
               "Events in the stored trace."},
    // The machine while the cell ran.
    MetricInfo{metric_tag::host_other_cpu_pct, "Other processes' CPU", "%", L,
               "Share of all cores' time other processes used while the cell ran."},
    MetricInfo{metric_tag::host_steal_pct, "Hypervisor steal", "%", L,
               "Share of all cores' time the hypervisor gave to other guests."},
    MetricInfo{metric_tag::throttled_sample_pct, "Throttled samples", "%", L,
               "Share of NVML samples in the measured steps with a slowdown reason set."},
    MetricInfo{metric_tag::throttle_reasons_seen, "Throttle reasons seen", "bitmask", N,
               "NVML clock throttle reasons seen during the measured steps."},
    MetricInfo{metric_tag::energy_per_step_j, "Energy per step", "J", L,
               "GPU energy over the measured steps ÷ their count."},
    MetricInfo{metric_tag::power_w_mean, "GPU power, mean", "W", N, "Mean NVML board power."},
    MetricInfo{metric_tag::power_w_max, "GPU power, max", "W", N, "Highest NVML board power."},
    MetricInfo{metric_tag::sm_clock_mhz_mean, "SM clock, mean", "MHz", N, "Mean NVML SM clock."},
    MetricInfo{metric_tag::sm_clock_mhz_max, "SM clock, max", "MHz", N, "Highest NVML SM clock."},
    MetricInfo{metric_tag::temperature_c_mean, "GPU temperature, mean", "°C", N,
               "Mean NVML GPU temperature."},
    MetricInfo{metric_tag::temperature_c_max, "GPU temperature, max", "°C", N,
               "Highest NVML GPU temperature."},
    MetricInfo{metric_tag::nvml_gpu_util_pct_mean, "NVML GPU utilization, mean", "%", H,
               "Mean of NVML's utilization counter (a kernel ran in the sample period)."},
    MetricInfo{metric_tag::nvml_gpu_util_pct_max, "NVML GPU utilization, max", "%", N,
               "Highest NVML utilization sample."},
    // trainscope micro.
    MetricInfo{metric_tag::time_us, "Time per iteration", "µs", L,
               "Adjusted real time of one benchmark iteration."},
    MetricInfo{metric_tag::tflop_per_s, "Compute rate", "TFLOP/s", H,
               "Floating-point operations per second."},
    MetricInfo{metric_tag::items_per_s, "Items per second", "items/s", H,
               "Benchmark items per second."},
    MetricInfo{metric_tag::iterations, "Iterations", "", N, "Benchmark iterations measured."},
};
// One tag per backend operation, written by workloads' StepCountRecorder:
// op_<operation>_per_step. One entry describes them all.
constexpr std::string_view kOpCallsPrefix = "op_";
constexpr std::string_view kOpCallsSuffix = "_per_step";
constexpr MetricInfo kOpCalls{"op_<operation>_per_step", "Calls per step of one backend operation",
                              "", L, "How often a measured step called this Backend operation."};

// The operation of an op_<operation>_per_step tag; empty for any other tag.
std::string_view op_of_calls_tag(std::string_view tag) {
    if (tag.size() <= kOpCallsPrefix.size() + kOpCallsSuffix.size() ||
        !tag.starts_with(kOpCallsPrefix) || !tag.ends_with(kOpCallsSuffix))
        return {};
    tag.remove_prefix(kOpCallsPrefix.size());
    tag.remove_suffix(kOpCallsSuffix.size());
    return tag;
}

const MetricInfo* find_in_catalog(std::string_view tag) {
    for (const MetricInfo& m : kCatalog) {
        if (m.tag == tag)
            return &m;
    }
    return nullptr;
}

}  // namespace

std::span<const MetricInfo> metric_catalog() {
    return kCatalog;
}

namespace {

// A multi-rank cell keeps the other ranks' figures as "<tag>/rank<r>"
// (harness/isolation/ChildCell): the tag without that suffix; the tag itself otherwise.
std::string_view without_rank_suffix(std::string_view tag) {
    const auto slash = tag.rfind("/rank");
    if (slash == std::string_view::npos || slash + 5 == tag.size())
        return tag;
    for (std::size_t i = slash + 5; i < tag.size(); ++i) {
        if (tag[i] < '0' || tag[i] > '9')
            return tag;
    }
    return tag.substr(0, slash);
}

}  // namespace

const MetricInfo* find_metric_info(std::string_view tag) {
    tag = without_rank_suffix(tag);
    if (const MetricInfo* info = find_in_catalog(tag))
        return info;
    return op_of_calls_tag(tag).empty() ? nullptr : &kOpCalls;
}

std::string_view metric_unit(std::string_view tag, std::string_view unit_outside_catalog) {
    const MetricInfo* info = find_metric_info(tag);
    return info ? info->unit : unit_outside_catalog;
}

std::string metric_label(std::string_view tag, std::string_view stored_unit) {
    if (const std::string_view op = op_of_calls_tag(tag); !op.empty() && !find_in_catalog(tag))
        return std::string(op) + " calls per step";
    const MetricInfo* info = find_metric_info(tag);
    std::string label(info ? info->name : tag);
    const std::string_view unit = metric_unit(tag, stored_unit);
    if (!unit.empty())
        label.append(" (").append(unit).append(")");
    return label;
}

std::size_t metric_rank(std::string_view tag) {
    const MetricInfo* info = find_in_catalog(tag);
    return info ? static_cast<std::size_t>(info - kCatalog.data()) : kCatalog.size();
}

std::string_view to_string(Direction direction) {
    switch (direction) {
        case Direction::HigherIsBetter:
            return "higher is better";
        case Direction::LowerIsBetter:
            return "lower is better";
        case Direction::Neither:
            return "";
    }
    return "";
}

}  // namespace trainscope::reports
