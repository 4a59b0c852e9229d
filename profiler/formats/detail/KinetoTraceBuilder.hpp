#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "profiler/formats/detail/KinetoCollectives.hpp"
#include "profiler/formats/detail/KinetoJsonReader.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler::detail {

// Turns Kineto events, one at a time, into the trace model. Both eras are accepted:
// PyTorch 2.x categories (kernel, gpu_memcpy, cuda_runtime, cpu_op, user_annotation, ...)
// and PyTorch 1.9 ones (Kernel, Memcpy, Runtime, Operator, ...), compared
// case-insensitively. Times stay on the file's clock until finish() moves t=0 to the
// first event.
class KinetoTraceBuilder {
  public:
    explicit KinetoTraceBuilder(std::filesystem::path file);
    KinetoTraceBuilder(const KinetoTraceBuilder&) = delete;  // lanes_ refers to trace_
    KinetoTraceBuilder& operator=(const KinetoTraceBuilder&) = delete;

    void reserve_activities(std::size_t count) { trace_.activities.reserve(count); }
    void add_event(const KinetoRawObject& event);
    void add_device(const KinetoRawObject& device);
    void add_top_level(std::string_view key, const KinetoField& value);

    Trace finish() &&;

  private:
    enum class Category;
    static Category classify(std::string_view category);

    void add_interval(const KinetoRawObject& event, Category category);
    void add_metadata_event(const KinetoRawObject& event);
    std::int64_t required_ns(const KinetoRawObject& event, std::string_view key) const;
    std::optional<std::int64_t> optional_int(const KinetoRawObject& event,
                                             std::string_view key) const;

    std::filesystem::path file_;
    Trace trace_;
    LaneRegistry lanes_{trace_};
    std::optional<std::int64_t> capture_begin_ns_;
    std::optional<std::int64_t> capture_end_ns_;
    std::vector<RecordParamComms> comms_records_;
    std::int64_t skipped_events_ = 0;
    bool saw_fractional_time_ = false;
    bool saw_capitalised_category_ = false;
};

}  // namespace trainscope::profiler::detail
