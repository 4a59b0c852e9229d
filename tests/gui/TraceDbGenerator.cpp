#include "tests/gui/TraceDbGenerator.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"

namespace trainscope::gui::testing {

using profiler::Activity;
using profiler::ActivityKind;
using profiler::CopyKind;
using profiler::LaneKind;

namespace {

constexpr std::int64_t kUs = 1000;
constexpr std::int64_t kMs = 1000 * kUs;
constexpr std::int64_t kPid = 4242;
constexpr std::int64_t kMainTid = 4242;
constexpr std::int64_t kLoaderTid = 4251;

struct KernelSpec {
    const char* name;
    double us;  // mean duration
    std::array<std::int32_t, 3> grid;
    std::array<std::int32_t, 3> block;
    std::int32_t regs;
    std::int32_t smem;
};

const KernelSpec kConvF{
    "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_"
    "warpsize2x2x1_g1_tensor16x8x8_kernel",
    95,
    {196, 1, 1},
    {128, 1, 1},
    232,
    81920};
const KernelSpec kBnF{
    "void cudnn::bn_fw_tr_1C11_kernel_NCHW<float, float, int, 512, true, 1>(cudnnTensorStruct, "
    "float const*, cudnnTensorStruct, float*, float const*, float const*, float, float, float*, "
    "float*, float*, float*, float, float)",
    14,
    {64, 8, 1},
    {512, 1, 1},
    40,
    4096};
const KernelSpec kRelu{
    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous "
    "namespace)::launch_clamp_scalar(relu), at::detail::Array<char*, 2>>(int, relu, "
    "at::detail::Array<char*, 2>)",
    6,
    {1024, 1, 1},
    {128, 1, 1},
    26,
    0};
const KernelSpec kPool{
    "void cudnn::ops::pooling_fw_4d_kernel<float, float, cudnn::maxpooling_func<float, "
    "(cudnnNanPropagation_t)0>, (cudnnPoolingMode_t)0, false>(cudnnTensorStruct, float const*, "
    "cudnnTensorStruct, float*, cudnnPoolingStruct, float, float, int, cudnn::reduced_divisor, "
    "cudnn::reduced_divisor)",
    11,
    {512, 1, 1},
    {256, 1, 1},
    32,
    0};
const KernelSpec kGemm{"ampere_sgemm_128x64_tn", 34, {8, 16, 1}, {128, 1, 1}, 122, 32768};
const KernelSpec kSoftmax{
    "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, "
    "at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)",
    4,
    {128, 1, 1},
    {512, 1, 1},
    30,
    2048};
const KernelSpec kLoss{
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, "
    "float, float, float>, unsigned int, float, 4>>(at::native::ReduceOp<float, "
    "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)",
    5,
    {1, 1, 1},
    {512, 1, 1},
    32,
    8192};
const KernelSpec kGemmB{"ampere_sgemm_64x64_nt", 30, {8, 8, 1}, {64, 1, 1}, 120, 16384};
const KernelSpec kReluB{
    "void at::native::vectorized_elementwise_kernel<4, at::native::threshold_backward<float>, "
    "at::detail::Array<char*, 3>>(int, threshold_backward<float>, at::detail::Array<char*, 3>)",
    7,
    {1024, 1, 1},
    {128, 1, 1},
    28,
    0};
const KernelSpec kBnB{
    "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, float, "
    "float, cudnnTensorStruct, float const*, cudnnTensorStruct, float const*, cudnnTensorStruct, "
    "float*, float const*, float*, float*, float const*, float const*, float)",
    22,
    {64, 8, 1},
    {512, 1, 1},
    48,
    8192};
const KernelSpec kConvD{
    "sm80_xmma_dgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_"
    "warpsize2x2x1_g1_tensor16x8x8_kernel",
    110,
    {196, 1, 1},
    {128, 1, 1},
    230,
    81920};
const KernelSpec kConvW{
    "sm80_xmma_wgrad_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_"
    "warpsize2x2x1_g1_tensor16x8x8_kernel",
    125,
    {64, 4, 1},
    {128, 1, 1},
    168,
    65536};
const KernelSpec kAdam{
    "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous "
    "namespace)::TensorListMetadata<4>, at::native::(anonymous "
    "namespace)::FusedAdamMathFunctor<float, 4>, float*, double, double, double, double, double, "
    "bool, bool>",
    18,
    {320, 1, 1},
    {512, 1, 1},
    64,
    0};
const KernelSpec kGradNorm{
    "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
    "at::native::NormTwoOps<float, float, float>, unsigned int, float, "
    "4>>(at::native::ReduceOp<float, at::native::NormTwoOps<float, float, float>, unsigned int, "
    "float, 4>)",
    9,
    {108, 1, 1},
    {512, 1, 1},
    40,
    8192};

enum class Phase { Forward, Backward, Optimizer };

struct Generator {
    profiler::Trace trace;
    std::mt19937_64 rng;
    double speed;
    std::int64_t kernels_left;
    std::uint64_t correlation = 1;
    std::int64_t cpu_t = 2 * kMs;
    std::int64_t gpu_t[4] = {};  // per stream slot
    profiler::LaneId stream_lane[4] = {};
    std::int64_t stream_id[4] = {7, 14, 13, 15};  // compute, side, HtoD, DtoH
    profiler::LaneId main_lane = 0;
    profiler::LaneId nvtx_lane = 0;
    profiler::LaneId loader_lane = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> busy;  // for the counters

