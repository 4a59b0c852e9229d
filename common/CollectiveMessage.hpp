#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace trainscope {

// The message of a collective's NVTX range (domain "trainscope.comm"), which the
// communicator (workloads) writes and the host tracer (profiler) reads; here because
// those two must not depend on each other. "<kind>" or "<kind>/<dtype>/<element bytes>",
// e.g. "all_reduce/double/8", then "@<group>" when the collective ran on a communicator
// other than the gradients' ("all_reduce/double/8@trainscope.control"): with the range's
// payload (the bytes) the tracer knows the element count and type that bandwidth analyses
// and the trace's collectives record, and the group they are matched in.
struct CollectiveMessage {
    std::string_view kind;           // "all_reduce", "broadcast", "barrier": the trace's spelling
    std::string_view dtype;          // "float", "double", "byte"; empty: not said
    std::int64_t element_bytes = 0;  // 0: not said
    std::string_view group;          // empty: the gradients' communicator (the world)
};

// The group of the communicator's control collectives: the host-side, blocking ones that
// run between the timed steps (each step's stop vote and global loss sum, the start-up
// broadcast and barrier), on an MPI communicator of their own. Analyses of the step's
// communication leave them out (docs/distributed.md, "Control collectives").
inline constexpr std::string_view kControlCollectiveGroup = "trainscope.control";

// Empty dtype: the kind alone (a barrier moves no elements). Empty group: the world.
inline std::string format_collective_message(std::string_view kind, std::string_view dtype,
                                             int element_bytes, std::string_view group = {}) {
    std::string message(kind);
    if (!dtype.empty() && element_bytes > 0) {
        message += '/';
        message += dtype;
        message += '/';
        message += std::to_string(element_bytes);
    }
    if (!group.empty()) {
        message += '@';
        message += group;
    }
    return message;
}

// The message without its "@<group>"; the kind and element fields.
inline CollectiveMessage parse_collective_fields(std::string_view message) {
    CollectiveMessage parsed;
    const auto first = message.find('/');
    parsed.kind = message.substr(0, first);
    if (first == std::string_view::npos)
        return parsed;
    const auto second = message.find('/', first + 1);
    if (second == std::string_view::npos)
        return CollectiveMessage{message, {}, 0, {}};  // not ours: the whole text is the kind
    std::int64_t size = 0;
    const std::string_view size_text = message.substr(second + 1);
    const auto [end, ec] =
        std::from_chars(size_text.data(), size_text.data() + size_text.size(), size);
    if (ec != std::errc{} || end != size_text.data() + size_text.size() || size <= 0)
        return CollectiveMessage{message, {}, 0, {}};
    parsed.dtype = message.substr(first + 1, second - first - 1);
    parsed.element_bytes = size;
    return parsed;
}

inline CollectiveMessage parse_collective_message(std::string_view message) {
    std::string_view group;
    if (const auto at = message.rfind('@'); at != std::string_view::npos) {
        group = message.substr(at + 1);
        message = message.substr(0, at);
    }
    CollectiveMessage parsed = parse_collective_fields(message);
    parsed.group = group;
    return parsed;
}

}  // namespace trainscope
