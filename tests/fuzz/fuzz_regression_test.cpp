// Replays every input a fuzz target once failed on (tests/fuzz/regressions/<target>/) and
// checks the committed seeds, in every build: under ASan/UBSan in CI each replay is also a
// memory and undefined-behaviour check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness/isolation/CellJob.hpp"
#include "tests/fuzz/FuzzInputs.hpp"

namespace trainscope::fuzz {
namespace {

const std::filesystem::path kFuzzDir = TRAINSCOPE_FUZZ_DIR;

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(dir))
        for (const auto& entry : std::filesystem::directory_iterator(dir))
            if (entry.is_regular_file())
                files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

// The target of this name ("kineto_importer", ...) on one input; false for an unknown name.
bool run_fuzz_input(const std::string& target, Bytes data) {
    if (target == "kineto_importer")
        kineto_importer_input(data);
    else if (target == "nsys_sqlite")
        nsys_sqlite_input(data);
    else if (target == "matrix_file")
        matrix_file_input(data);
    else if (target == "cell_job")
        cell_job_input(data);
    else if (target == "cupti_decoder")
        cupti_decoder_input(data);
    else
        return false;
    return true;
}

class FuzzRegression : public ::testing::TestWithParam<std::string> {};

// A failure here is a crash or a sanitizer report with the input's name above it.
TEST_P(FuzzRegression, EveryOnceFailingInputIsHandled) {
    const std::string target = GetParam();
    if (target == "cupti_decoder" && !kHaveCuptiDecoder)
        GTEST_SKIP() << "this build has no CUPTI, so no CUPTI decoder to replay inputs on";
    for (const auto& file : files_in(kFuzzDir / "regressions" / target)) {
        SCOPED_TRACE(file.string());
        std::fprintf(stderr, "replaying %s\n", file.c_str());
        const auto bytes = read_bytes(file);
        ASSERT_TRUE(run_fuzz_input(target, Bytes(bytes.data(), bytes.size())));
    }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzRegression,
                         ::testing::Values("kineto_importer", "nsys_sqlite", "matrix_file",
                                           "cell_job", "cupti_decoder"));

// The committed seed is a job file as the parent writes it: if the format moves on, the
// seed must too, or the fuzzer starts from inputs the reader refuses at once.
TEST(FuzzSeeds, CellJobSeedIsAJobTheChildAccepts) {
    const auto seeds = files_in(kFuzzDir / "seeds" / "cell_job");
    ASSERT_FALSE(seeds.empty());
    for (const auto& file : seeds) {
        const harness::CellJob job = harness::read_cell_job(file);
        EXPECT_EQ(job.cell.values.at("model"), "seed-cnn") << file;
        EXPECT_EQ(job.length.steps, 20) << file;
        EXPECT_EQ(job.fault.kind, harness::FaultInjection::Kind::Crash) << file;
    }
}

}  // namespace
}  // namespace trainscope::fuzz
