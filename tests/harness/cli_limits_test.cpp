// Limits on values and inputs, and what reaches the terminal (issue 15: "Limits on
// values", "Import limits", "Terminal escapes").
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "CliProcess.hpp"
#include "TempDir.hpp"

namespace trainscope {
namespace {

using testing::run_trainscope;

void expect_refused(const std::string& arguments, const std::string& words) {
    const auto r = run_trainscope(arguments);
    EXPECT_EQ(r.exit_code, 2) << arguments << "\n" << r.output;
    EXPECT_NE(r.output.find(words), std::string::npos) << arguments << "\n" << r.output;
    // Readable bounds: never DBL_MAX's 309 digits.
    EXPECT_EQ(r.output.find("17976931348623157"), std::string::npos) << r.output;
    EXPECT_LT(r.output.size(), 400u) << r.output;
}

TEST(ValueLimits, CliRefusesWhatWouldBeCappedOrDropped) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::string too_many = std::to_string(4 * cores + 1);
    expect_refused("run --dry-run --threads " + too_many, "--threads '" + too_many +
                                                              "' is not a whole number from 1 to " +
                                                              std::to_string(4 * cores));
    expect_refused("run --dry-run --threads 100000", "four per hardware thread");
    expect_refused("run --dry-run --threads 0", "--threads '0'");
    expect_refused("run --dry-run --steps 1e20", "--steps '1e20' is not a whole number");
    expect_refused("run --dry-run --seed 18446744073709551616", "--seed '18446744073709551616'");
    expect_refused("run --dry-run --seed -1", "--seed '-1'");
    expect_refused("run --dry-run --batch 32,,64", "--batch '32,,64' has an empty item");
    expect_refused("run --dry-run --batch 32,", "has an empty item");
    expect_refused("run --dry-run --warmup -3", "--warmup '-3'");
    expect_refused("run --dry-run --rse 0", "--rse '0' is not a number above 0");
    expect_refused("run --dry-run --target-accuracy 2", "is not a number from 0 to 1");
    expect_refused("analyze x.db --run 1 --top 0", "is not a number above 0");
    expect_refused("compare x.db --same-within 2", "is not a number from 0 to 1");
    const auto ok = run_trainscope("run --dry-run --threads " + std::to_string(4 * cores) +
                                   " --seed 9223372036854775807 --batch 32,64");
    EXPECT_EQ(ok.exit_code, 0) << ok.output;
    EXPECT_NE(ok.output.find("2 cells"), std::string::npos) << ok.output;
}

TEST(ValueLimits, MatrixFileRefusesWhatTheCliRefuses) {
    testing::TempDir dir;
    const auto refused = [&](const std::string& run_table, const std::string& words) {
        const auto file = dir / "m.toml";
        std::ofstream(file) << "[run]\n" << run_table;
        expect_refused("run --dry-run " + file.string(), words);
    };
    refused("threads = 0\n", "[run] threads '0' is not a whole number from 1");
    refused("warmup = -3\n", "[run] warmup '-3' is not a whole number from 0");
    refused("steps = 10\nepochs = 2\n", "sets both steps and epochs");
    refused("steps = 1e20\n", "[run] steps");
    refused("seed = -1\n", "[run] seed '-1'");
    refused("threads = 100000\n", "four per hardware thread");
}

// The CLI run directly (no shell), killed after `timeout_s`, with its peak memory from
// wait4: what this one process used, not any earlier child of the test.
struct DirectResult {
    int exit_code = -1;
    bool killed = false;
    long max_rss_mib = 0;
    std::string output;
};

DirectResult run_direct(const std::vector<std::string>& arguments, const std::filesystem::path& log,
                        int timeout_s) {
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(fd, 1);
        dup2(fd, 2);
        std::vector<char*> argv{const_cast<char*>(TRAINSCOPE_CLI)};
        for (const auto& a : arguments)
            argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    DirectResult result;
    int status = 0;
    rusage usage{};
    for (int waited_ms = 0;; waited_ms += 20) {
        if (wait4(pid, &status, WNOHANG, &usage) == pid)
            break;
        if (waited_ms > timeout_s * 1000 && !result.killed) {
            kill(pid, SIGKILL);
            result.killed = true;
        }
        usleep(20000);
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.max_rss_mib = usage.ru_maxrss / 1024;
    std::stringstream text;
    text << std::ifstream(log).rdbuf();
    result.output = text.str();
    return result;
}

// Bytes of a gzip member holding `text` repeated `times`.
std::string gzip_member(const std::filesystem::path& scratch, const std::string& text,
                        std::size_t times) {
    gzFile gz = gzopen(scratch.c_str(), "wb6");
    for (std::size_t i = 0; i < times; ++i)
        gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
    std::stringstream bytes;
    bytes << std::ifstream(scratch, std::ios::binary).rdbuf();
    return bytes.str();
}

TEST(ImportLimits, GzipBombFailsClearlyInBoundedMemory) {
    testing::TempDir dir;
    // 1 GiB of spaces after a Kineto preamble in about 1 MiB: one 64 MiB member repeated
    // (zlib reads concatenated gzip members as one stream).
    const std::string spaces = gzip_member(dir / "m", std::string(1 << 20, ' '), 64);
    std::ofstream bomb(dir / "bomb.json.gz", std::ios::binary);
    bomb << gzip_member(dir / "m", "{\"traceEvents\":[", 1);
    for (int i = 0; i < 16; ++i)
        bomb << spaces;
    bomb.close();
    const auto r =
        run_direct({"import", (dir / "bomb.json.gz").string(), "-o", (dir / "r.db").string()},
                   dir / "log", 120);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("gzip bomb"), std::string::npos) << r.output;
    EXPECT_LT(r.max_rss_mib, 512) << "memory was not bounded";
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}

TEST(ImportLimits, FifoIsRefusedNotReadForever) {
    testing::TempDir dir;
    const auto fifo = dir / "trace.json";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const auto r =
        run_direct({"import", fifo.string(), "-o", (dir / "r.db").string()}, dir / "log", 20);
    EXPECT_FALSE(r.killed) << "the import blocked on the FIFO";
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("not a regular file"), std::string::npos) << r.output;
}

