#pragma once

#include <cstdint>

namespace trainscope::profiler::detail {

// A thread as Nsight Systems exports name it: globalTid packs the process id in bits
// 24..47 and the thread id in bits 0..23 (the bits above 48 say which hardware/VM;
// nsys's export documentation: pid = (globalTid >> 24) & 0xFFFFFF, tid = globalTid &
// 0xFFFFFF). Every reader of an export decodes it here.
struct NsysThread {
    std::int64_t process = 0;
    std::int64_t thread = 0;
};

constexpr NsysThread decode_global_tid(std::int64_t global_tid) {
    return {(global_tid >> 24) & 0xFFFFFF, global_tid & 0xFFFFFF};
}

}  // namespace trainscope::profiler::detail
