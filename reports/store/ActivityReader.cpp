#include "reports/store/ActivityReader.hpp"

#include <string>

#include "reports/store/ActivityRow.hpp"
#include "reports/store/SqliteError.hpp"

namespace trainscope::reports {

namespace {

struct StoredRange {
    std::int64_t first = 0;
    std::size_t count = 0;
};

StoredRange stored_range(const ResultsDatabase& db, std::int64_t run_id) {
    auto info = db.prepare(
        "SELECT first_activity, last_activity, activity_count FROM trace_info WHERE run_id = ?1");
    info.bind(1, run_id);
    const std::string where = "run " + std::to_string(run_id) + " in '" + db.path().string() + "'";
    if (!info.step())
        throw StoreError(where + " has no trace");
    const std::int64_t first = info.column_int64(0);
    const std::int64_t last = info.column_int64(1);
    const std::int64_t count = info.column_int64(2);
    if (count == 0)
        return {};
    // A run is written in one transaction, so its rowids are contiguous; a file where they
    // are not cannot be read by index (load_trace reads it whole).
    if (count < 0 || last - first + 1 != count) {
        throw StoreError("the activities of " + where +
                         " are not contiguous rows; load the trace whole");
    }
    return {first, static_cast<std::size_t>(count)};
}

}  // namespace

ActivityReader::ActivityReader(const std::filesystem::path& database_path, std::int64_t run_id)
    : db_(database_path, OpenMode::ReadOnly),
      run_id_(run_id),
      range_(db_.prepare(detail::activity_range_sql(db_.schema_version()))) {
    const StoredRange stored = stored_range(db_, run_id);
    first_rowid_ = stored.first;
    count_ = stored.count;
}

profiler::Activity ActivityReader::read(std::size_t index) const {
    const std::uint32_t one[] = {static_cast<std::uint32_t>(index)};
    if (index >= count_) {
        throw StoreError("activity " + std::to_string(index) + " of run " +
                         std::to_string(run_id_) + " in '" + db_.path().string() +
                         "' is past the last (" + std::to_string(count_) + ")");
    }
    return read(one).front();
}

std::vector<profiler::Activity> ActivityReader::read(std::span<const std::uint32_t> indexes) const {
    std::vector<profiler::Activity> out;
    out.reserve(indexes.size());
    const std::lock_guard lock(mutex_);
    std::size_t i = 0;
    while (i < indexes.size()) {
        std::size_t j = i + 1;
        while (j < indexes.size() && indexes[j] == indexes[j - 1] + 1)
            ++j;
        if (indexes[j - 1] >= count_) {
            throw StoreError("activity " + std::to_string(indexes[j - 1]) + " of run " +
                             std::to_string(run_id_) + " in '" + db_.path().string() +
                             "' is past the last (" + std::to_string(count_) + ")");
        }
        range_.reset();  // a read that threw left it mid-way
        range_.bind(1, first_rowid_ + indexes[i])
            .bind(2, first_rowid_ + static_cast<std::int64_t>(indexes[j - 1]));
        while (range_.step())
            out.push_back(detail::activity_from_row(range_));
        i = j;
    }
    if (out.size() != indexes.size()) {
        throw StoreError("the activities of run " + std::to_string(run_id_) + " in '" +
                         db_.path().string() + "' changed while read; reopen the file");
    }
    return out;
}

}  // namespace trainscope::reports
