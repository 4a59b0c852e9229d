#include "harness/runner/FaultInjection.hpp"

#include "harness/cli/UsageError.hpp"

namespace trainscope::harness {

FaultInjection parse_fault_injection(const std::string& spec) {
    FaultInjection fault;
    if (spec.empty())
        return fault;
    const auto colon = spec.find(':');
    std::string kind = spec.substr(0, colon);
    fault.match = colon == std::string::npos ? "" : spec.substr(colon + 1);
    if (const auto at = kind.find('@'); at != std::string::npos) {
        const std::string rank = kind.substr(at + 1);
        kind.resize(at);
        if (rank.empty() || rank.find_first_not_of("0123456789") != std::string::npos)
            throw UsageError("--inject-fault '" + spec + "': the rank after @ is not a number");
        fault.rank = std::stoi(rank);
    }
    if (kind == "crash") {
        fault.kind = FaultInjection::Kind::Crash;
    } else if (kind == "hang") {
        fault.kind = FaultInjection::Kind::Hang;
    } else if (kind == "nan") {
        fault.kind = FaultInjection::Kind::NanLoss;
    } else {
        throw UsageError("--inject-fault '" + spec +
                         "': expected crash|hang|nan[@RANK]:CELL_KEY_PART");
    }
    return fault;
}

std::string to_string(const FaultInjection& fault) {
    std::string text;
    switch (fault.kind) {
        case FaultInjection::Kind::Crash:
            text = "crash";
            break;
        case FaultInjection::Kind::Hang:
            text = "hang";
            break;
        case FaultInjection::Kind::NanLoss:
            text = "nan";
            break;
        case FaultInjection::Kind::None:
            return "";
    }
    if (fault.rank >= 0)
        text.append("@").append(std::to_string(fault.rank));
    return text.append(":").append(fault.match);
}

}  // namespace trainscope::harness
