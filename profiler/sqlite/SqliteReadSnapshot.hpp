#pragma once

namespace trainscope::profiler {

class SqliteConnection;

// A read transaction: every read on the connection between construction and destruction
// sees the database as it was at the first of them, whatever other connections commit
// meanwhile (WAL mode keeps that snapshot). A command that reads a run in several passes
// (its header, its rows, their joins) then answers from one state of the file, even while
// `trainscope run --resume` replaces the run. Inside an open transaction it does nothing:
// that one already holds a snapshot.
class SqliteReadSnapshot {
  public:
    explicit SqliteReadSnapshot(const SqliteConnection& db);
    ~SqliteReadSnapshot();
    SqliteReadSnapshot(const SqliteReadSnapshot&) = delete;
    SqliteReadSnapshot& operator=(const SqliteReadSnapshot&) = delete;

  private:
    const SqliteConnection& db_;
    bool began_ = false;
};

}  // namespace trainscope::profiler
