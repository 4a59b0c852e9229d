#include "gui/timeline/KernelName.hpp"

#include "profiler/analysis/ShortKernelName.hpp"

namespace trainscope::gui {

bool is_kernel(Category category) {
    return category <= Category::OtherKernel;
}

QString display_name(const QString& full_name, Category category) {
    if (!is_kernel(category))
        return full_name;
    return QString::fromStdString(profiler::shorten_kernel_name(full_name.toStdString()));
}

}  // namespace trainscope::gui
