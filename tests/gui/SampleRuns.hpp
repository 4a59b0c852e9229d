#pragma once

#include <QTemporaryDir>
#include <QTest>
#include <filesystem>
#include <vector>

#include "reports/store/ResultsDatabase.hpp"
#include "reports/store/RunReader.hpp"
#include "reports/store/RunRecord.hpp"
#include "tests/gui/TraceDbGenerator.hpp"

namespace trainscope::gui::testing {

// writeDatabase's matrix at `path` (16 runs: 4 precisions x 4 batches, fp32 at batch 256
// failed; small traces), read back as the GUI reads it: the runs the model tests share.
inline std::vector<reports::RunRecord> writeSampleRuns(const std::filesystem::path& path) {
    writeDatabase(path, {3000, 500, 1});
    const reports::ResultsDatabase db(path, reports::OpenMode::ReadOnly);
    return reports::load_runs(db, {}, {});
}

// For initTestCase: the sample runs in `dir`, checked (a failure here skips the rest).
inline void loadSampleRuns(const QTemporaryDir& dir, std::vector<reports::RunRecord>& runs) {
    QVERIFY(dir.isValid());
    runs = writeSampleRuns(dir.filePath(QStringLiteral("results.db")).toStdString());
    QCOMPARE(runs.size(), std::size_t(16));
}

}  // namespace trainscope::gui::testing
