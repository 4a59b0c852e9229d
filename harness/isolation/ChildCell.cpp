#include "harness/isolation/ChildCell.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>
#include <vector>

#include "harness/isolation/PublishFile.hpp"
#include "harness/isolation/RankLaunch.hpp"
#include "harness/isolation/RankOutput.hpp"
#include "harness/isolation/ScratchDir.hpp"
#include "harness/runner/RooflineFacts.hpp"
#include "profiler/trace/TraceMerge.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
#include "workloads/distributed/MpiSession.hpp"
#include "workloads/training/ConfigError.hpp"

namespace trainscope::harness {

namespace {

constexpr const char* kResultFile = "result.db";
constexpr const char* kErrorFile = "error.txt";

std::filesystem::path self_executable() {
    std::error_code ec;
    auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec)
        throw std::runtime_error("cannot find this program's path (/proc/self/exe): " +
                                 ec.message());
    return path;
}

std::string describe_signal(int signal_number) {
    const char* name = sigabbrev_np(signal_number);
    std::string text =
        fmt::format("SIG{} ({})", name != nullptr ? name : "?", strsignal(signal_number));
    if (signal_number == SIGKILL)
        text += "; the kernel's out-of-memory killer sends this";
    return text;
}

// stderr_fd >= 0: the child's stderr goes there (a multi-rank cell's, teed by the parent).
pid_t spawn_child(const std::vector<std::string>& command, int stderr_fd) {
    std::vector<char*> argv;
    for (const std::string& word : command)
        argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        // Only async-signal-safe calls until exec. The child dies with its parent, so a
        // kill -9 of the matrix leaves no orphan training on.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        if (stderr_fd >= 0)
            dup2(stderr_fd, STDERR_FILENO);
        execv(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}

std::string read_text(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

int cell_ranks(const Cell& cell) {
    const auto it = cell.values.find("ranks");
    return it == cell.values.end() ? 1 : std::stoi(it->second);
}

// Rank r > 0's run joins rank 0's: its trace's lanes and series (already of rank r) merge
// into the one run, its memory peak is kept as rank r's, and its communication figures
// become per-rank metrics.
void merge_other_ranks(reports::RunRecord& record, const std::filesystem::path& folder, int ranks) {
    for (int rank = 1; rank < ranks; ++rank) {
        const auto file = rank_file(folder, rank, kResultFile);
        if (!std::filesystem::exists(file))
            continue;
        const reports::ResultsDatabase db(file, reports::OpenMode::ReadOnly);
        auto runs = reports::load_runs(db, {}, reports::RunParts{true, false, false, true, true});
        if (runs.size() != 1)
            continue;
        if (record.trace && runs.front().trace)
            profiler::merge_trace_into(*record.trace, *runs.front().trace);
        if (std::optional<reports::MemoryPeak>& peak = runs.front().memory_peak) {
            // Its moment moves onto the merged trace's clock, as its trace did.
            if (peak->t_ns && record.trace && runs.front().trace)
                *peak->t_ns += runs.front().trace->base_ns - record.trace->base_ns;
            peak->rank = rank;
            record.other_rank_memory_peaks.push_back(std::move(*peak));
        }
        // Ranks on other nodes may have divided other core counts among their ranks.
        if (const auto& threads = runs.front().axes.threads)
            record.environment[fmt::format("threads/rank{}", rank)] = std::to_string(*threads);
        for (const char* name : {"communication_share", "exposed_communication_share",
                                 "images_per_s", "step_ms_median"}) {
            if (const reports::Metric* metric = runs.front().find_metric(name)) {
                record.metrics.push_back(
                    {fmt::format("{}/rank{}", name, rank), metric->value, metric->unit});
            }
        }
    }
}

// Which rank failed and why: the ranks' own error files, else mpirun's words about the
// rank it saw die.
std::string describe_rank_failure(const std::filesystem::path& folder, int ranks, int exit_code,
                                  RankLauncher launcher, const std::string& launcher_output,
                                  double elapsed_s) {
    std::string reasons;
    for (int rank = 0; rank < ranks; ++rank) {
        const std::string message = read_text(rank_file(folder, rank, kErrorFile));
        if (!message.empty())
            reasons += fmt::format("{}rank {}: {}", reasons.empty() ? "" : "; ", rank, message);
    }
    if (reasons.empty()) {
        reasons = launcher == RankLauncher::Srun ? srun_rank_verdict(launcher_output)
                                                 : mpirun_rank_verdict(launcher_output);
    }
    const char* name = launcher == RankLauncher::Srun ? "srun" : "mpirun";
    return fmt::format(
        "a rank failed after {:.1f} s ({} exited with code {}): {}", elapsed_s, name, exit_code,
        reasons.empty() ? fmt::format("no rank said why; see {}'s output above", name) : reasons);
}

// The folder a cell's child (or ranks) leave their files in: a private ScratchDir, or
// the rank start's shared folder, created empty and removed with this owner.
class CellFolder {
  public:
    CellFolder(const RankStart& start, int ranks) {
        if (ranks > 1 && !start.shared_dir.empty()) {
            shared_ = start.shared_dir;
            std::filesystem::remove_all(shared_);
            std::filesystem::create_directories(shared_);
        } else {
            scratch_.emplace();
        }
    }
    ~CellFolder() {
        std::error_code ec;
        if (!shared_.empty())
            std::filesystem::remove_all(shared_, ec);
    }
    CellFolder(const CellFolder&) = delete;
    CellFolder& operator=(const CellFolder&) = delete;
    [[nodiscard]] const std::filesystem::path& path() const {
        return scratch_ ? scratch_->path() : shared_;
    }

  private:
    std::optional<ScratchDir> scratch_;
    std::filesystem::path shared_;
};

}  // namespace

ChildOutcome run_cell_in_child(const CellJob& job, std::chrono::seconds timeout,
                               const std::atomic<bool>& interrupted, const RankStart& rank_start) {
    const int ranks = cell_ranks(job.cell);
    const CellFolder scratch(rank_start, ranks);
    const auto job_file = scratch.path() / "job.json";
    CellJob ranks_job = job;
    if (ranks_job.host_bandwidth_bytes_per_s <= 0.0)
        ranks_job.host_bandwidth_bytes_per_s = host_bandwidth_for_ranks(job.cell);
    write_cell_job(ranks_job, job_file);
    std::vector<std::string> command{self_executable().string(), "__cell", job_file.string(),
                                     scratch.path().string()};
    std::optional<RankOutput> rank_output;
    const bool srun = rank_start.launcher == RankLauncher::Srun;
    if (ranks > 1) {
        const std::filesystem::path launcher = find_launcher(rank_start.launcher);
        if (launcher.empty()) {
            ChildOutcome outcome;
            outcome.record.cell_key = job.cell.key();
            outcome.record.status = reports::RunStatus::Failed;
            outcome.record.error =
                srun ? fmt::format(
                           "ranks={} needs srun on PATH to start the ranks inside the "
                           "Slurm allocation (Slurm's client commands)",
                           ranks)
                     : fmt::format(
                           "ranks={} needs mpirun on PATH to start the ranks (apt "
                           "install openmpi-bin)",
                           ranks);
            return outcome;
        }
        command = srun ? srun_command(launcher, ranks, command)
                       : mpirun_command(launcher, ranks, geteuid() == 0, command);
        rank_output.emplace();
    }
    const pid_t pid = spawn_child(command, rank_output ? rank_output->write_end() : -1);
    if (rank_output)
        rank_output->close_write_end();

    const auto started = std::chrono::steady_clock::now();
    std::optional<std::chrono::steady_clock::time_point> timed_out_at;
    bool timed_out = false;
    bool forwarded_interrupt = false;
    int status = 0;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (rank_output)
            rank_output->drain();
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR) {
            throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
        }
        if (interrupted.load() && !forwarded_interrupt) {
            kill(pid, SIGINT);
            forwarded_interrupt = true;
        }
        const auto now = std::chrono::steady_clock::now();
        if (!timed_out && now - started > timeout) {
            // mpirun's ranks die with it (PR_SET_PDEATHSIG in run_child_cell). srun's are
            // slurmstepd's children: srun passes SIGTERM on to them, and is killed only
            // if they do not end.
            kill(pid, ranks > 1 && srun ? SIGTERM : SIGKILL);
            timed_out = true;
            timed_out_at = now;
        } else if (timed_out && ranks > 1 && srun &&
                   now - *timed_out_at > std::chrono::seconds(10)) {
            kill(pid, SIGKILL);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }

    ChildOutcome outcome;
    const auto result_file = scratch.path() / kResultFile;
    if (interrupted.load() && !std::filesystem::exists(result_file)) {
        outcome.end = ChildOutcome::End::Interrupted;
        return outcome;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == kChildConfigErrorExit) {
        outcome.end = ChildOutcome::End::ConfigError;
        outcome.config_error = read_text(scratch.path() / kErrorFile);
        return outcome;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && std::filesystem::exists(result_file)) {
        const reports::ResultsDatabase result(result_file, reports::OpenMode::ReadOnly);
        const auto runs =
            reports::load_runs(result, {}, reports::RunParts{true, true, true, true, true});
        if (runs.size() == 1) {
            outcome.record = runs.front();
            outcome.record.id = 0;
            outcome.record.matrix_id.reset();
            merge_other_ranks(outcome.record, scratch.path(), ranks);
            return outcome;
        }
    }
    // The child ended without a result: say why, in the cell's record.
    outcome.record.cell_key = job.cell.key();
    outcome.record.status = reports::RunStatus::Failed;
    const double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (timed_out) {
        outcome.record.error = fmt::format(
            "timeout: the cell ran longer than {} s and was killed "
            "(raise --timeout if it needs longer)",
            timeout.count());
    } else if (WIFSIGNALED(status)) {
        outcome.term_signal = WTERMSIG(status);
        outcome.record.error = fmt::format("crashed after {:.1f} s: killed by {}", elapsed_s,
                                           describe_signal(WTERMSIG(status)));
    } else if (ranks > 1) {
        outcome.record.error = describe_rank_failure(
            scratch.path(), ranks, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
            rank_start.launcher, rank_output ? rank_output->text() : std::string(), elapsed_s);
    } else {
        const std::string message = read_text(scratch.path() / kErrorFile);
        outcome.record.error =
            fmt::format("the cell's process exited with code {}{}{}", WEXITSTATUS(status),
                        message.empty() ? "" : ": ", message);
    }
    return outcome;
}

int run_child_cell(const std::filesystem::path& job_file, const std::filesystem::path& result_dir) {
    // A rank of a multi-rank cell writes its own files; rank 0 those of a single child.
    const int rank = launched_rank().value_or(0);
    const auto error_file = rank_file(result_dir, rank, kErrorFile);
    try {
        const CellJob job = read_cell_job(job_file);
        std::optional<workloads::MpiSession> mpi;
        if (cell_ranks(job.cell) > 1) {
            // mpirun killed on timeout cannot take its ranks down: they go with it.
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            mpi.emplace();
        }
        ProgressReporter progress(rank == 0 ? job.progress_style : ProgressStyle::Quiet, job.index,
                                  job.count, job.label,
                                  job.stopping.fixed_length ? job.length.steps : 0,
                                  std::atoi(job.cell.values.at("batch").c_str()));
        CellRunOptions options{job.length, job.stopping, job.fault, &progress,
                               job.host_bandwidth_bytes_per_s};
        if (job.fault.rank >= 0 && job.fault.rank != rank)
            options.fault = FaultInjection{};
        reports::RunRecord record;
        try {
            record = run_cell(job.cell, options);
        } catch (const workloads::ConfigError& e) {
            std::ofstream(error_file) << e.what();
            return kChildConfigErrorExit;
        }
        progress.finish();
        // Written on this node's disk and published whole: under srun, result_dir is on
        // the shared file system.
        const auto result_file = rank_file(result_dir, rank, kResultFile);
        const auto temp = local_staging(result_file);
        {
            reports::ResultsDatabase db(temp, reports::OpenMode::CreateOrOpen);
            reports::RunWriter(db).write(record);
            db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
            db.exec("PRAGMA journal_mode = DELETE");
        }
        publish_file(temp, result_file);
        return 0;
    } catch (const std::exception& e) {
        std::ofstream(error_file) << e.what();
        return 1;
    }
}

}  // namespace trainscope::harness
