#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "harness/cli/Commands.hpp"
#include "harness/cli/NumberCheck.hpp"
#include "harness/cli/OutputPath.hpp"
#include "harness/cli/UsageError.hpp"
#include "harness/environment/HostEnvironment.hpp"
#include "harness/matrix/AxisCatalog.hpp"
#include "harness/matrix/RunSettings.hpp"
#include "harness/micro/MicroBenchmarkSuite.hpp"
#include "harness/runner/BackendChoice.hpp"
#include "reports/metrics/MetricTags.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunWriter.hpp"
#include "trainscope/version.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::harness {

namespace {

struct MicroOptions {
    std::string backend{kAutoBackend};
    std::vector<std::string> precisions{"fp32", "tf32", "fp64"};
    std::string out;
    int threads = 0;
    std::vector<std::string> benchmark_flags;  // passed to Google Benchmark
};

// Shows results as Google Benchmark's console reporter does and keeps them for storing.
class CollectingReporter : public benchmark::ConsoleReporter {
  public:
    void ReportRuns(const std::vector<Run>& runs) override {
        benchmark::ConsoleReporter::ReportRuns(runs);
        for (const auto& run : runs) {
            if (run.run_type == Run::RT_Iteration)
                collected.push_back(run);
        }
    }
    std::vector<Run> collected;
};

reports::RunRecord to_record(const benchmark::BenchmarkReporter::Run& run,
                             const MicroBenchmarkInfo& info,
                             const std::map<std::string, std::string>& environment) {
    reports::RunRecord record;
    record.source = "micro";
    record.cell_key = "micro=" + run.benchmark_name();
    record.axes.model = info.op;
    record.axes.model_params = info.shape;
    record.axes.precision = info.precision;
    record.axes.backend = info.backend;
    record.environment = environment;
    if (run.error_occurred) {
        record.status = reports::RunStatus::Failed;
        record.error = run.error_message;
        return record;
    }
    const double seconds_per_unit = benchmark::GetTimeUnitMultiplier(run.time_unit);
    record.metrics.push_back(
        {reports::metric_tag::time_us, run.GetAdjustedRealTime() / seconds_per_unit * 1e6});
    record.metrics.push_back(
        {reports::metric_tag::iterations, static_cast<double>(run.iterations)});
    for (const auto& [name, counter] : run.counters) {
        if (name == "FLOP/s") {
            record.metrics.push_back({reports::metric_tag::tflop_per_s, counter.value / 1e12});
        } else if (name == "items_per_second") {
            record.metrics.push_back({reports::metric_tag::items_per_s, counter.value});
        }
    }
    return record;
}

// fp16 and bf16 training round fp32 tensors: their ops are the fp32 ones.
workloads::Precision parse_micro_precision(const std::string& text) {
    using workloads::Precision;
    std::optional<Precision> precision;
    try {
        precision = workloads::parse_precision(text);
    } catch (const workloads::ConfigError&) {
    }
    if (precision != Precision::fp32 && precision != Precision::tf32 &&
        precision != Precision::fp64) {
        throw UsageError(
            fmt::format("--precision {}: micro measures fp32, tf32 and fp64 ops (fp16/bf16 "
                        "training rounds fp32 tensors; their ops are the fp32 ones)",
                        text));
    }
    return *precision;
}

int execute(MicroOptions& options) {
    if (!options.out.empty())
        check_database_output(options.out, "-o");  // before minutes of benchmarks
    std::vector<Cell> probe(1);
    probe[0].values["backend"] = options.backend;
    probe[0].values["device"] = "0";
    const BackendChoice choice = choose_backends(probe);
    const workloads::BackendKind backend = choice.resolve(options.backend);
    if (const auto reason = backend_unavailable_reason(choice, probe[0]); !reason.empty())
        throw UsageError(reason);
    if (!choice.notice.empty())
        std::fprintf(stderr, "trainscope: %s\n", choice.notice.c_str());
    std::vector<workloads::Precision> precisions;
    for (const auto& p : options.precisions)
        precisions.push_back(parse_micro_precision(p));
    std::vector<std::string> args{"trainscope micro"};
    args.insert(args.end(), options.benchmark_flags.begin(), options.benchmark_flags.end());
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    int argc = static_cast<int>(argv.size());
    benchmark::Initialize(&argc, argv.data());
    if (benchmark::ReportUnrecognizedArguments(argc, argv.data())) {
        throw UsageError("unrecognized Google Benchmark flag (see `trainscope micro --help`)");
    }
    const auto registered = register_micro_benchmarks(backend, precisions, options.threads);
    CollectingReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();

    if (options.out.empty())
        return 0;
    std::map<std::string, MicroBenchmarkInfo> by_name;
    for (const auto& info : registered)
        by_name[info.name] = info;
    auto environment = probe_host_environment();
    environment["benchmark_flags"] = fmt::format("{}", fmt::join(options.benchmark_flags, " "));
    reports::ResultsDatabase db(options.out, reports::OpenMode::CreateOrOpen);
    reports::RunWriter writer(db);
    const auto matrix = writer.create_matrix({"micro", "trainscope micro", kVersion, kGitRevision});
    std::size_t stored = 0;
    for (const auto& run : reporter.collected) {
        // The registered name may carry Google Benchmark suffixes (/real_time, /repeats:N).
        for (const auto& [name, info] : by_name) {
            if (run.benchmark_name().rfind(name, 0) != 0)
                continue;
            auto record = to_record(run, info, environment);
            record.matrix_id = matrix;
            writer.write(record);
            ++stored;
            break;
        }
    }
    std::fprintf(stderr, "Stored %zu microbenchmark results in %s (matrix %lld)\n", stored,
                 options.out.c_str(), static_cast<long long>(matrix));
    return 0;
}

}  // namespace

CommandAction add_micro_command(CLI::App& app) {
    auto options = std::make_shared<MicroOptions>();
    CLI::App* cmd = app.add_subcommand(
        "micro",
        "Google Benchmark microbenchmarks of the ops training spends its time in (convolution, "
        "GEMM, elementwise, batch norm, Adam) at the models' shapes, per precision; Google "
        "Benchmark's own flags go after `--`, e.g. -- --benchmark_filter=conv "
        "--benchmark_repetitions=5");
    cmd->add_option("--backend", options->backend, "auto | cpu | cuda")
        ->check(CLI::IsMember(find_axis("backend")->values))
        ->capture_default_str();
    cmd->add_option("--precision", options->precisions, "fp32, tf32, fp64")
        ->delimiter(',')
        ->capture_default_str();
    cmd->add_option("--threads", options->threads,
                    "CPU threads (default: all cores; at most four per hardware thread)")
        ->check(number_check(0, false, max_cpu_threads()));
    cmd->add_option("-o,--out", options->out, "also store the results in this results database");
    cmd->add_option("benchmark_flags", options->benchmark_flags,
                    "Google Benchmark flags, after --");
    return [options]() { return execute(*options); };
}

}  // namespace trainscope::harness
