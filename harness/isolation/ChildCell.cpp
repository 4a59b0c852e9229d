#include "harness/isolation/ChildCell.hpp"

#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "harness/isolation/ScratchDir.hpp"
#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunWriter.hpp"
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

pid_t spawn_child(const std::filesystem::path& exe, const std::filesystem::path& job_file,
                  const std::filesystem::path& result_dir) {
    const std::string exe_text = exe.string();
    const std::string job_text = job_file.string();
    const std::string dir_text = result_dir.string();
    std::vector<char*> argv{const_cast<char*>(exe_text.c_str()), const_cast<char*>("__cell"),
                            const_cast<char*>(job_text.c_str()),
                            const_cast<char*>(dir_text.c_str()), nullptr};
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

}  // namespace

ChildOutcome run_cell_in_child(const CellJob& job, std::chrono::seconds timeout,
                               const std::atomic<bool>& interrupted) {
    ScratchDir scratch;
    const auto job_file = scratch.path() / "job.json";
    write_cell_job(job, job_file);
    const pid_t pid = spawn_child(self_executable(), job_file, scratch.path());

    const auto started = std::chrono::steady_clock::now();
    bool timed_out = false;
    bool forwarded_interrupt = false;
    int status = 0;
    for (;;) {
        const pid_t done = waitpid(pid, &status, WNOHANG);
        if (done == pid)
            break;
        if (done < 0 && errno != EINTR) {
            throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
        }
        if (interrupted.load() && !forwarded_interrupt) {
            kill(pid, SIGINT);
            forwarded_interrupt = true;
        }
        if (!timed_out && std::chrono::steady_clock::now() - started > timeout) {
            kill(pid, SIGKILL);
            timed_out = true;
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
    } else {
        const std::string message = read_text(scratch.path() / kErrorFile);
        outcome.record.error =
            fmt::format("the cell's process exited with code {}{}{}", WEXITSTATUS(status),
                        message.empty() ? "" : ": ", message);
    }
    return outcome;
}

int run_child_cell(const std::filesystem::path& job_file, const std::filesystem::path& result_dir) {
    try {
        const CellJob job = read_cell_job(job_file);
        ProgressReporter progress(job.progress_style, job.index, job.count, job.label,
                                  job.stopping.fixed_length ? job.length.steps : 0,
                                  std::atoi(job.cell.values.at("batch").c_str()));
        CellRunOptions options{job.length, job.stopping, job.fault, &progress};
        reports::RunRecord record;
        try {
            record = run_cell(job.cell, options);
        } catch (const workloads::ConfigError& e) {
            std::ofstream(result_dir / kErrorFile) << e.what();
            return kChildConfigErrorExit;
        }
        progress.finish();
        const auto temp = result_dir / "result.db.tmp";
        {
            reports::ResultsDatabase db(temp, reports::OpenMode::CreateOrOpen);
            reports::RunWriter(db).write(record);
            db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
            db.exec("PRAGMA journal_mode = DELETE");
        }
        std::filesystem::rename(temp, result_dir / kResultFile);
        return 0;
    } catch (const std::exception& e) {
        std::ofstream(result_dir / kErrorFile) << e.what();
        return 1;
    }
}

}  // namespace trainscope::harness
