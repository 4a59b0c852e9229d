#include "harness/executor/SlurmClient.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>
#include <stdexcept>

#include "harness/cli/UsageError.hpp"
#include "harness/executor/Subprocess.hpp"

namespace trainscope::harness {

namespace {

std::vector<std::string> split(const std::string& line, char separator) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const auto end = line.find(separator, start);
        fields.push_back(line.substr(start, end - start));
        if (end == std::string::npos)
            return fields;
        start = end + 1;
    }
}

// "123_4" -> (123, 4); an unsplit range "123_[4-6]" or a step "123_4.batch" -> false.
bool split_task_id(const std::string& id, std::string& job, int& index) {
    const auto underscore = id.find('_');
    if (underscore == std::string::npos)
        return false;
    job = id.substr(0, underscore);
    const std::string rest = id.substr(underscore + 1);
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), index);
    return ec == std::errc{} && end == rest.data() + rest.size() && !job.empty();
}

std::vector<SlurmTask> parse_lines(const std::string& text, std::size_t min_fields) {
    std::vector<SlurmTask> tasks;
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        const auto fields = split(line, '|');
        if (fields.size() < min_fields)
            continue;
        SlurmTask task;
        if (!split_task_id(fields[0], task.job_id, task.index))
            continue;
        task.state_text = fields[1];
        task.state = parse_slurm_state(fields[1]);
        task.node = fields[2] == "(null)" ? "" : fields[2];
        task.elapsed = fields[3];
        if (fields.size() > 4 && fields[4] != "None")
            task.reason = fields[4];
        tasks.push_back(std::move(task));
    }
    return tasks;
}

}  // namespace

std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (const char c : text) {
        if (c == '\'')
            quoted += "'\\''";
        else
            quoted += c;
    }
    return quoted + "'";
}

SlurmState parse_slurm_state(std::string_view text) {
    // sacct writes "CANCELLED by 1000"; the first word is the state.
    const std::string_view word = text.substr(0, text.find(' '));
    if (word == "PENDING" || word == "REQUEUED" || word == "RESV_DEL_HOLD")
        return SlurmState::Pending;
    if (word == "RUNNING" || word == "CONFIGURING" || word == "COMPLETING" || word == "SUSPENDED" ||
        word == "STAGE_OUT" || word == "RESIZING" || word == "SIGNALING")
        return SlurmState::Running;
    if (word == "COMPLETED")
        return SlurmState::Completed;
    if (word == "FAILED")
        return SlurmState::Failed;
    if (word == "TIMEOUT")
        return SlurmState::Timeout;
    if (word == "OUT_OF_MEMORY")
        return SlurmState::OutOfMemory;
    if (word == "CANCELLED")
        return SlurmState::Cancelled;
    if (word == "NODE_FAIL")
        return SlurmState::NodeFail;
    return SlurmState::Other;
}

std::string slurm_failure_text(const SlurmTask& task, const std::string& time_per_cell) {
    const std::string where = task.node.empty() ? "" : fmt::format(" on {}", task.node);
    const std::string after = task.elapsed.empty() ? "" : fmt::format(" after {}", task.elapsed);
    switch (task.state) {
        case SlurmState::Timeout:
            return fmt::format(
                "timeout: Slurm ended the task{}{} at its time limit ({}; TIMEOUT) — raise "
                "--time-per-cell",
                where, after, time_per_cell.empty() ? "the partition's" : time_per_cell);
        case SlurmState::OutOfMemory:
            return fmt::format(
                "out of memory: Slurm killed the task{}{} (OUT_OF_MEMORY) — ask for more with "
                "--sbatch-arg=--mem=...",
                where, after);
        case SlurmState::Cancelled:
            return fmt::format("cancelled: the task was cancelled{}{} ({})", where, after,
                               task.state_text);
        case SlurmState::NodeFail:
            return fmt::format("node failure: the node{} failed while the task ran{} (NODE_FAIL)",
                               where, after);
        case SlurmState::Completed:
            return fmt::format(
                "the task ended{}{} (COMPLETED) without writing its result; see its log", where,
                after);
        case SlurmState::Failed:
            return fmt::format("the task failed{}{} ({}) without writing its result; see its log",
                               where, after, task.state_text);
        default:
            return fmt::format("the task ended{}{} as {} without writing its result", where, after,
                               task.state_text);
    }
}

