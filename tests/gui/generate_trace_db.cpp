// generate_trace_db out.db [--kernels N] [--other-kernels M] [--seed S]
// Writes a synthetic results database shaped like a real GPU training matrix: the
// first run's trace has N kernels (up to millions), the other runs' M.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "tests/gui/TraceDbGenerator.hpp"

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s out.db [--kernels N] [--other-kernels M] [--seed S]\n",
                     argv[0]);
        return 2;
    }
    trainscope::gui::testing::DatabaseShape shape;
    std::string out;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::int64_t {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return std::stoll(argv[++i]);
        };
        if (arg == "--kernels")
            shape.main_kernels = value();
        else if (arg == "--other-kernels")
            shape.other_kernels = value();
        else if (arg == "--seed")
            shape.seed = static_cast<std::uint64_t>(value());
        else
            out = arg;
    }
    try {
        const auto t0 = std::chrono::steady_clock::now();
        const auto run = trainscope::gui::testing::writeDatabase(out, shape);
        const auto s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf("wrote %s: main trace in run %lld (%lld kernels), %.1f s\n", out.c_str(),
                    static_cast<long long>(run), static_cast<long long>(shape.main_kernels), s);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "generate_trace_db: %s\n", e.what());
        return 1;
    }
    return 0;
}
