#include "harness/runner/FaultInjection.hpp"

#include "harness/cli/UsageError.hpp"

namespace trainscope::harness {

FaultInjection parse_fault_injection(const std::string& spec) {
    FaultInjection fault;
    if (spec.empty()) return fault;
    const auto colon = spec.find(':');
    const std::string kind = spec.substr(0, colon);
    fault.match = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (kind == "crash") {
        fault.kind = FaultInjection::Kind::Crash;
    } else if (kind == "hang") {
        fault.kind = FaultInjection::Kind::Hang;
    } else if (kind == "nan") {
        fault.kind = FaultInjection::Kind::NanLoss;
    } else {
        throw UsageError("--inject-fault '" + spec + "': expected crash|hang|nan:CELL_KEY_PART");
    }
    return fault;
}

std::string to_string(const FaultInjection& fault) {
    switch (fault.kind) {
        case FaultInjection::Kind::Crash: return "crash:" + fault.match;
        case FaultInjection::Kind::Hang: return "hang:" + fault.match;
        case FaultInjection::Kind::NanLoss: return "nan:" + fault.match;
        case FaultInjection::Kind::None: break;
    }
    return "";
}

}  // namespace trainscope::harness