std::vector<SlurmTask> parse_squeue(const std::string& text) {
    return parse_lines(text, 5);
}

std::vector<SlurmTask> parse_sacct(const std::string& text) {
    return parse_lines(text, 4);
}

std::vector<std::string> sbatch_arguments(const ArraySubmission& s) {
    std::vector<std::string> args{"sbatch", "--parsable"};
    std::string array = fmt::format("--array=0-{}", s.task_count - 1);
    if (s.settings.max_parallel > 0)
        array += fmt::format("%{}", s.settings.max_parallel);
    args.push_back(array);
    args.push_back("--job-name=" + s.job_name);
    args.push_back("--output=" + s.log_pattern.string());
    args.push_back(fmt::format("--ntasks={}", std::max(1, s.tasks_per_cell)));
    if (s.cpus_per_task > 0)
        args.push_back(fmt::format("--cpus-per-task={}", s.cpus_per_task));
    if (!s.settings.partition.empty())
        args.push_back("--partition=" + s.settings.partition);
    if (!s.settings.account.empty())
        args.push_back("--account=" + s.settings.account);
    if (!s.settings.time_per_cell.empty())
        args.push_back("--time=" + s.settings.time_per_cell);
    if (s.settings.gpus_per_cell > 0)
        args.push_back(fmt::format("--gres=gpu:{}", s.settings.gpus_per_cell));
    for (const auto& extra : s.settings.sbatch_args)
        args.push_back(extra);
    args.push_back("--wrap=" + s.command);
    return args;
}

SlurmClient::SlurmClient() {
    for (const char* program : {"sbatch", "squeue"}) {
        if (!find_on_path(program)) {
            throw UsageError(fmt::format(
                "{} not found on PATH: --executor slurm needs Slurm's client commands (sbatch, "
                "squeue) on this machine; run on the cluster's login node, or install "
                "slurm-client, or use --executor local",
                program));
        }
    }
}

std::string SlurmClient::submit(const ArraySubmission& submission) const {
    const ProcessOutput out = run_process(sbatch_arguments(submission));
    std::string id = out.out.substr(0, out.out.find_first_of(";\n"));
    if (out.exit_code != 0 || id.empty()) {
        std::string message = out.err.empty() ? out.out : out.err;
        while (!message.empty() && message.back() == '\n')
            message.pop_back();
        throw std::runtime_error(
            fmt::format("sbatch refused the job array (exit {}): {}", out.exit_code, message));
    }
    return id;
}

std::vector<SlurmTask> SlurmClient::tasks(const std::string& job_id, int task_count) const {
    std::vector<SlurmTask> tasks;
    const ProcessOutput queue =
        run_process({"squeue", "-h", "-r", "--states=all", "-j", job_id, "-o", "%i|%T|%N|%M|%r"});
    if (queue.exit_code == 0)
        tasks = parse_squeue(queue.out);
    std::set<int> seen;
    for (const auto& task : tasks)
        seen.insert(task.index);
    // The controller forgets each ended task MinJobAge after it ended, so a task that
    // failed early is gone from squeue while its siblings still run: accounting, where
    // the cluster keeps it, is asked for every task squeue did not report.
    if (static_cast<int>(seen.size()) >= task_count || !find_on_path("sacct"))
        return tasks;
    const ProcessOutput acct = run_process(
        {"sacct", "-n", "-P", "-X", "-j", job_id, "-o", "JobID,State,NodeList,Elapsed"});
    if (acct.exit_code != 0)
        return tasks;
    for (auto& task : parse_sacct(acct.out)) {
        if (seen.insert(task.index).second)
            tasks.push_back(std::move(task));
    }
    return tasks;
}

}  // namespace trainscope::harness
