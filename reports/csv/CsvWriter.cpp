#include "reports/csv/CsvWriter.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>
#include <system_error>

namespace trainscope::reports {

CsvCell::CsvCell(double number) : number_(true) {
    if (std::isnan(number)) {
        text_ = "NaN";
    } else if (std::isinf(number)) {
        text_ = number > 0 ? "inf" : "-inf";
    } else {
        text_ = fmt::format("{}", number);  // shortest text that reads back to the same double
    }
}

CsvCell::CsvCell(std::int64_t number) : text_(std::to_string(number)), number_(true) {}

std::string csv_field(const CsvCell& cell) {
    std::string text = cell.text();
    if (!cell.is_number() && !text.empty()) {
        const char first = text.front();
        if (first == '=' || first == '+' || first == '-' || first == '@' || first == '\t' ||
            first == '\r') {
            text.insert(text.begin(), '\'');
        }
    }
    const bool needs_quotes = text.find_first_of(",\"\r\n") != std::string::npos ||
                              (!text.empty() && (text.front() == ' ' || text.back() == ' '));
    if (!needs_quotes)
        return text;
    std::string quoted = "\"";
    for (char c : text) {
        if (c == '"')
            quoted += '"';
        quoted += c;
    }
    quoted += '"';
    return quoted;
}

std::string csv_line(const std::vector<CsvCell>& row) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
        if (i > 0)
            line += ',';
        line += csv_field(row[i]);
    }
    line += "\r\n";
    return line;
}

CsvFileWriter::CsvFileWriter(std::filesystem::path path) : out_(std::move(path)) {}

void CsvFileWriter::write_row(const std::vector<CsvCell>& row) {
    out_.stream() << csv_line(row);
}

void CsvFileWriter::commit() {
    out_.commit();
}

}  // namespace trainscope::reports
