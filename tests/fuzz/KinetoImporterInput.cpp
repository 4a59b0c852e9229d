#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/TraceFormatError.hpp"
#include "tests/fuzz/FuzzInputs.hpp"
#include "tests/fuzz/ScratchFile.hpp"
#include "tests/fuzz/TraceInvariants.hpp"

namespace trainscope::fuzz {

void kineto_importer_input(Bytes data) {
    static ScratchFile file(".json");
    try {
        check_trace_invariants(profiler::import_kineto_trace(file.write(data)));
    } catch (const profiler::TraceFormatError&) {
        // the documented answer to a file that is not a Kineto trace
    }
}

}  // namespace trainscope::fuzz
