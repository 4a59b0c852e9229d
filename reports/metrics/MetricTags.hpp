#pragma once

// The tag of every metric trainscope writes, as one constant each: writers, readers and
// the catalog (MetricCatalog.cpp, which gives each its words, unit and direction) name a
// metric through these, so a tag is spelled once. The spellings are what the database,
// the CSV files and users' scripts hold: never change one.
namespace trainscope::reports::metric_tag {

inline constexpr char images_per_s[] = "images_per_s";
inline constexpr char step_ms_median[] = "step_ms_median";
inline constexpr char step_ms_mean[] = "step_ms_mean";
inline constexpr char test_accuracy[] = "test_accuracy";
inline constexpr char time_to_target_s[] = "time_to_target_s";
inline constexpr char peak_mem_bytes[] = "peak_mem_bytes";
inline constexpr char gpu_busy_pct[] = "gpu_busy_pct";
inline constexpr char cpu_op_busy_pct[] = "cpu_op_busy_pct";
inline constexpr char final_loss[] = "final_loss";
inline constexpr char step_ms_p95[] = "step_ms_p95";
inline constexpr char tracing_overhead_pct[] = "tracing_overhead_pct";
inline constexpr char tracing_overhead_pct_ci_low[] = "tracing_overhead_pct_ci_low";
inline constexpr char tracing_overhead_pct_ci_high[] = "tracing_overhead_pct_ci_high";
inline constexpr char step_count[] = "step_count";
inline constexpr char step_ms_median_ci_low[] = "step_ms_median_ci_low";
inline constexpr char step_ms_median_ci_high[] = "step_ms_median_ci_high";
inline constexpr char step_ms_ci_low[] = "step_ms_ci_low";
inline constexpr char step_ms_ci_high[] = "step_ms_ci_high";
inline constexpr char step_ms_stdev[] = "step_ms_stdev";
inline constexpr char step_ms_p5[] = "step_ms_p5";
inline constexpr char step_rse[] = "step_rse";
inline constexpr char noise_target_met[] = "noise_target_met";
inline constexpr char train_time_s[] = "train_time_s";
inline constexpr char data_ms_median[] = "data_ms_median";
inline constexpr char data_time_s[] = "data_time_s";
inline constexpr char test_loss[] = "test_loss";
inline constexpr char steps_to_target[] = "steps_to_target";
inline constexpr char skipped_steps[] = "skipped_steps";
inline constexpr char steps_per_epoch[] = "steps_per_epoch";
inline constexpr char parameter_count[] = "parameter_count";
// The roofline (reports/roofline): model FLOPs, the device's roofs and what the run
// reached against them.
inline constexpr char model_flops_fwd_per_image[] = "model_flops_fwd_per_image";
inline constexpr char model_flops_bwd_per_image[] = "model_flops_bwd_per_image";
inline constexpr char peak_tflops[] = "peak_tflops";
inline constexpr char peak_bandwidth_gbps[] = "peak_bandwidth_gbps";
inline constexpr char achieved_tflops[] = "achieved_tflops";
inline constexpr char mfu_pct[] = "mfu_pct";
// Data parallelism (workloads/training/TrainingSession: add_distributed_metrics).
inline constexpr char ranks[] = "ranks";
inline constexpr char rank[] = "rank";
inline constexpr char global_batch[] = "global_batch";
inline constexpr char rank_batch[] = "rank_batch";
inline constexpr char gradient_buckets[] = "gradient_buckets";
inline constexpr char communication_share[] = "communication_share";
inline constexpr char exposed_communication_share[] = "exposed_communication_share";
inline constexpr char tensor_allocations[] = "tensor_allocations";
inline constexpr char allocations_per_step[] = "allocations_per_step";
inline constexpr char frees_per_step[] = "frees_per_step";
inline constexpr char tensor_allocations_per_step[] = "tensor_allocations_per_step";
inline constexpr char tensor_frees_per_step[] = "tensor_frees_per_step";
inline constexpr char syncs_per_step[] = "syncs_per_step";
inline constexpr char h2d_copies_per_step[] = "h2d_copies_per_step";
inline constexpr char backend_calls_per_step[] = "backend_calls_per_step";
inline constexpr char pool_high_water_bytes[] = "pool_high_water_bytes";
inline constexpr char pool_reused_blocks[] = "pool_reused_blocks";
inline constexpr char pool_upstream_allocations[] = "pool_upstream_allocations";
inline constexpr char graph_arena_bytes[] = "graph_arena_bytes";
inline constexpr char graph_captures[] = "graph_captures";
inline constexpr char gpu_idle_ms[] = "gpu_idle_ms";
inline constexpr char kernel_count[] = "kernel_count";
inline constexpr char kernel_time_ms[] = "kernel_time_ms";
inline constexpr char tensor_core_pct[] = "tensor_core_pct";
inline constexpr char copy_time_ms[] = "copy_time_ms";
inline constexpr char exposed_copy_ms[] = "exposed_copy_ms";
inline constexpr char dropped_records[] = "dropped_records";
inline constexpr char trace_activities[] = "trace_activities";
inline constexpr char host_other_cpu_pct[] = "host_other_cpu_pct";
inline constexpr char host_steal_pct[] = "host_steal_pct";
inline constexpr char throttled_sample_pct[] = "throttled_sample_pct";
inline constexpr char throttle_reasons_seen[] = "throttle_reasons_seen";
inline constexpr char energy_per_step_j[] = "energy_per_step_j";
inline constexpr char power_w_mean[] = "power_w_mean";
inline constexpr char power_w_max[] = "power_w_max";
inline constexpr char sm_clock_mhz_mean[] = "sm_clock_mhz_mean";
inline constexpr char sm_clock_mhz_max[] = "sm_clock_mhz_max";
inline constexpr char temperature_c_mean[] = "temperature_c_mean";
inline constexpr char temperature_c_max[] = "temperature_c_max";
inline constexpr char nvml_gpu_util_pct_mean[] = "nvml_gpu_util_pct_mean";
inline constexpr char nvml_gpu_util_pct_max[] = "nvml_gpu_util_pct_max";
inline constexpr char time_us[] = "time_us";
inline constexpr char tflop_per_s[] = "tflop_per_s";
inline constexpr char items_per_s[] = "items_per_s";
inline constexpr char iterations[] = "iterations";

}  // namespace trainscope::reports::metric_tag
