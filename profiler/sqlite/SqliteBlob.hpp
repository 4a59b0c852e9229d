#pragma once

#include <cstdint>
#include <memory>
#include <span>

#include "common/SourcePlace.hpp"

struct sqlite3;
struct sqlite3_blob;

namespace trainscope::profiler {

// One BLOB of a row opened for writing in place (sqlite3_blob_open): a blob made as a
// zeroblob of its final size and filled in pieces, so that a large value is never held
// whole. Move-only owner of the sqlite3_blob; every failure throws SqliteError naming
// the caller's place.
class SqliteBlobWriter {
  public:
    SqliteBlobWriter(sqlite3* db, const char* table, const char* column, std::int64_t rowid,
                     SourcePlace where = SourcePlace::here());
    void write(std::span<const std::byte> bytes, std::int64_t offset);
    // Closes the blob, throwing when that fails: outside a transaction the close commits
    // the writes, so its failure is the writes' failure. The destructor closes a blob not
    // closed (after a failed write) and can only log.
    void close();

  private:
    struct Closer {
        void operator()(sqlite3_blob* blob) const noexcept;
    };
    sqlite3* db_;
    SourcePlace where_;
    std::unique_ptr<sqlite3_blob, Closer> blob_;
};

}  // namespace trainscope::profiler
