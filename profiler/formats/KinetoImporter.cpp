#include "profiler/formats/KinetoImporter.hpp"

#include "profiler/formats/detail/KinetoJsonReader.hpp"
#include "profiler/formats/detail/KinetoTraceBuilder.hpp"

namespace trainscope::profiler {

Trace import_kineto_trace(const std::filesystem::path& file) {
    detail::KinetoTraceBuilder builder(file);
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
