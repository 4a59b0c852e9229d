#include "harness/pytorch/WorkerSession.hpp"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "harness/executor/Subprocess.hpp"

namespace trainscope::harness {

namespace {

// Reads the worker's lines from a descriptor its owner keeps open while it reads.
class LineReader {
  public:
    explicit LineReader(int fd) : fd_(fd) {}

    // False at the end of the stream.
    bool next(std::string& line) {
        for (;;) {
            if (const auto end = buffer_.find('\n'); end != std::string::npos) {
                line = buffer_.substr(0, end);
                buffer_.erase(0, end + 1);
                return true;
            }
            char chunk[4096];
            const ssize_t n = read(fd_, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
            buffer_.append(chunk, static_cast<std::size_t>(n));
        }
    }

  private:
    int fd_;
    std::string buffer_;
};

// A worker that died between its report and our answer must not take the cell down with
// SIGPIPE: the write fails instead, and its exit code says what happened.
class IgnoreSigpipe {
  public:
    IgnoreSigpipe() {
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ignore, &previous_);
    }
    ~IgnoreSigpipe() { sigaction(SIGPIPE, &previous_, nullptr); }
    IgnoreSigpipe(const IgnoreSigpipe&) = delete;
    IgnoreSigpipe& operator=(const IgnoreSigpipe&) = delete;

  private:
    struct sigaction previous_ {};
};

bool write_line(int fd, const std::string& text) {
    const std::string line = text + "\n";
    std::size_t done = 0;
    while (done < line.size()) {
        const ssize_t n = write(fd, line.data() + done, line.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

}  // namespace

std::string WorkerSteering::answer(bool go) {
    if (!go)
        return "stop";
    return pending_.empty() ? "go" : std::exchange(pending_, std::string());
}

namespace {
// JSON has no NaN: the worker writes a non-finite value as null.
double number_or_nan(const nlohmann::json& v) {
    return v.is_number() ? v.get<double>() : std::nan("");
}
}  // namespace

workloads::StepRecord worker_step(const nlohmann::json& s) {
    workloads::StepRecord step;
    step.index = s.at("index").get<std::int64_t>();
    step.epoch = s.at("epoch").get<int>();
    step.duration_ns = s.at("duration_ns").get<std::int64_t>();
    step.loss = number_or_nan(s.at("loss"));
    step.loss_scale = s.at("loss_scale").get<double>();
    step.skipped = s.at("skipped").get<bool>();
    step.warmup = s.at("warmup").get<bool>();
    step.data_ns = s.at("data_ns").get<std::int64_t>();
    return step;
}

workloads::EvalRecord worker_eval(const nlohmann::json& e) {
    return {e.at("epoch").get<int>(), e.at("after_step").get<std::int64_t>(),
            e.at("train_time_ns").get<std::int64_t>(), number_or_nan(e.at("test_accuracy")),
            number_or_nan(e.at("test_loss"))};
}

int run_worker_session(const std::vector<std::string>& argv,
                       const std::filesystem::path& stderr_file,
                       workloads::TrainingObserver& observer, WorkerSteering& steering) {
    const IgnoreSigpipe no_sigpipe;
    PipedProcess worker = spawn_piped(argv, stderr_file);
    // Both pipes close before the wait: the worker reads the end of its input and stops,
    // and one still writing gets EPIPE instead of blocking on a pipe nobody reads.
    const auto finish = [&worker] {
        worker.to_child.reset();
        worker.from_child.reset();
        return wait_for_exit(worker.pid);
    };
    try {
        LineReader reports(worker.from_child.get());
        std::string line;
        bool answering = true;
        while (reports.next(line)) {
            const auto report = nlohmann::json::parse(line, nullptr, false);
            if (report.is_discarded() || !report.is_object() ||
                !(report.contains("eval") || report.contains("step"))) {
                throw std::runtime_error("the PyTorch worker wrote a line that is not a report: " +
                                         line.substr(0, 200));
            }
            if (report.contains("eval")) {
                observer.on_eval(worker_eval(report.at("eval")));
                continue;
            }
            const bool go = observer.on_step(worker_step(report.at("step")));
            if (answering)
                answering = write_line(worker.to_child.get(), steering.answer(go));
        }
    } catch (...) {
        finish();
        throw;
    }
    return finish();
}

}  // namespace trainscope::harness
