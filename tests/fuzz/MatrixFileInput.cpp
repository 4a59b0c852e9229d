#include <string>

#include "harness/cli/UsageError.hpp"
#include "harness/matrix/MatrixFile.hpp"
#include "tests/fuzz/FuzzInputs.hpp"

namespace trainscope::fuzz {

void matrix_file_input(Bytes data) {
    const std::string text(reinterpret_cast<const char*>(data.data()), data.size());
    try {
        (void)harness::parse_matrix_text(text, "fuzz.toml");
    } catch (const harness::UsageError&) {
        // the documented answer to a bad matrix file: the CLI prints it and exits 2
    }
}

}  // namespace trainscope::fuzz
