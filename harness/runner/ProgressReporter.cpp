#include "harness/runner/ProgressReporter.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace trainscope::harness {

ProgressStyle default_progress_style() {
    return isatty(STDERR_FILENO) != 0 ? ProgressStyle::Bar : ProgressStyle::Lines;
}

ProgressReporter::ProgressReporter(ProgressStyle style, int cell_index, int cell_count,
                                   std::string label, std::int64_t expected_steps, int batch)
    : style_(style),
      cell_index_(cell_index),
      cell_count_(cell_count),
      label_(std::move(label)),
      expected_steps_(expected_steps),
      batch_(batch) {}

bool ProgressReporter::on_step(const workloads::StepRecord& step) {
    ++steps_seen_;
    if (!step.warmup) {
        measured_ns_ += step.duration_ns;
        ++measured_steps_;
    }
    last_ = step;
    if (style_ == ProgressStyle::Quiet)
        return true;
    const auto now = std::chrono::steady_clock::now();
    const auto interval = style_ == ProgressStyle::Bar ? std::chrono::milliseconds(200)
                                                       : std::chrono::milliseconds(2000);
    if (now - last_print_ >= interval) {
        last_print_ = now;
        print(step, false);
    }
    return true;
}

void ProgressReporter::on_eval(const workloads::EvalRecord& eval) {
    if (style_ == ProgressStyle::Quiet)
        return;
    if (printed_bar_)
        std::fputs("\n", stderr);
    printed_bar_ = false;
    std::fprintf(stderr,
                 "[%d/%d] %s  after step %lld (epoch %d): test accuracy %.4f, test loss %.4f\n",
                 cell_index_, cell_count_, label_.c_str(), static_cast<long long>(eval.after_step),
                 eval.epoch + 1, eval.test_accuracy, eval.test_loss);
}

void ProgressReporter::print(const workloads::StepRecord& step, bool final_line) {
    const double images_per_s =
        measured_ns_ > 0 ? static_cast<double>(measured_steps_) * batch_ / (measured_ns_ * 1e-9)
                         : 0;
    const double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    std::string eta = "?";
    if (expected_steps_ > 0 && steps_seen_ > 0) {
        const double remaining =
            elapsed_s / static_cast<double>(steps_seen_) *
            static_cast<double>(std::max<std::int64_t>(0, expected_steps_ - steps_seen_));
        eta = fmt::format("{:.0f}s", remaining);
    }
    const std::string total = expected_steps_ > 0 ? fmt::format("/{}", expected_steps_) : "";
    std::string line =
        fmt::format("[{}/{}] {}  step {}{}  loss {:.4f}  {:.0f} img/s  ETA {}", cell_index_,
                    cell_count_, label_, step.index + 1, total, step.loss, images_per_s, eta);
    if (style_ == ProgressStyle::Bar) {
        constexpr int kWidth = 24;
        const int filled =
            expected_steps_ > 0
                ? static_cast<int>(kWidth *
                                   std::min<double>(1.0, static_cast<double>(steps_seen_) /
                                                             static_cast<double>(expected_steps_)))
                : 0;
        std::fprintf(
            stderr, "\r\033[K[%s%s] %s", std::string(static_cast<std::size_t>(filled), '#').c_str(),
            std::string(static_cast<std::size_t>(kWidth - filled), '.').c_str(), line.c_str());
        printed_bar_ = true;
        if (final_line) {
            std::fputs("\n", stderr);
            printed_bar_ = false;
        }
    } else {
        std::fprintf(stderr, "%s\n", line.c_str());
    }
}

void ProgressReporter::finish() {
    if (style_ == ProgressStyle::Quiet || steps_seen_ == 0)
        return;
    print(last_, true);
}

}  // namespace trainscope::harness
