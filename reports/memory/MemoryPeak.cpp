#include "reports/memory/MemoryPeak.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace trainscope::reports {

namespace {

std::string bytes_text(std::int64_t bytes) {
    const double b = static_cast<double>(bytes);
    if (bytes >= 1024LL * 1024 * 1024)
        return fmt::format("{:.2f} GiB", b / (1024.0 * 1024.0 * 1024.0));
    if (bytes >= 1024LL * 1024)
        return fmt::format("{:.2f} MiB", b / (1024.0 * 1024.0));
    if (bytes >= 1024)
        return fmt::format("{:.1f} KiB", b / 1024.0);
    return fmt::format("{} B", bytes);
}

}  // namespace

std::int64_t MemoryPeak::total_bytes() const {
    std::int64_t total = 0;
    for (const ClassPeak& c : classes)
        total += c.bytes_at_peak;
    return total;
}

const ClassPeak* MemoryPeak::find(const std::string& tensor_class) const {
    for (const ClassPeak& c : classes) {
        if (c.tensor_class == tensor_class)
            return &c;
    }
    return nullptr;
}

std::vector<std::string> memory_peak_lines(const MemoryPeak& peak) {
    std::vector<std::string> lines;
    const std::int64_t total = peak.total_bytes();
    std::string head = fmt::format("memory peak {} of tensors", bytes_text(total));
    if (peak.t_ns) {
        head += fmt::format(" at {:.3f} ms", static_cast<double>(*peak.t_ns) / 1e6);
        if (!peak.op.empty() || !peak.phase.empty()) {
            head += " in ";
            head += peak.phase.empty() ? peak.op
                    : peak.op.empty()  ? peak.phase
                                       : peak.phase + " / " + peak.op;
        }
    }
    lines.push_back(head);
    std::vector<const ClassPeak*> order;
    for (const ClassPeak& c : peak.classes) {
        if (c.bytes_at_peak > 0 || c.max_bytes > 0)
            order.push_back(&c);
    }
    std::stable_sort(order.begin(), order.end(), [](const ClassPeak* a, const ClassPeak* b) {
        return a->bytes_at_peak > b->bytes_at_peak;
    });
    for (const ClassPeak* c : order) {
        const double share =
            total > 0 ? 100.0 * static_cast<double>(c->bytes_at_peak) / static_cast<double>(total)
                      : 0.0;
        lines.push_back(fmt::format("  {:<16} {:>11} {:5.1f} %   (most at any time {})",
                                    c->tensor_class, bytes_text(c->bytes_at_peak), share,
                                    bytes_text(c->max_bytes)));
    }
    return lines;
}

}  // namespace trainscope::reports
