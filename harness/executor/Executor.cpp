#include "harness/executor/Executor.hpp"

#include "harness/executor/SlurmExecutor.hpp"

namespace trainscope::harness {

namespace {

class LocalExecutor final : public Executor {
  public:
    MatrixRunResult run(const MatrixPlan& plan, const MatrixRunOptions& options) override {
        return run_matrix(plan, options);
    }
};

}  // namespace

std::unique_ptr<Executor> make_executor(const ExecutorSettings& settings) {
    if (settings.kind == ExecutorSettings::Kind::Slurm)
        return std::make_unique<SlurmExecutor>(settings);
    return std::make_unique<LocalExecutor>();
}

}  // namespace trainscope::harness
