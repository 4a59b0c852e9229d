#pragma once

#include <cstdint>

#include "reports/store/ResultsDatabase.hpp"

namespace trainscope::reports {

// The journal of a large first write into a results database this connection has just
// created (ResultsDatabase::created). In WAL mode every page is written twice: into the
// log, then by the checkpoint into the file. A rollback journal keeps only what the write
// changes of the file as it was (of a new file, the schema's few pages), so each page is
// written once. The write stays atomic, and durable with synchronous = EXTRA while
// switched (the journal is synced before the file is written, the file before the
// journal goes, the folder after it goes). A 1 GB Kineto import spent about 0.3 s of
// wall time in WAL's second copy and its syncs (docs/performance.md). While switched and
// once the write has spilled pages into the file, a reader that opens the new file waits
// for the commit (up to the busy timeout, then "database is locked"), where under WAL it
// would see the empty schema. The file returns
// to WAL mode once the write is committed, as every other writer expects; a write that
// is killed before done() leaves it in rollback mode, which SQLite reads, recovers and
// writes as well, and the next writable open (ResultsDatabase) switches it back to WAL.
// The import removes a file it created when the write fails. A file that existed is left
// as it is: other connections may have it open, and its pages are not new.
class NewFileJournal {
  public:
    explicit NewFileJournal(const ResultsDatabase& db);
    NewFileJournal(const NewFileJournal&) = delete;
    NewFileJournal& operator=(const NewFileJournal&) = delete;

    // After the commit: back to WAL mode. A failure (another connection opened the new
    // file meanwhile) is logged, not thrown: what was committed stays, in a file that
    // SQLite reads and writes in either mode.
    void done() noexcept;

  private:
    const ResultsDatabase& db_;
    bool switched_ = false;
    std::int64_t synchronous_ = 2;  // the connection's own, restored by done() (FULL)
};

}  // namespace trainscope::reports
