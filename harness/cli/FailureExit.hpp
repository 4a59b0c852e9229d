#pragma once

#include <cstdio>

namespace trainscope::harness {

// The CLI's exit codes for a command that stopped on an exception (docs/architecture.md,
// "Errors"). A matrix whose cells failed also exits with kExitFault, after the others.
inline constexpr int kExitFault = 1;           // a library or the system failed
inline constexpr int kExitInputError = 2;      // input the user can fix
inline constexpr int kExitInternalError = 70;  // a bug in trainscope (sysexits' EX_SOFTWARE)

// Call only inside a catch block: prints the exception in flight as one line on `out`
// and returns its exit code.
//   InputError         "trainscope: error: <message>"                          2
//   LibraryError       "trainscope: failed: <library> call `<call>` failed at
//                       <file>:<line>: <library's message> (<library> code N)" 1
//   other std::runtime_error, std::bad_alloc: the machine (disk, memory, processes)
//                      "trainscope: failed: <message>"                         1
//   std::logic_error, anything else: a bug
//                      "trainscope: internal error (a bug): <message>; ..."   70
int report_current_exception(std::FILE* out) noexcept;

}  // namespace trainscope::harness
