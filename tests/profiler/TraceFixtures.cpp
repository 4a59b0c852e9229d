#include "TraceFixtures.hpp"

#include <map>

#include "profiler/formats/KinetoImporter.hpp"

namespace trainscope::profiler::testing {

std::filesystem::path shared_trace_path(const std::string& relative) {
    return std::filesystem::path(TRAINSCOPE_SHARED_DIR) / "traces" / relative;
}

const Trace& kineto_fixture(const std::string& stem) {
    static std::map<std::string, Trace> cache;
    auto it = cache.find(stem);
    if (it == cache.end()) {
        it = cache
                 .emplace(stem,
                          import_kineto_trace(shared_trace_path("kineto/" + stem + ".json.gz")))
                 .first;
    }
    return it->second;
}

KindTotals totals_of(const Trace& trace, ActivityKind kind) {
    KindTotals t;
    for (const Activity& a : trace.activities) {
        if (a.kind != kind)
            continue;
        ++t.count;
        t.duration_ns += a.duration_ns();
        t.bytes += a.bytes;
    }
    return t;
}

}  // namespace trainscope::profiler::testing
