#include "tests/gui/CpuTraceGenerator.hpp"

#include <random>
#include <string>
#include <vector>

#include "profiler/analysis/OpWork.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

namespace trainscope::gui::testing {

using profiler::Activity;
using profiler::ActivityKind;
using profiler::LaneKind;

namespace {

constexpr std::int64_t kUs = 1000;
constexpr std::int64_t kPid = 16782;

struct Op {
    const char* name;
    double us;  // mean duration at speed 1
};

// seed-cnn's step as the CPU backend runs it (the order a real capture shows).
const std::vector<Op> kLoad{{"copy_h2d", 40}, {"copy_h2d", 1}};
const std::vector<Op> kForward{{"conv_fwd", 2400},     {"relu_fwd", 1600},
                               {"max_pool_fwd", 1500}, {"gemm", 1700},
                               {"add_bias", 1.2},      {"softmax_cross_entropy", 6}};
const std::vector<Op> kBackward{{"gemm", 1500},     {"bias_bwd", 1.3},
                                {"gemm", 1600},     {"max_pool_bwd", 1900},
                                {"relu_bwd", 1700}, {"conv_bwd_filter", 5200}};
const std::vector<Op> kOptimizer{
    {"adam_update", 1.5}, {"adam_update", 0.5}, {"adam_update", 1600}, {"adam_update", 3}};

class CpuGenerator {
  public:
    explicit CpuGenerator(const CpuTraceShape& shape) : shape_(shape), rng_(shape.seed) {
        // HostTracer creates a lane when its first range completes: an op comes first.
        trace_.add_lane({LaneKind::HostThread, -1, kPid, kPid, "CPU · main thread"});
        trace_.add_lane({LaneKind::Nvtx, -1, kPid, kPid, "NVTX · main thread"});
    }

    profiler::Trace run() {
        t_ = 80 * kUs;
        for (const char* name : {"copy_h2d", "fill", "copy_h2d", "fill", "fill", "fill"})
            op({name, 20});
        t_ += 200 * kUs;
        const std::int64_t epoch = t_;
        for (int s = 0; s < shape_.steps; ++s) {
            const std::int64_t step = gap();
            phase("data load", kLoad);
            phase("forward", kForward);
            phase("backward", kBackward);
            phase("optimizer", kOptimizer);
            range("step", step, t_, 1);
            gap();
        }
        range("epoch", epoch, t_, 0);
        const std::int64_t eval = gap();
        for (int b = 0; b < shape_.eval_batches; ++b) {
            for (const Op& o : kLoad)
                op(o);
            for (const Op& o : kForward)
                op(o);
        }
        range("evaluation", eval, t_, 0);
        trace_.base_ns = 5'012'345'678'901;  // steady clock: time since boot
        trace_.capture_begin_ns = 0;
        trace_.capture_end_ns = t_ + 50 * kUs;
        trace_.metadata["source.format"] = "host-nvtx";
        trace_.metadata[profiler::kHostTracerMetadataKey] = "attached";
        trace_.sort();
        return std::move(trace_);
    }

  private:
    std::int64_t gap() {
        t_ += 1 * kUs + static_cast<std::int64_t>(jitter_(rng_) * 3 * kUs);
        return t_;
    }

    void op(const Op& o) {
        const double us = o.us / shape_.speed * (0.85 + 0.3 * jitter_(rng_));
        const std::int64_t start = gap();
        t_ = start + std::max<std::int64_t>(40, static_cast<std::int64_t>(us * kUs));
        add(ActivityKind::HostOp, 0, o.name, start, t_, 0);
    }

    void phase(const char* name, const std::vector<Op>& ops) {
        const std::int64_t start = gap();
        for (const Op& o : ops)
            op(o);
        t_ += 500;
        range(name, start, t_, 2);
    }

    void range(const char* name, std::int64_t start, std::int64_t end, std::uint16_t depth) {
        add(ActivityKind::NvtxRange, 1, name, start, end, depth);
    }

    void add(ActivityKind kind, profiler::LaneId lane, const char* name, std::int64_t start,
             std::int64_t end, std::uint16_t depth) {
        Activity a;
        a.kind = kind;
        a.lane = lane;
        a.start_ns = start;
        a.end_ns = end;
        a.depth = depth;
        a.name = trace_.strings.intern(name);
        trace_.activities.push_back(a);
    }

    CpuTraceShape shape_;
    std::mt19937_64 rng_;
    std::uniform_real_distribution<double> jitter_{0.0, 1.0};
    profiler::Trace trace_;
    std::int64_t t_ = 0;
};

}  // namespace

profiler::Trace makeCpuTrace(const CpuTraceShape& shape) {
    return CpuGenerator(shape).run();
}

std::pair<std::int64_t, std::int64_t> writeCpuDatabase(const std::filesystem::path& path,
                                                       int steps) {
    removeDatabase(path);
    reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
    reports::RunWriter writer(db);
    const std::int64_t matrix = writer.create_matrix(
        {"cpu batch (synthetic)", "backend = cpu\nbatch = [32, 64]\n", "0.1.0", "synthetic"});
    std::vector<std::int64_t> ids;
    for (const std::int64_t batch : {32, 64}) {
        reports::RunRecord run;
        run.matrix_id = matrix;
        run.cell_key = "batch=" + std::to_string(batch);
        run.started_utc = "2026-11-24T14:51:22Z";
        run.finished_utc = "2026-11-24T14:51:38Z";
        auto& a = run.axes;
        a.model = "seed-cnn";
        a.dataset = "fashion-mnist";
        a.precision = "fp32";
        a.batch = batch;
        a.optimizer = "adam";
        a.learning_rate = 1e-3;
        a.backend = "cpu";
        a.device = "n/a";
        a.allocator = "pool";
        a.host_memory = "n/a";
        a.transfer = "n/a";
        a.placement = "n/a";
        a.activations = "keep";
        a.cuda_graph = "n/a";
        a.trace_level = "kernels";
        a.threads = 2;
        a.seed = 1;
        const double step_ms = batch == 32 ? 25.0 : 46.0;
        run.metrics = {{"images_per_s", static_cast<double>(batch) * 1000.0 / step_ms, "images/s"},
                       {"step_ms_median", step_ms, "ms"}};
        for (std::int64_t s = 0; s < steps; ++s)
            run.steps.push_back(
                {s, 0, static_cast<std::int64_t>(step_ms * 1e6), 2.0, 1.0, false, s < 2});
        run.trace =
            makeCpuTrace({steps, 8, batch == 32 ? 1.0 : 0.55, static_cast<std::uint64_t>(batch)});
        ids.push_back(writer.write(run));
    }
    return {ids[0], ids[1]};
}

}  // namespace trainscope::gui::testing
