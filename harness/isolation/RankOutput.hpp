#pragma once

#include <string>

namespace trainscope::harness {

// mpirun's stderr, teed: passed on to ours as it comes (rank 0's progress, mpirun's
// messages) and kept, so that a failed cell can quote which rank mpirun saw die.
class RankOutput {
  public:
    RankOutput();
    ~RankOutput();
    RankOutput(const RankOutput&) = delete;
    RankOutput& operator=(const RankOutput&) = delete;

    int write_end() const { return write_; }
    // After the fork: the parent keeps only the read end, so the pipe ends with mpirun.
    void close_write_end();
    // Copies what is there without blocking.
    void drain();
    const std::string& text() const { return text_; }

  private:
    int read_ = -1;
    int write_ = -1;
    std::string text_;
};

// mpirun's own line about the rank that ended the job ("process rank 1 with PID 42 on node
// vm exited on signal 11 (Segmentation fault)."), or empty.
std::string mpirun_rank_verdict(const std::string& mpirun_output);
// srun's lines about the ranks (tasks) that ended the step badly ("srun: error: vm: task
// 1: Segmentation fault (core dumped)"), joined by "; ", or empty.
std::string srun_rank_verdict(const std::string& srun_output);

}  // namespace trainscope::harness
