#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nvtx3/nvtx3.hpp>
#include <string>
#include <thread>

#include "profiler/formats/KinetoImporter.hpp"
#include "profiler/formats/NsysSqliteImporter.hpp"
#include "profiler/host/HostTracer.hpp"

namespace trainscope::profiler {
namespace {

// The same NVTX ranges (one on the main thread, one on a worker) as the host tracer,
// a Kineto file and an Nsight Systems export carry them: each must land on a lane of
// the same kind and name, whichever source it came from.
struct Range {
    std::string name;
    std::int64_t process = 0;
    std::int64_t thread = 0;
};

std::map<std::string, Lane> lane_by_range(const Trace& trace) {
    std::map<std::string, Lane> out;
    for (const Activity& a : trace.activities) {
        if (a.kind == ActivityKind::NvtxRange)
            out[trace.strings.at(a.name)] = trace.lanes.at(a.lane);
    }
    return out;
}

std::filesystem::path input_dir() {
    const auto d = std::filesystem::path(TRAINSCOPE_BINARY_DIR) / "profiler_test_inputs";
    std::filesystem::create_directories(d);
    return d;
}

std::filesystem::path write_kineto(const std::vector<Range>& ranges) {
    std::string json = R"({"traceEvents": [)";
    int ts = 10;
    for (const Range& r : ranges) {
        if (ts > 10)
            json += ",";
        json += R"({"ph": "X", "cat": "user_annotation", "name": ")" + r.name + R"(", "pid": )" +
                std::to_string(r.process) + R"(, "tid": )" + std::to_string(r.thread) +
                R"(, "ts": )" + std::to_string(ts) + R"(, "dur": 5})";
        ts += 10;
    }
    json += "]}";
    const auto path = input_dir() / "lane_names.json";
    std::ofstream(path, std::ios::binary) << json;
    return path;
}

void exec(sqlite3* db, const std::string& sql) {
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error != nullptr ? error : "") << " in " << sql;
}

std::filesystem::path write_nsys(const std::vector<Range>& ranges) {
    const auto path = input_dir() / "lane_names.sqlite";
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    exec(db, "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT)");
    exec(db,
         "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId INTEGER, "
         "streamId INTEGER, correlationId INTEGER, demangledName INTEGER, gridX INTEGER, "
         "gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, "
         "registersPerThread INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER)");
    exec(db,
         "CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, "
         "globalTid INTEGER, text TEXT, textId INTEGER)");
    std::int64_t ts = 10'000;
    for (const Range& r : ranges) {
        // globalTid packs the process id above bit 24 and the thread id below.
        const std::int64_t global_tid = (r.process << 24) | r.thread;
        exec(db, "INSERT INTO NVTX_EVENTS VALUES (" + std::to_string(ts) + ", " +
                     std::to_string(ts + 5'000) + ", 59, " + std::to_string(global_tid) + ", '" +
                     r.name + "', NULL)");
        ts += 10'000;
    }
    sqlite3_close(db);
    return path;
}

struct MainDomain {
    static constexpr char const* name{"lane names test"};
};

TEST(LaneNamesAcrossSources, AnNvtxRangeLandsOnTheSameNamedLaneFromEverySource) {
    HostTracer tracer;
    { nvtx3::scoped_range_in<MainDomain> step{"step"}; }
    std::thread worker([] { nvtx3::scoped_range_in<MainDomain> load{"data load"}; });
    worker.join();
    const Trace host = tracer.stop();
    ASSERT_TRUE(HostTracer::injection_attached());
    const auto host_lanes = lane_by_range(host);
    ASSERT_EQ(host_lanes.size(), 2u);
    // The identities the host tracer saw, written into the two file formats.
    std::vector<Range> ranges;
    for (const auto& [name, lane] : host_lanes)
        ranges.push_back({name, lane.process, lane.stream_or_thread});
    EXPECT_EQ(host_lanes.at("step").process, static_cast<std::int64_t>(::getpid()));
    EXPECT_EQ(host_lanes.at("step").name, "NVTX · main thread");

    const auto kineto = lane_by_range(import_kineto_trace(write_kineto(ranges)));
    const auto nsys = lane_by_range(import_nsys_sqlite(write_nsys(ranges)));
    for (const auto& [name, lane] : host_lanes) {
        SCOPED_TRACE(name);
        ASSERT_TRUE(kineto.count(name));
        ASSERT_TRUE(nsys.count(name));
        EXPECT_EQ(kineto.at(name).kind, LaneKind::Nvtx);
        EXPECT_EQ(nsys.at(name).kind, LaneKind::Nvtx);
        EXPECT_EQ(kineto.at(name).name, lane.name);
        EXPECT_EQ(nsys.at(name).name, lane.name);
    }
    EXPECT_NE(host_lanes.at("step").name, host_lanes.at("data load").name);
}

}  // namespace
}  // namespace trainscope::profiler
