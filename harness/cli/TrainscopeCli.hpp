#pragma once

namespace trainscope::harness {

// The `trainscope` command line: parses, dispatches to a subcommand, and turns errors
// into one-line messages with exit code 2 (bad input) or 1 (a failure while working).
int run_cli(int argc, char** argv);

}  // namespace trainscope::harness
