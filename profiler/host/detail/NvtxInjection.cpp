// In-process NVTX injection: NVTX 3 calls the function that the strong symbol
// InitializeInjectionNvtx2_fnptr points to (nvtxInit.h, "static injection") the first
// time any NVTX function runs, when no NVTX_INJECTION64_PATH library was loaded first.
// The init function replaces NVTX's no-op push/pop, start/end and domain entries with ours.
#include <cstdint>

// We define InitializeInjectionNvtx2_fnptr (strongly, below); NVTX must then skip its
// weak definition and only see a declaration, spelled with NvtxInitializeInjectionNvtxFunc_t's
// underlying type because nvtxTypes.h is not included yet.
#define NVTX_STATIC_INJECTION_IMPL
extern "C" int (*InitializeInjectionNvtx2_fnptr)(const void* (*)(std::uint32_t));

#include <nvtx3/nvToolsExt.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "profiler/capture/HostClock.hpp"
#include "profiler/host/detail/NvtxRangeSink.hpp"

namespace trainscope::profiler::detail {

namespace {

struct Domain {
    std::string name;
};

struct OpenRange {
    const Domain* domain = nullptr;
    std::string message;
    std::uint32_t category = 0;
    std::int64_t start_ns = 0;
    std::int64_t payload = -1;
};

std::atomic<bool> g_recording{false};
std::atomic<bool> g_attached{false};
std::mutex g_mutex;  // guards the three containers below
std::vector<CompletedNvtxRange> g_completed;
std::deque<Domain> g_domains;          // deque: handles (addresses) stay valid
std::deque<std::string> g_registered;  // registered strings, same reason

// Start/end ranges may end on another thread than the one that started them (an MPI
// request completed by whichever thread tests it), so they live here, not per thread.
struct StartedRange {
    const Domain* domain = nullptr;
    std::string message;
    std::uint32_t category = 0;
    std::int64_t payload = -1;
    std::int64_t thread = 0;
    std::int64_t start_ns = 0;
};
std::unordered_map<nvtxRangeId_t, StartedRange> g_started;  // guarded by g_mutex
nvtxRangeId_t g_next_range_id = 1;                          // guarded by g_mutex; 0 = error

// Push/pop nest per thread and per domain; one stack per thread holds all domains.
thread_local std::vector<OpenRange> t_open;

std::int64_t current_thread_id() {
    return static_cast<std::int64_t>(syscall(SYS_gettid));
}

std::string message_of(const nvtxEventAttributes_t* attributes) {
    if (attributes == nullptr)
        return {};
    switch (attributes->messageType) {
        case NVTX_MESSAGE_TYPE_ASCII:
            return attributes->message.ascii != nullptr ? attributes->message.ascii : "";
        case NVTX_MESSAGE_TYPE_REGISTERED:
            // Our own handles: pointers into g_registered.
            return attributes->message.registered != nullptr
                       ? *reinterpret_cast<const std::string*>(attributes->message.registered)
                       : "";
        default:
            return "(non-ASCII NVTX message)";
    }
}

std::int64_t payload_of(const nvtxEventAttributes_t* attributes) {
    if (attributes == nullptr)
        return -1;
    switch (attributes->payloadType) {
        case NVTX_PAYLOAD_TYPE_UNSIGNED_INT64:
            return static_cast<std::int64_t>(attributes->payload.ullValue);
        case NVTX_PAYLOAD_TYPE_INT64:
            return attributes->payload.llValue;
        default:
            return -1;
    }
}

int push(const Domain* domain, std::string message, std::uint32_t category,
         std::int64_t payload = -1) noexcept {
    try {
        const int level = static_cast<int>(t_open.size());
        t_open.push_back(
            OpenRange{domain, std::move(message), category, host_clock_now_ns(), payload});
        return level;
    } catch (...) {
        return -1;  // NVTX's error value; an annotation never fails the program
    }
}

int pop(const Domain* domain) noexcept {
    const std::int64_t end_ns = host_clock_now_ns();
    // The innermost open range of this domain on this thread.
    for (auto it = t_open.rbegin(); it != t_open.rend(); ++it) {
        if (it->domain != domain)
            continue;
        const auto index = static_cast<std::size_t>(std::distance(it, t_open.rend()) - 1);
        std::uint16_t depth = 0;
        for (std::size_t i = 0; i < index; ++i) {
            if (t_open[i].domain == domain)
                ++depth;
        }
        if (g_recording.load(std::memory_order_relaxed)) {
            try {
                CompletedNvtxRange done{domain != nullptr ? domain->name : std::string(),
                                        std::move(t_open[index].message),
                                        t_open[index].category,
                                        t_open[index].payload,
                                        static_cast<std::int64_t>(getpid()),
                                        current_thread_id(),
                                        t_open[index].start_ns,
                                        end_ns};
                const std::lock_guard lock(g_mutex);
                g_completed.push_back(std::move(done));
            } catch (...) {
                // Out of memory: this range is lost, the program goes on.
            }
        }
        t_open.erase(t_open.begin() + static_cast<std::ptrdiff_t>(index));
        return static_cast<int>(depth);
    }
    return -1;  // pop without push
}

int NVTX_API range_push_a(const char* message) {
    return push(nullptr, message != nullptr ? message : "", 0);
}
int NVTX_API range_push_ex(const nvtxEventAttributes_t* attributes) {
    return push(nullptr, message_of(attributes), attributes != nullptr ? attributes->category : 0,
                payload_of(attributes));
}
int NVTX_API range_pop() {
    return pop(nullptr);
}

nvtxDomainHandle_t NVTX_API domain_create_a(const char* name) {
    try {
        const std::lock_guard lock(g_mutex);
        g_domains.push_back(Domain{name != nullptr ? name : ""});
        return reinterpret_cast<nvtxDomainHandle_t>(&g_domains.back());
    } catch (...) {
        return nullptr;
    }
}
void NVTX_API domain_destroy(nvtxDomainHandle_t) {}  // handles stay valid: ranges may refer to them
nvtxStringHandle_t NVTX_API domain_register_string_a(nvtxDomainHandle_t, const char* text) {
    try {
        const std::lock_guard lock(g_mutex);
        g_registered.emplace_back(text != nullptr ? text : "");
        return reinterpret_cast<nvtxStringHandle_t>(&g_registered.back());
    } catch (...) {
        return nullptr;
    }
}
int NVTX_API domain_range_push_ex(nvtxDomainHandle_t domain,
                                  const nvtxEventAttributes_t* attributes) {
    return push(reinterpret_cast<const Domain*>(domain), message_of(attributes),
                attributes != nullptr ? attributes->category : 0, payload_of(attributes));
}
int NVTX_API domain_range_pop(nvtxDomainHandle_t domain) {
    return pop(reinterpret_cast<const Domain*>(domain));
}

nvtxRangeId_t NVTX_API domain_range_start_ex(nvtxDomainHandle_t domain,
                                             const nvtxEventAttributes_t* attributes) {
    try {
        StartedRange started{reinterpret_cast<const Domain*>(domain),
                             message_of(attributes),
                             attributes != nullptr ? attributes->category : 0,
                             payload_of(attributes),
                             current_thread_id(),
                             host_clock_now_ns()};
        const std::lock_guard lock(g_mutex);
        const nvtxRangeId_t id = g_next_range_id++;
        g_started.emplace(id, std::move(started));
        return id;
    } catch (...) {
        return 0;  // an annotation never fails the program
    }
}
nvtxRangeId_t NVTX_API range_start_ex(const nvtxEventAttributes_t* attributes) {
    return domain_range_start_ex(nullptr, attributes);
}
void NVTX_API domain_range_end(nvtxDomainHandle_t, nvtxRangeId_t id) {
    const std::int64_t end_ns = host_clock_now_ns();
    try {
        const std::lock_guard lock(g_mutex);
        const auto it = g_started.find(id);
        if (it == g_started.end())
            return;  // end without start
        StartedRange& r = it->second;
        if (g_recording.load(std::memory_order_relaxed)) {
            g_completed.push_back(CompletedNvtxRange{
                r.domain != nullptr ? r.domain->name : std::string(), std::move(r.message),
                r.category, r.payload, static_cast<std::int64_t>(getpid()), r.thread, r.start_ns,
                end_ns});
        }
        g_started.erase(it);
    } catch (...) {
        // Out of memory: this range is lost, the program goes on.
    }
}
void NVTX_API range_end(nvtxRangeId_t id) {
    domain_range_end(nullptr, id);
}

// Writes our function into the slot `id` of a module table if the table has it.
void install(NvtxFunctionTable table, unsigned int size, unsigned int id,
             NvtxFunctionPointer function) {
    if (table != nullptr && id <= size && table[id] != nullptr)
        *table[id] = function;
}

template <typename Function>
NvtxFunctionPointer as_nvtx_function(Function function) {
    // NVTX stores every entry as a generic function pointer and casts it back to the
    // entry's own type before calling (nvtxImplCore.h).
    return reinterpret_cast<NvtxFunctionPointer>(function);
}

int NVTX_API initialize_injection(NvtxGetExportTableFunc_t get_export_table) {
    const auto* callbacks =
        static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
    if (callbacks == nullptr || callbacks->GetModuleFunctionTable == nullptr)
        return 0;
    NvtxFunctionTable core = nullptr;
    unsigned int core_size = 0;
    NvtxFunctionTable core2 = nullptr;
    unsigned int core2_size = 0;
    if (callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size) == 0 ||
        callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size) == 0) {
        return 0;
    }
    install(core, core_size, NVTX_CBID_CORE_RangePushA, as_nvtx_function(&range_push_a));
    install(core, core_size, NVTX_CBID_CORE_RangePushEx, as_nvtx_function(&range_push_ex));
    install(core, core_size, NVTX_CBID_CORE_RangePop, as_nvtx_function(&range_pop));
    install(core, core_size, NVTX_CBID_CORE_RangeStartEx, as_nvtx_function(&range_start_ex));
    install(core, core_size, NVTX_CBID_CORE_RangeEnd, as_nvtx_function(&range_end));
    install(core2, core2_size, NVTX_CBID_CORE2_DomainCreateA, as_nvtx_function(&domain_create_a));
    install(core2, core2_size, NVTX_CBID_CORE2_DomainDestroy, as_nvtx_function(&domain_destroy));
    install(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringA,
            as_nvtx_function(&domain_register_string_a));
    install(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx,
            as_nvtx_function(&domain_range_push_ex));
    install(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, as_nvtx_function(&domain_range_pop));
    install(core2, core2_size, NVTX_CBID_CORE2_DomainRangeStartEx,
            as_nvtx_function(&domain_range_start_ex));
    install(core2, core2_size, NVTX_CBID_CORE2_DomainRangeEnd, as_nvtx_function(&domain_range_end));
    g_attached.store(true);
    return 1;
}

}  // namespace

