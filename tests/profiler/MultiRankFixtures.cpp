#include "MultiRankFixtures.hpp"

#include <algorithm>
#include <map>

#include "TraceFixtures.hpp"
#include "profiler/formats/KinetoImporter.hpp"

namespace trainscope::profiler::testing {

const JobAssembly& multirank_job(const std::string& set) {
    static std::map<std::string, JobAssembly> cache;
    auto it = cache.find(set);
    if (it == cache.end()) {
        std::vector<std::filesystem::path> paths;
        for (const auto& entry :
             std::filesystem::directory_iterator(shared_trace_path("multirank/" + set))) {
            if (entry.path().extension() == ".gz")
                paths.push_back(entry.path());
        }
        std::sort(paths.begin(), paths.end());
        std::vector<RankTraceFile> files;
        for (const auto& p : paths)
            files.push_back({p, import_kineto_trace(p)});
        JobAssemblyOptions options;
        options.allow_partial = true;  // the sampled set holds 2 of 128 ranks
        it = cache.emplace(set, assemble_job(std::move(files), options)).first;
    }
    return it->second;
}

}  // namespace trainscope::profiler::testing
