#include "profiler/formats/detail/CommunicationKernels.hpp"

namespace trainscope::profiler::detail {

void CommunicationKernels::note_kernel(const Activity& kernel, const StringTable& strings) {
    if (kernel.correlation != 0 && is_communication(kernel.name, strings))
        launched_by_.insert(kernel.correlation);
}

}  // namespace trainscope::profiler::detail
