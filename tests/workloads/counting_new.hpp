#pragma once

// How many times operator new has run so far in this executable (all threads); the
// executable links counting_new.cpp, which replaces the global operator new.
long host_allocations();
// While on, every allocation outside a library call (below) also writes its size and call
// stack to stderr (to find where a stretch of code allocates; symbols need -rdynamic).
void trace_host_allocations(bool on);
// Between enter_library() and leave_library() (nested calls allowed), every allocation of
// every thread also counts as the library's: for a library call whose own allocations the
// caller cannot avoid, while nothing else runs (oneDNN's execution on the CPU backend, whose
// workers are oneDNN's OpenMP team).
void enter_library();
void leave_library();
long library_allocations();
