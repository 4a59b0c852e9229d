#pragma once

#include "common/InputError.hpp"
#include "profiler/sqlite/SqliteError.hpp"

namespace trainscope::reports {

// The store's two errors. A failed SQLite call is the profiler's SqliteError, thrown by
// TS_SQLITE_CHECK and the SQLite layer (profiler/sqlite/) the store is built on.
using SqliteError = profiler::SqliteError;

// Bad input to the store that the user can fix (a foreign file, a newer schema, an
// unwritable path): the message names the file and the fix.
class StoreError : public InputError {
  public:
    using InputError::InputError;
};

}  // namespace trainscope::reports
