#include "profiler/sqlite/SqliteBlob.hpp"

#include <limits>

#include "profiler/sqlite/SqliteError.hpp"

namespace trainscope::profiler {

void SqliteBlobWriter::Closer::operator()(sqlite3_blob* blob) const noexcept {
    TS_SQLITE_CHECK_NOEXCEPT(sqlite3_blob_close(blob));
}

SqliteBlobWriter::SqliteBlobWriter(sqlite3* db, const char* table, const char* column,
                                   std::int64_t rowid, SourcePlace where)
    : db_(db), where_(where) {
    sqlite3_blob* blob = nullptr;
    const int status = sqlite3_blob_open(db, "main", table, column, rowid, 1, &blob);
    blob_.reset(blob);  // closed even when the open failed (SQLite may hand one back)
    if (status != SQLITE_OK)
        throw_sqlite_error(where_.file, where_.line, "sqlite3_blob_open", status, db_);
}

void SqliteBlobWriter::write(std::span<const std::byte> bytes, std::int64_t offset) {
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max()) ||
        offset > std::numeric_limits<int>::max()) {
        throw_sqlite_error(where_.file, where_.line, "sqlite3_blob_write", SQLITE_TOOBIG, nullptr);
    }
    const int status = sqlite3_blob_write(blob_.get(), bytes.data(), static_cast<int>(bytes.size()),
                                          static_cast<int>(offset));
    if (status != SQLITE_OK)
        throw_sqlite_error(where_.file, where_.line, "sqlite3_blob_write", status, db_);
}

void SqliteBlobWriter::close() {
    if (const int status = sqlite3_blob_close(blob_.release()); status != SQLITE_OK)
        throw_sqlite_error(where_.file, where_.line, "sqlite3_blob_close", status, db_);
}

}  // namespace trainscope::profiler
