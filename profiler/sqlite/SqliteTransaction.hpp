#pragma once

namespace trainscope::profiler {

class SqliteConnection;

// BEGIN IMMEDIATE on construction, ROLLBACK on destruction unless commit() was called:
// what it covers is written whole or not at all. Inside an open transaction it is a
// savepoint of it, so a caller can read and write under one write lock (collecting a
// cluster's results) through functions that open their own.
class SqliteTransaction {
  public:
    explicit SqliteTransaction(const SqliteConnection& db);
    ~SqliteTransaction();
    SqliteTransaction(const SqliteTransaction&) = delete;
    SqliteTransaction& operator=(const SqliteTransaction&) = delete;
    void commit();

  private:
    const SqliteConnection& db_;
    bool nested_ = false;
    bool done_ = false;
};

}  // namespace trainscope::profiler
