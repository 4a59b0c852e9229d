#pragma once

// How many times operator new has run so far in this executable (all threads); the
// executable links counting_new.cpp, which replaces the global operator new.
long host_allocations();