    explicit Generator(const TraceShape& shape)
        : rng(shape.seed), speed(shape.speed), kernels_left(shape.kernels) {
        for (int s = 0; s < 4; ++s) {
            stream_lane[s] = trace.add_lane({LaneKind::GpuStream, 0, stream_id[s], kPid,
                                             "GPU 0 · stream " + std::to_string(stream_id[s]) +
                                                 (s == 0   ? " (compute)"
                                                  : s == 1 ? " (side)"
                                                  : s == 2 ? " (HtoD)"
                                                           : " (DtoH)")});
        }
        main_lane = trace.add_lane(
            {LaneKind::HostThread, -1, kMainTid, kPid, "python · main thread (CUDA API)"});
        nvtx_lane = trace.add_lane({LaneKind::Nvtx, -1, kMainTid, kPid, "NVTX · main thread"});
        loader_lane =
            trace.add_lane({LaneKind::HostThread, -1, kLoaderTid, kPid, "data loader thread"});
    }

    double jitter(double mean, double rel = 0.15) {
        std::normal_distribution<double> d(mean, mean * rel);
        return std::max(mean * 0.3, d(rng));
    }

    std::int64_t api(const std::string& name, std::int64_t start, std::int64_t dur,
                     std::uint64_t corr) {
        Activity a;
        a.kind = ActivityKind::RuntimeApi;
        a.lane = main_lane;
        a.name = trace.strings.intern(name);
        a.start_ns = start;
        a.end_ns = start + dur;
        a.correlation = corr;
        trace.activities.push_back(a);
        return a.end_ns;
    }

    void kernel(const KernelSpec& k, int slot, double scale) {
        if (kernels_left <= 0)
            return;
        --kernels_left;
        const std::uint64_t corr = correlation++;
        const auto launch = static_cast<std::int64_t>(jitter(4200, 0.2));
        api("cudaLaunchKernel", cpu_t, launch, corr);
        Activity a;
        a.kind = ActivityKind::Kernel;
        a.lane = stream_lane[slot];
        a.device = 0;
        a.name = trace.strings.intern(k.name);
        a.start_ns = std::max(gpu_t[slot], cpu_t + 6 * kUs);
        a.end_ns = a.start_ns + static_cast<std::int64_t>(jitter(k.us * scale * kUs / speed));
        a.correlation = corr;
        a.grid = k.grid;
        a.block = k.block;
        a.registers_per_thread = k.regs;
        a.shared_memory_bytes = k.smem;
        trace.activities.push_back(a);
        busy.emplace_back(a.start_ns, a.end_ns);
        gpu_t[slot] = a.end_ns + static_cast<std::int64_t>(jitter(1800, 0.5));
        cpu_t += launch + static_cast<std::int64_t>(jitter(2500, 0.4));
    }

