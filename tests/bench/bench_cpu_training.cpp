// Training throughput of the CPU backend: runs a model for a number of steps on
// Fashion-MNIST (or synthetic data) and prints the median step time and images/s over
// the steps after warm-up. compare_cpu_with_pytorch.py runs it against PyTorch.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "workloads/training/TrainingSession.hpp"

int main(int argc, char** argv) {
    using namespace trainscope::workloads;
    TrainingConfig config;
    std::string depth = "8";
    std::string width = "16";
    std::string precision = to_string(config.precision);
    std::string allocator = to_string(config.allocator);
    std::string activations = to_string(config.activations);
    CLI::App app{"CPU backend training throughput"};
    app.add_option("--model", config.model, "seed-cnn, lenet5 or resnet");
    app.add_option("--depth", depth, "resnet depth");
    app.add_option("--width", width, "resnet width");
    app.add_option("--batch", config.batch);
    app.add_option("--precision", precision, "fp32, fp64, tf32, fp16, bf16");
    app.add_option("--steps", config.steps, "measured steps plus warm-up");
    app.add_option("--warmup", config.warmup_steps);
    app.add_option("--threads", config.threads, "0: all cores");
    app.add_option("--allocator", allocator, "device or pool");
    app.add_option("--activations", activations, "keep or recompute");
    app.add_option("--dataset", config.dataset);
    app.add_option("--input-shape", config.input_shape, "synthetic data: CxHxW");
    CLI11_PARSE(app, argc, argv);
    if (config.steps == 0) {
        config.steps = 100;
    }
    try {
        config.precision = parse_precision(precision);
        config.allocator = parse_allocator(allocator);
        config.activations = parse_activations(activations);
    } catch (const ConfigError& error) {
        std::fprintf(stderr, "bench_cpu_training: %s\n", error.what());
        return 2;
    }
    if (config.model == "resnet") {
        config.model_params = {{"depth", depth}, {"width", width}};
    }
    config.evaluate = false;
    try {
        const TrainingResult result = run_training(config, nullptr);
        std::vector<double> seconds;
        for (const StepRecord& step : result.steps) {
            if (!step.warmup) {
                seconds.push_back(static_cast<double>(step.duration_ns) * 1e-9);
            }
        }
        if (seconds.empty()) {
            std::fprintf(stderr, "no steps after warm-up\n");
            return 1;
        }
        std::sort(seconds.begin(), seconds.end());
        const double median = seconds[seconds.size() / 2];
        std::printf(
            "model=%s batch=%d precision=%s steps=%zu median_step_ms=%.3f "
            "images_per_s=%.1f peak_tensor_bytes=%lld\n",
            config.model.c_str(), config.batch, precision.c_str(), seconds.size(), median * 1e3,
            config.batch / median, static_cast<long long>(result.peak_tensor_bytes));
    } catch (const ConfigError& error) {
        std::fprintf(stderr, "%s\n", error.what());
        return 2;
    }
    return 0;
}
