#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "workloads/training/TrainingResult.hpp"

namespace trainscope::harness {

// What the harness answers the worker after a step, besides go and stop: the tracing
// probe's switches, asked by its observer during on_step and sent with that answer.
class WorkerSteering {
  public:
    void request_tracing(bool on) { pending_ = on ? "trace on" : "trace off"; }
    // The answer to a step the observer has judged: stop, else a pending switch, else go.
    std::string answer(bool go);

  private:
    std::string pending_;
};

// Runs the worker (`argv`, a job with "controlled": true) to its end, step by step: it
// reports each step as one JSON line on its stdout and waits; the harness hands the step
// to `observer` (the same stopping rule, divergence check, progress and tracing probe as
// for the engine's cells) and answers with `steering`. Evaluations go to the observer as
// they come. The worker's stderr goes to `stderr_file`. Returns its exit code (-1: a
// signal ended it). Throws std::runtime_error when it cannot start or says nonsense.
int run_worker_session(const std::vector<std::string>& argv,
                       const std::filesystem::path& stderr_file,
                       workloads::TrainingObserver& observer, WorkerSteering& steering);

// The worker's step and evaluation records (its result file and its reports alike).
workloads::StepRecord worker_step(const nlohmann::json& s);
workloads::EvalRecord worker_eval(const nlohmann::json& e);

}  // namespace trainscope::harness