    void copy(ActivityKind kind, CopyKind dir, int slot, std::int64_t bytes, const char* api_name) {
        const std::uint64_t corr = correlation++;
        const auto call = static_cast<std::int64_t>(jitter(6000, 0.2));
        api(api_name, cpu_t, call, corr);
        Activity a;
        a.kind = kind;
        a.copy_kind = dir;
        a.lane = stream_lane[slot];
        a.device = 0;
        a.name = trace.strings.intern(kind == ActivityKind::Memset    ? "[CUDA memset]"
                                      : dir == CopyKind::HostToDevice ? "[CUDA memcpy HtoD]"
                                                                      : "[CUDA memcpy DtoH]");
        a.bytes = bytes;
        a.start_ns = std::max(gpu_t[slot], cpu_t + 8 * kUs);
        const double gbps = kind == ActivityKind::Memset ? 900.0 : 24.0;  // GB/s
        a.end_ns =
            a.start_ns + std::max<std::int64_t>(
                             1500, static_cast<std::int64_t>(static_cast<double>(bytes) / gbps));
        a.correlation = corr;
        trace.activities.push_back(a);
        busy.emplace_back(a.start_ns, a.end_ns);
        gpu_t[slot] = a.end_ns + 2 * kUs;
        cpu_t += call + 2 * kUs;
    }

    void nvtx(const std::string& name, std::int64_t start, std::int64_t end, std::uint16_t depth) {
        Activity a;
        a.kind = ActivityKind::NvtxRange;
        a.lane = nvtx_lane;
        a.name = trace.strings.intern(name);
        a.start_ns = start;
        a.end_ns = end;
        a.depth = depth;
        trace.activities.push_back(a);
    }

    void sync() {
        const std::int64_t until = std::max({gpu_t[0], gpu_t[1], gpu_t[3], cpu_t + 3 * kUs});
        Activity a;
        a.kind = ActivityKind::RuntimeApi;
        a.lane = main_lane;
        a.name = trace.strings.intern("cudaStreamSynchronize");
        a.start_ns = cpu_t;
        a.end_ns = until + 4 * kUs;
        trace.activities.push_back(a);
        cpu_t = a.end_ns + 3 * kUs;
    }

    void step(std::int64_t index) {
        const std::int64_t step_start = cpu_t;
        // The loader thread prepares the next batch meanwhile.
        Activity load;
        load.kind = ActivityKind::HostOp;
        load.lane = loader_lane;
        load.name = trace.strings.intern("decode + augment batch");
        load.start_ns = step_start + static_cast<std::int64_t>(jitter(300 * kUs));
        load.end_ns = load.start_ns + static_cast<std::int64_t>(jitter(2 * kMs / speed));
        trace.activities.push_back(load);
        copy(ActivityKind::Memcpy, CopyKind::HostToDevice, 2, 128 * 3 * 64 * 64 * 4,
             "cudaMemcpyAsync");

        const std::int64_t fwd0 = cpu_t;
        constexpr int kLayers = 6;
        for (int l = 0; l < kLayers; ++l) {
            const double scale = 1.0 + 0.4 * (l % 3);
            kernel(kConvF, 0, scale);
            kernel(kBnF, 0, scale);
            kernel(kRelu, 0, scale);
            if (l % 2 == 1)
                kernel(kPool, 0, 1.0);
        }
        kernel(kGemm, 0, 1.0);
        kernel(kSoftmax, 0, 1.0);
        kernel(kLoss, 0, 1.0);
        const std::int64_t fwd1 = cpu_t;
        copy(ActivityKind::Memset, CopyKind::Unknown, 0, 44 << 20, "cudaMemsetAsync");
        kernel(kGemmB, 0, 1.0);
        kernel(kGemmB, 0, 1.0);
        for (int l = kLayers - 1; l >= 0; --l) {
            const double scale = 1.0 + 0.4 * (l % 3);
            kernel(kReluB, 0, scale);
            kernel(kBnB, 0, scale);
            kernel(kConvD, 0, scale);
            kernel(kConvW, l % 2 == 0 ? 1 : 0, scale);  // weight gradients on the side stream
        }
        const std::int64_t bwd1 = cpu_t;
        kernel(kGradNorm, 0, 1.0);
        for (int g = 0; g < 4; ++g)
            kernel(kAdam, 0, 1.0);
        const std::int64_t opt1 = cpu_t;
        copy(ActivityKind::Memcpy, CopyKind::DeviceToHost, 3, 4, "cudaMemcpyAsync");
        sync();
        nvtx("step " + std::to_string(index), step_start, cpu_t, 1);
        nvtx("forward", fwd0, fwd1, 2);
        nvtx("backward", fwd1, bwd1, 2);
        nvtx("optimizer", bwd1, opt1, 2);
        cpu_t += static_cast<std::int64_t>(jitter(60 * kUs));
    }

