#pragma once

namespace trainscope::profiler {

class SqliteConnection;

// BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit() was called:
// what it covers is written whole or not at all.
class SqliteTransaction {
  public:
    explicit SqliteTransaction(const SqliteConnection& db);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;
    void commit();

  private:
    const SqliteConnection& db_;
    bool done_ = false;
};

}  // namespace trainscope::profiler
