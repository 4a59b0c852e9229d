#pragma once

// An NVTX start/end range (domain "trainscope.comm") around one collective, from its start
// to the completion the communicator sees, so a tracer can put it on a communication lane:
// message = the collective's kind as the trace spells it, its element type and size
// ("all_reduce/double/8", "@<group>" appended off the world: common/CollectiveMessage.hpp),
// 64-bit payload = its bytes,
// category = its sequence number + 1 (NVTX category 0 means none). Start/end,
// not push/pop: a non-blocking collective outlives the call that starts it and may be
// completed by another call or thread. Without NVTX (TRAINSCOPE_HAS_NVTX undefined) it
// compiles to nothing.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/CollectiveMessage.hpp"

#if defined(TRAINSCOPE_HAS_NVTX)
#include <nvtx3/nvToolsExt.h>
#endif

namespace trainscope::workloads {

#if defined(TRAINSCOPE_HAS_NVTX)
inline nvtxDomainHandle_t collective_domain() {
    static const nvtxDomainHandle_t domain = nvtxDomainCreateA("trainscope.comm");
    return domain;
}

inline std::uint64_t start_collective_range(std::string_view kind, std::string_view dtype,
                                            int element_bytes, std::uint64_t bytes,
                                            std::uint64_t sequence, std::string_view group = {}) {
    const std::string message = format_collective_message(kind, dtype, element_bytes, group);
    nvtxEventAttributes_t attributes{};
    attributes.version = NVTX_VERSION;
    attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    // Past 2^32 - 1 collectives the tracer numbers them itself (category 0).
    attributes.category = sequence < 0xFFFFFFFFu ? static_cast<std::uint32_t>(sequence + 1) : 0u;
    attributes.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
    attributes.payload.ullValue = bytes;
    attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
    attributes.message.ascii = message.c_str();
    return nvtxDomainRangeStartEx(collective_domain(), &attributes);
}

inline void end_collective_range(std::uint64_t id) {
    nvtxDomainRangeEnd(collective_domain(), id);
}
#else
inline std::uint64_t start_collective_range(std::string_view, std::string_view, int, std::uint64_t,
                                            std::uint64_t, std::string_view = {}) {
    return 0;
}
inline void end_collective_range(std::uint64_t) {}
#endif

// The range of a blocking collective: from the call to its return.
class ScopedCollectiveRange {
  public:
    ScopedCollectiveRange(std::string_view kind, std::string_view dtype, int element_bytes,
                          std::uint64_t bytes, std::uint64_t sequence, std::string_view group = {})
        : id_(start_collective_range(kind, dtype, element_bytes, bytes, sequence, group)) {}
    ~ScopedCollectiveRange() { end_collective_range(id_); }
    ScopedCollectiveRange(const ScopedCollectiveRange&) = delete;
    ScopedCollectiveRange& operator=(const ScopedCollectiveRange&) = delete;

  private:
    std::uint64_t id_;
};

}  // namespace trainscope::workloads
