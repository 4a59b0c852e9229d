#pragma once

#include <cstdint>
#include <vector>

#include "profiler/trace/StringTable.hpp"

namespace trainscope::profiler {

// Which names are communication kernels' (classify_kernel), asked once per name while a
// trace's activities pass: the collective joins of every format and the per-rank analyses
// ask it of millions of kernels with a few hundred names. A name the table does not hold
// is not one.
class CommunicationNames {
  public:
    bool is_communication(StringId name, const StringTable& strings);

  private:
    std::vector<std::int8_t> verdicts_;  // by name: -1 not asked yet, 0 no, 1 yes
};

}  // namespace trainscope::profiler
