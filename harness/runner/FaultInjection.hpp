#pragma once

#include <string>

namespace trainscope::harness {

// A test-only fault for the isolation tests (hidden flag --inject-fault KIND:MATCH):
// the cell whose key contains MATCH crashes (SIGSEGV), hangs, or sees a NaN loss, so
// tests can check that the matrix records the cause and goes on. KIND@R:MATCH limits the
// fault to rank R of a multi-rank cell (crash@1:ranks=2 kills rank 1 mid-run).
struct FaultInjection {
    enum class Kind { None, Crash, Hang, NanLoss } kind = Kind::None;
    std::string match;
    int rank = -1;  // -1: every rank

    [[nodiscard]] bool applies_to(const std::string& cell_key) const {
        return kind != Kind::None && cell_key.find(match) != std::string::npos;
    }
};

// Parses "crash:batch=64" or "crash@1:ranks=2"; throws UsageError on a bad spec.
FaultInjection parse_fault_injection(const std::string& spec);
std::string to_string(const FaultInjection& fault);

}  // namespace trainscope::harness
