#pragma once

#include <map>
#include <string>

namespace trainscope::harness {

// Facts about the machine and this build that every run records, so every number in the
// database says where it came from: host, CPU model, cores, OS, compiler, trainscope
// version and git revision, library versions.
std::map<std::string, std::string> probe_host_environment();

// Number of hardware threads (at least 1).
int hardware_threads();

}  // namespace trainscope::harness
