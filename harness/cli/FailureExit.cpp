#include "harness/cli/FailureExit.hpp"

#include <exception>
#include <new>
#include <stdexcept>

#include "common/InputError.hpp"
#include "common/LibraryError.hpp"

namespace trainscope::harness {

namespace {
int internal_error(std::FILE* out, const char* what) {
    std::fprintf(out,
                 "trainscope: internal error (a bug): %s; please report it with the command "
                 "line that led to it\n",
                 what);
    return kExitInternalError;
}
}  // namespace

int report_current_exception(std::FILE* out) noexcept {
    try {
        throw;
    } catch (const InputError& e) {
        std::fprintf(out, "trainscope: error: %s\n", e.what());
        return kExitInputError;
    } catch (const LibraryError& e) {
        std::fprintf(out, "trainscope: failed: %s\n", e.what());
        return kExitFault;
    } catch (const std::bad_alloc&) {
        std::fprintf(out, "trainscope: failed: out of memory\n");
        return kExitFault;
    } catch (const std::logic_error& e) {
        // Checked before runtime_error's siblings: a broken invariant of trainscope's own.
        return internal_error(out, e.what());
    } catch (const std::runtime_error& e) {
        // What the standard library calls errors beyond the program's control (a full
        // disk, a refused fork); what trainscope itself throws is typed above.
        std::fprintf(out, "trainscope: failed: %s\n", e.what());
        return kExitFault;
    } catch (const std::exception& e) {
        return internal_error(out, e.what());
    } catch (...) {
        return internal_error(out, "an exception that is not a std::exception");
    }
}

}  // namespace trainscope::harness
