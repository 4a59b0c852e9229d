#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "profiler/formats/detail/KinetoCollectives.hpp"
#include "profiler/formats/detail/KinetoJsonReader.hpp"
#include "profiler/trace/ActivitySorter.hpp"
#include "profiler/trace/LaneRegistry.hpp"
#include "profiler/trace/StreamedTrace.hpp"
#include "profiler/trace/Trace.hpp"

namespace trainscope::profiler::detail {

// Turns Kineto events, one at a time, into the trace model. Both eras are accepted:
// PyTorch 2.x categories (kernel, gpu_memcpy, cuda_runtime, cpu_op, user_annotation, ...)
// and PyTorch 1.9 ones (Kernel, Memcpy, Runtime, Operator, ...), compared
// case-insensitively. Times stay on the file's clock; finish() says the shift that
// moves t = 0 to the first event, applied as the sorted activities pass.
class KinetoTraceBuilder {
  public:
    KinetoTraceBuilder(std::filesystem::path file, std::size_t run_capacity,
                       ActivitySorter::OneRun one_run);
    KinetoTraceBuilder(const KinetoTraceBuilder&) = delete;  // lanes_ refers to trace_
    KinetoTraceBuilder& operator=(const KinetoTraceBuilder&) = delete;

    void add_event(const KinetoRawObject& event);
    void add_device(const KinetoRawObject& device);
    void add_top_level(std::string_view key, const KinetoField& value);

    // The trace with its activities sorted on disk, passed once by stream_activities
    // (which nests them and joins the collectives).
    StreamedTrace finish() &&;

  private:
    enum class Category;
    static Category classify(std::string_view category);

    struct EventKeys;
    void add_interval(const KinetoRawObject& object, const EventKeys& event, Category category);
    void add_metadata_event(const KinetoRawObject& event);
    void keep(const Activity& a);
    std::int64_t required_ns(const EventKeys& event, const KinetoField* field,
                             std::string_view key) const;

    std::filesystem::path file_;
    Trace trace_;
    LaneRegistry lanes_{trace_};
    std::optional<std::int64_t> capture_begin_ns_;
    std::optional<std::int64_t> capture_end_ns_;
    ActivitySorter activities_;
    ActivitySorter::OneRun one_run_;
    std::int64_t min_start_ns_ = std::numeric_limits<std::int64_t>::max();
    std::int64_t max_end_ns_ = std::numeric_limits<std::int64_t>::min();
    bool has_gpu_work_ = false;
    std::unique_ptr<KinetoCollectiveJoin> collectives_ = std::make_unique<KinetoCollectiveJoin>();
    std::int64_t skipped_events_ = 0;
    bool saw_fractional_time_ = false;
    bool saw_capitalised_category_ = false;
};

}  // namespace trainscope::profiler::detail