void begin_recording_nvtx_ranges() {
    {
        const std::lock_guard lock(g_mutex);
        g_completed.clear();
    }
    g_recording.store(true);
}

std::vector<CompletedNvtxRange> end_recording_nvtx_ranges() {
    g_recording.store(false);
    const std::lock_guard lock(g_mutex);
    std::vector<CompletedNvtxRange> done;
    done.swap(g_completed);
    return done;
}

bool nvtx_injection_attached() {
    return g_attached.load();
}

}  // namespace trainscope::profiler::detail

// The strong definition NVTX's loader looks for (it declares a weak one, null by
// default). It must be extern "C" and global.
extern "C" {
NvtxInitializeInjectionNvtxFunc_t InitializeInjectionNvtx2_fnptr =
    &trainscope::profiler::detail::initialize_injection;
}

// NVTX keeps a hidden instance in each shared object, and the weak pointer above is hidden
// with it: the CUDA module's instance (its CUDA backend's op ranges) cannot see this
// definition. The module defines its own pointer to a forwarder that finds this function
// in the program with dlsym (NvtxModuleInjection.cpp; the program is linked with
// ENABLE_EXPORTS), so every instance reports to the one host tracer.
extern "C" int NVTX_API trainscope_nvtx_initialize_injection(NvtxGetExportTableFunc_t table) {
    return trainscope::profiler::detail::initialize_injection(table);
}
