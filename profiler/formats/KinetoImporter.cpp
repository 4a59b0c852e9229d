#include "profiler/formats/KinetoImporter.hpp"

#include <algorithm>
#include <new>
#include <stdexcept>
#include <system_error>

#include "profiler/formats/detail/KinetoJsonReader.hpp"
#include "profiler/formats/detail/KinetoTraceBuilder.hpp"

namespace trainscope::profiler {

namespace {

// The smallest event that becomes an activity, {"ph":"X","cat":"kernel","ts":1}, is
// about this long; a file can hold no more activities than its bytes over this.
constexpr std::uintmax_t kMinEventBytes = 48;
// Reserved address space stops here (1.4 GB of activities); beyond, the vector grows.
constexpr std::uintmax_t kMaxReservedActivities = std::uintmax_t{16} << 20;

}  // namespace

Trace import_kineto_trace(const std::filesystem::path& file) {
    detail::KinetoTraceBuilder builder(file);
    // Address space for every activity the file could hold costs no memory until used
    // (an allocation this large is mapped, and untouched pages are not resident), and it
    // spares the vector's doublings, the last of which held the old and the new array at
    // once: 0.3 GB more at the peak of a 1 GB trace.
    std::error_code ec;
    const std::uintmax_t stored = std::filesystem::file_size(file, ec);
    if (!ec) {
        try {
            builder.reserve_activities(std::min(stored / kMinEventBytes, kMaxReservedActivities));
        } catch (const std::bad_alloc&) {
            // Address space is capped (ulimit -v, strict overcommit): grow as needed instead.
        } catch (const std::length_error&) {
        }
    }
    detail::KinetoJsonCallbacks callbacks;
    callbacks.on_event = [&](const detail::KinetoRawObject& e) { builder.add_event(e); };
    callbacks.on_device = [&](const detail::KinetoRawObject& d) { builder.add_device(d); };
    callbacks.on_top_level_scalar = [&](std::string_view key, const detail::KinetoField& v) {
        builder.add_top_level(key, v);
    };
    detail::read_kineto_json(file, callbacks);
    return std::move(builder).finish();
}

}  // namespace trainscope::profiler
