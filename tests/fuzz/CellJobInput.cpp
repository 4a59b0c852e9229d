#include <exception>

#include "harness/isolation/CellJob.hpp"
#include "tests/fuzz/FuzzInputs.hpp"
#include "tests/fuzz/ScratchFile.hpp"

namespace trainscope::fuzz {

// The job file is the parent's hand-over to its child, not user input: a job the child
// cannot read is an exception that fails the cell (ChildCell records it), so any
// std::exception is a handled refusal. What must not happen is undefined behaviour.
void cell_job_input(Bytes data) {
    static ScratchFile file(".job.json");
    try {
        (void)harness::read_cell_job(file.write(data));
    } catch (const std::exception&) {
    }
}

}  // namespace trainscope::fuzz
