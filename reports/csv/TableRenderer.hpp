#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "reports/csv/CsvWriter.hpp"

namespace trainscope::reports {

enum class TableFormat { Csv, Json, Markdown, Text };

// "csv", "json", "markdown", "table"; nullopt for anything else.
std::optional<TableFormat> table_format_from_string(std::string_view name);

// Renders a table (header row first) in one of the --format outputs:
// csv: exactly the bytes of the CSV file; json: an array of objects keyed by the header
// (numbers as JSON numbers, NaN/inf and empty cells as null, text as strings);
// markdown: a GitHub pipe table ('|' as \|, '<' and '&' as entities, line breaks as
// <br>); table: aligned
// plain-text columns for a terminal.
void render_table(const CsvTable& table, TableFormat format, std::ostream& out);
std::string render_table(const CsvTable& table, TableFormat format);

// Writes a table to a CSV file atomically (file.tmp, then rename).
void write_csv_table(const CsvTable& table, const std::filesystem::path& file);

}  // namespace trainscope::reports
