#include "tests/profiler/NsysNcclExport.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <string>

namespace trainscope::profiler::testing {

namespace {

void exec(sqlite3* db, const std::string& sql) {
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error != nullptr ? error : "") << "\n"
        << sql;
}

}  // namespace

std::filesystem::path write_rank(const std::filesystem::path& dir, int rank, std::int64_t late) {
    const auto path = dir / ("rank-" + std::to_string(rank) + ".sqlite");
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    exec(db, "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL)");
    exec(db,
         "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER, end INTEGER, deviceId "
         "INTEGER, streamId INTEGER, correlationId INTEGER, demangledName INTEGER, gridX "
         "INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER, "
         "registersPerThread INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER)");
    exec(db,
         "CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER, end INTEGER, globalTid "
         "INTEGER, correlationId INTEGER, nameId INTEGER)");
    exec(db,
         "CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER, "
         "text TEXT, globalTid INTEGER, textId INTEGER, jsonTextId INTEGER, jsonText TEXT)");
    exec(db,
         "INSERT INTO StringIds VALUES (1, 'ncclDevKernel_AllReduce_Sum_f32_RING_LL'), (2, "
         "'ncclDevKernel_SendRecv'), (3, 'ncclDevKernel_AllGather_RING_LL'), (4, "
         "'ampere_sgemm_128x64_nn'), (5, 'cudaLaunchKernel'), (6, '{\"NCCL communicator ID\": "
         "77, \"Rank\": 0, \"Message size [bytes]\": 256}')");
    const std::string d = std::to_string(late);
    const std::string tid = std::to_string(kGlobalTid);
    // Kernels: start, end, device, stream, correlation, name.
    exec(db, "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1000+" + d + ", 3000, 0, 13, 1, 1, " +
                 "1,1,1,1,1,1,1,0,0), (4000+" + d + ", 4500, 0, 13, 2, 2, 1,1,1,1,1,1,1,0,0), " +
                 "(5000+" + d + ", 6000, 0, 13, 3, 3, 1,1,1,1,1,1,1,0,0), (200, 900, 0, 7, 4, 4, " +
                 "1,1,1,1,1,1,1,0,0)");
    exec(db, "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (500, 520, " + tid + ", 1, 5), " +
                 "(3500, 3520, " + tid + ", 2, 5), (4800, 4820, " + tid + ", 3, 5), (100, 120, " +
                 tid + ", 4, 5)");
    // ncclAllReduce (push/pop, payload inline) and ncclSend (payload through StringIds).
    exec(db, "INSERT INTO NVTX_EVENTS VALUES (480, 600, 59, 'ncclAllReduce', " + tid +
                 ", NULL, NULL, '{\"NCCL communicator ID\": 77, \"Rank\": " + std::to_string(rank) +
                 ", \"No. of ranks\": 2, \"Message size [bytes]\": 4096, \"Reduction "
                 "operation\": \"ncclSum\"}'), (3400, 3600, 59, 'ncclSend', " +
                 tid + ", NULL, 6, NULL)");
    sqlite3_close(db);
    return path;
}

}  // namespace trainscope::profiler::testing
