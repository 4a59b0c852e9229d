#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "TempDir.hpp"
#include "harness/pytorch/WorkerSession.hpp"

namespace trainscope::harness {
namespace {

// A stand-in for the worker, without torch: reports steps as the real one does, takes
// each answer, writes the answers it got to argv[1] and stops when told.
constexpr const char* kFakeWorker = R"(import json, sys
answers = []
for i in range(1000):
    step = {"index": i, "epoch": 0, "start_ns": i, "duration_ns": 1000 + i,
            "loss": None if i == 3 else 0.5, "loss_scale": 1.0, "skipped": False,
            "warmup": i < 1, "data_ns": 7}
    print(json.dumps({"step": step}), flush=True)
    answers.append(sys.stdin.readline().strip())
    if i == 1:
        print(json.dumps({"eval": {"epoch": 0, "after_step": 2, "train_time_ns": 5,
                                   "test_accuracy": 0.25, "test_loss": 1.5}}), flush=True)
    if answers[-1] == "stop":
        break
open(sys.argv[1], "w").write(" | ".join(answers))
)";

class StopAtFourth : public workloads::TrainingObserver {
  public:
    explicit StopAtFourth(WorkerSteering& steering) : steering_(steering) {}
    bool on_step(const workloads::StepRecord& step) override {
        steps.push_back(step);
        if (step.index == 1)
            steering_.request_tracing(true);
        return step.index < 3;
    }
    void on_eval(const workloads::EvalRecord& eval) override { evals.push_back(eval); }
    std::vector<workloads::StepRecord> steps;
    std::vector<workloads::EvalRecord> evals;

  private:
    WorkerSteering& steering_;
};

std::string read_all(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST(PyTorchWorkerSession, TheObserverDecidesEachStepAndTheWorkerObeys) {
    testing::TempDir dir;
    const auto script = dir / "fake_worker.py";
    std::ofstream(script) << kFakeWorker;
    const auto answers = dir / "answers.txt";
    WorkerSteering steering;
    StopAtFourth observer(steering);
    const int exit_code =
        run_worker_session({TRAINSCOPE_TEST_PYTHON, script.string(), answers.string()},
                           dir / "stderr.txt", observer, steering);
    ASSERT_EQ(exit_code, 0) << read_all(dir / "stderr.txt");
    EXPECT_EQ(read_all(answers), "go | trace on | go | stop");
    ASSERT_EQ(observer.steps.size(), 4u);
    EXPECT_TRUE(observer.steps[0].warmup);
    EXPECT_EQ(observer.steps[2].duration_ns, 1002);
    EXPECT_EQ(observer.steps[2].data_ns, 7);
    EXPECT_TRUE(std::isnan(observer.steps[3].loss)) << "JSON's null loss is a diverged step";
    ASSERT_EQ(observer.evals.size(), 1u);
    EXPECT_EQ(observer.evals[0].test_accuracy, 0.25);
}

TEST(PyTorchWorkerSession, AWorkerThatWritesSomethingElseIsAnErrorNamingTheLine) {
    testing::TempDir dir;
    const auto script = dir / "chatty.py";
    std::ofstream(script) << "print('hello from torch')\n";
    WorkerSteering steering;
    StopAtFourth observer(steering);
    try {
        run_worker_session({TRAINSCOPE_TEST_PYTHON, script.string()}, dir / "stderr.txt", observer,
                           steering);
        FAIL() << "no error";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("hello from torch"), std::string::npos) << e.what();
    }
}

// After a bad line the session stops reading: the worker's stdout must close before the
// wait, or a worker with more to say (here 1 MB, far past a pipe's buffer) blocks in its
// write and the wait never ends. Closed, it dies of the broken pipe at once; the alarm
// ends it after 20 s otherwise, so that the test fails instead of hanging.
TEST(PyTorchWorkerSession, AWorkerStillWritingAfterABadLineIsNotWaitedOnForever) {
    testing::TempDir dir;
    const auto script = dir / "flood.py";
    std::ofstream(script) << "import signal, sys\nsignal.alarm(20)\n"
                             "print('not a report', flush=True)\n"
                             "sys.stdout.write('x' * 1000000)\nsys.stdout.flush()\n";
    WorkerSteering steering;
    StopAtFourth observer(steering);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_THROW(run_worker_session({TRAINSCOPE_TEST_PYTHON, script.string()}, dir / "stderr.txt",
                                    observer, steering),
                 std::runtime_error);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(15))
        << "the session waited on a worker blocked writing to a pipe nobody read";
}

}  // namespace
}  // namespace trainscope::harness
