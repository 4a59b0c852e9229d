#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "profiler/formats/OutputFile.hpp"

namespace trainscope::reports {

// A CSV cell: text, or a number that is written in its shortest exact form.
class CsvCell {
  public:
    CsvCell() = default;
    CsvCell(std::string text) : text_(std::move(text)) {}  // NOLINT: implicit by design
    CsvCell(const char* text) : text_(text) {}             // NOLINT
    CsvCell(double number);                                // NOLINT
    CsvCell(std::int64_t number);                          // NOLINT
    CsvCell(int number) : CsvCell(static_cast<std::int64_t>(number)) {}  // NOLINT
    template <typename T>
    CsvCell(const std::optional<T>& value) {  // NOLINT: empty cell when absent
        if (value)
            *this = CsvCell(*value);
    }

    [[nodiscard]] const std::string& text() const { return text_; }
    [[nodiscard]] bool is_number() const { return number_; }

  private:
    std::string text_;
    bool number_ = false;
};

// A table: the header row first, then one row per record.
using CsvTable = std::vector<std::vector<CsvCell>>;

// Quotes a field per RFC 4180 and defuses text that a spreadsheet would run as a
// formula (leading = + - @, tab, carriage return) by prefixing an apostrophe. Numbers
// are never altered, so "-1.5" stays a number.
std::string csv_field(const CsvCell& cell);

// Writes a CSV file atomically (profiler::AtomicOutputFile): rows go to a temporary file
// beside the target, which is renamed over it on commit(); a crash, a full disk or an
// exception leaves any previous file untouched.
class CsvFileWriter {
  public:
    explicit CsvFileWriter(std::filesystem::path path);

    void write_row(const std::vector<CsvCell>& row);
    void commit();

  private:
    profiler::AtomicOutputFile out_;
};

// One CSV line (with CRLF line ending as RFC 4180 says) for a row.
std::string csv_line(const std::vector<CsvCell>& row);

}  // namespace trainscope::reports