    void counters() {
        const std::int64_t end = cpu_t;
        const std::int64_t period = std::clamp<std::int64_t>(end / 2000, 2 * kMs, 100 * kMs);
        std::sort(busy.begin(), busy.end());
        profiler::CounterSeries util{"gpu_utilization", "%", 0, {}};
        profiler::CounterSeries mem{"memory_used", "bytes", 0, {}};
        profiler::CounterSeries power{"power", "W", 0, {}};
        std::size_t i = 0;
        std::uniform_real_distribution<double> noise(-1.0, 1.0);
        for (std::int64_t t = 0; t < end; t += period) {
            std::int64_t b = 0;
            std::int64_t covered = t;
            while (i < busy.size() && busy[i].first < t + period) {
                const std::int64_t s = std::max(busy[i].first, covered);
                const std::int64_t e = std::min(busy[i].second, t + period);
                if (e > s) {
                    b += e - s;
                    covered = e;
                }
                if (busy[i].second > t + period)
                    break;
                ++i;
            }
            const double u = std::clamp(
                100.0 * static_cast<double>(b) / static_cast<double>(period), 0.0, 100.0);
            util.samples.push_back({t, std::round(u)});
            const double phase = std::fmod(static_cast<double>(t) / (5.0 * kMs), 1.0);
            mem.samples.push_back({t, 2.1e9 + 1.4e9 * phase + 5e7 * noise(rng)});
            power.samples.push_back({t, 95.0 + 2.6 * u + 6.0 * noise(rng)});
        }
        trace.counters = {util, mem, power};
    }
};

}  // namespace

profiler::Trace makeTrace(const TraceShape& shape) {
    Generator g(shape);
    const auto per_step = 64;
    g.trace.activities.reserve(
        static_cast<std::size_t>(shape.kernels * 2 + shape.kernels / per_step * 12 + 64));
    std::int64_t index = 0;
    constexpr std::int64_t kStepsPerEpoch = 200;
    std::int64_t epoch_start = g.cpu_t;
    while (g.kernels_left > 0) {
        g.step(index);
        ++index;
        if (index % kStepsPerEpoch == 0 || g.kernels_left <= 0) {
            g.nvtx("epoch " + std::to_string((index - 1) / kStepsPerEpoch), epoch_start, g.cpu_t,
                   0);
            epoch_start = g.cpu_t;
        }
    }
    g.counters();
    g.trace.capture_begin_ns = 0;
    g.trace.capture_end_ns = g.cpu_t + kMs;
    g.trace.base_ns = 1'700'000'000'000'000'000;
    g.trace.metadata["source"] = "generate_trace_db";
    g.trace.metadata["device.0"] = "NVIDIA H100 80GB HBM3 (synthetic)";
    g.trace.sort();
    return std::move(g.trace);
}

void removeDatabase(const std::filesystem::path& path) {
    for (const char* suffix : {"", "-wal", "-shm"}) {
        std::error_code ec;
        std::filesystem::remove(path.string() + suffix, ec);
    }
}

std::int64_t writeDatabase(const std::filesystem::path& path, const DatabaseShape& shape) {
    removeDatabase(path);
    reports::ResultsDatabase db(path, reports::OpenMode::CreateOrOpen);
    reports::RunWriter writer(db);
    const std::int64_t matrix =
        writer.create_matrix({"precision-x-batch (synthetic)",
                              "precision = [fp32, tf32, fp16, bf16]\nbatch = [32, 64, 128, 256]\n",
                              "0.1.0", "synthetic"});
    const std::vector<std::pair<std::string, double>> precisions = {
        {"fp32", 1.0}, {"tf32", 1.9}, {"fp16", 3.1}, {"bf16", 3.0}};
    const std::vector<std::int64_t> batches = {32, 64, 128, 256};
    std::int64_t main_run = 0;
    std::uint64_t seed = shape.seed;
    for (const auto& [precision, speed] : precisions) {
        for (const std::int64_t batch : batches) {
            reports::RunRecord run;
            run.matrix_id = matrix;
            run.cell_key = "precision=" + precision + ",batch=" + std::to_string(batch);
            run.started_utc = "2026-11-21T10:00:00Z";
            run.finished_utc = "2026-11-21T10:02:00Z";
            auto& a = run.axes;
            a.model = "resnet";
            a.model_params = "depth=20,width=16";
            a.dataset = "fashion-mnist";
            a.precision = precision;
            a.batch = batch;
            a.optimizer = "adam";
            a.learning_rate = 1e-3;
            a.backend = "cuda";
            a.device = "NVIDIA H100 80GB HBM3";
            a.allocator = "pool";
            a.host_memory = "pinned";
            a.transfer = "overlap";
            a.placement = "stream";
            a.activations = "keep";
            a.cuda_graph = "off";
            a.trace_level = "kernels";
            a.seed = 1;
            run.environment = {{"driver", "580.65"}, {"cuda", "13.0"}, {"cudnn", "9.10"}};
            if (precision == "fp32" && batch == 256) {
                run.status = reports::RunStatus::Failed;
                run.error =
                    "CUDA out of memory: tried to allocate 2.00 GiB (device has 0.81 GiB free) in "
                    "conv2d forward, layer 3";
                writer.write(run);
                continue;
            }
            // Step time: a fixed launch-bound part plus a part that grows with the batch.
            const double bs = static_cast<double>(batch);
            const double step_ms = 1.6 + bs * 0.062 / speed;
            const double half_ci = step_ms * (0.006 + 0.12 / bs);
            // The tags and relations trainscope writes: images/s is batch ÷ mean step
            // time, each statistic carries its own interval, the mean's from the stdev.
            const double mean_ms = step_ms * 1.01;
            const double steps = 17.0;
            run.metrics = {
                {"images_per_s", bs * 1000.0 / mean_ms, "images/s"},
                {"step_ms_median", step_ms, "ms"},
                {"step_ms_median_ci_low", step_ms - 0.8 * half_ci, "ms"},
                {"step_ms_median_ci_high", step_ms + 0.7 * half_ci, "ms"},
                {"step_ms_mean", mean_ms, "ms"},
                {"step_ms_ci_low", mean_ms - half_ci, "ms"},
                {"step_ms_ci_high", mean_ms + half_ci, "ms"},
                {"step_ms_stdev", half_ci / 2.12 * std::sqrt(steps), "ms"},
                {"step_count", steps, ""},
                {"gpu_busy_pct", std::min(98.0, 55.0 + bs * 0.12 * speed / 3.0 + 10.0), "%"},
                {"peak_mem_bytes",
                 1.2e9 + bs * 2.6e7 / (precision == "fp16" || precision == "bf16" ? 2.0 : 1.0),
                 "bytes"},
                {"test_accuracy", 0.905 - 0.0004 * bs / 32.0 - (precision == "fp16" ? 0.002 : 0.0),
                 ""},
            };
            for (std::int64_t s = 0; s < 20; ++s) {
                reports::StepRow row;
                row.step = s;
                row.duration_ns = static_cast<std::int64_t>(step_ms * 1e6 * (s < 3 ? 1.8 : 1.0));
                row.loss = 2.3 * std::exp(-0.08 * static_cast<double>(s));
                row.warmup = s < 3;
                run.steps.push_back(row);
            }
            const bool is_main = main_run == 0;
            const std::int64_t kernels = is_main ? shape.main_kernels : shape.other_kernels;
            if (kernels > 0)
                run.trace = makeTrace(
                    {kernels, speed * 64.0 / bs, seed++});  // bigger batches, longer kernels
            const std::int64_t id = writer.write(run);
            if (is_main)
                main_run = id;
        }
    }
    return main_run;
}

}  // namespace trainscope::gui::testing