TEST(ImportLimits, NestingAndNameLengthHaveLimits) {
    testing::TempDir dir;
    const auto deep = dir / "deep.json";
    std::ofstream(deep) << "{\"traceEvents\":[{\"args\":" << std::string(500, '[')
                        << std::string(500, ']') << "}]}";
    const auto r = run_trainscope("import " + deep.string() + " -o " + (dir / "r.db").string());
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("nested deeper than"), std::string::npos) << r.output;

    const auto longname = dir / "long.json";
    std::ofstream(longname) << "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\""
                            << std::string(2 << 20, 'k')
                            << "\",\"ts\":1,\"dur\":1,\"pid\":0,\"tid\":7}]}";
    const auto l = run_trainscope("import " + longname.string() + " -o " + (dir / "r.db").string());
    EXPECT_EQ(l.exit_code, 2) << l.output;
    EXPECT_NE(l.output.find("limited to 1024 KiB"), std::string::npos) << l.output;
    EXPECT_FALSE(std::filesystem::exists(dir / "r.db"));
}

TEST(TerminalEscapes, KernelNamesAreEscapedInAnalyzeAndTables) {
    testing::TempDir dir;
    const auto trace = dir / "evil.json";
    // A kernel named with an escape sequence that would recolour and clear the terminal.
    std::ofstream(trace)
        << R"({"traceEvents":[)"
        << R"({"ph":"X","cat":"kernel","name":"evil\u001b[31m\u001b[2Jkernel\u0007","ts":10,)"
        << R"("dur":5,"pid":0,"tid":7,"args":{"device":0,"stream":7,"correlation":1}},)"
        << R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","ts":9,"dur":1,)"
        << R"("pid":1,"tid":1,"args":{"correlation":1}}]})";
    const std::string db = (dir / "r.db").string();
    const auto import = run_trainscope("import " + trace.string() + " -o " + db);
    ASSERT_EQ(import.exit_code, 0) << import.output;
    for (const std::string& command :
         {"analyze " + db + " --run 1", "report " + db + " --format table --table kernels",
          "report " + db + " --format markdown --table kernels"}) {
        const auto r = run_trainscope(command);
        EXPECT_EQ(r.exit_code, 0) << command << "\n" << r.output;
        EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << command;
        EXPECT_EQ(r.output.find('\x07'), std::string::npos) << command;
        EXPECT_NE(r.output.find("evil\\x1b[31m"), std::string::npos) << command << "\n" << r.output;
    }
}

}  // namespace
}  // namespace trainscope
