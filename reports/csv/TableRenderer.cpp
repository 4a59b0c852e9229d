#include "reports/csv/TableRenderer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "reports/csv/TerminalText.hpp"

namespace trainscope::reports {

namespace {

std::string json_string(const std::string& text) {
    std::string out = "\"";
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20)
                    out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
                else
                    out += ch;
        }
    }
    out += '"';
    return out;
}

std::string json_value(const CsvCell& cell) {
    if (cell.text().empty())
        return "null";
    if (cell.is_number()) {
        const std::string& t = cell.text();
        if (t == "NaN" || t == "inf" || t == "-inf")
            return "null";
        return t;
    }
    return json_string(cell.text());
}

std::string markdown_cell(const std::string& text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '|') {
            out += "\\|";
        } else if (c == '<') {
            out += "&lt;";
        } else if (c == '&') {
            out += "&amp;";
        } else if (c == '\r') {
            if (i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            out += "<br>";
        } else if (c == '\n') {
            out += "<br>";
        } else {
            out += c;
        }
    }
    return printable_text(out);
}

// Display width in terminal columns: UTF-8 code points (continuation bytes skipped).
std::size_t display_width(const std::string& text) {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    }));
}

std::string one_line(const std::string& text) {
    std::string out = text;
    std::replace(out.begin(), out.end(), '\n', ' ');
    std::replace(out.begin(), out.end(), '\r', ' ');
    std::replace(out.begin(), out.end(), '\t', ' ');
    return printable_text(out);
}

void render_json(const CsvTable& table, std::ostream& out) {
    out << "[";
    for (std::size_t r = 1; r < table.size(); ++r) {
        out << (r == 1 ? "\n  {" : ",\n  {");
        const auto& row = table[r];
        for (std::size_t c = 0; c < table[0].size(); ++c) {
            if (c > 0)
                out << ", ";
            out << json_string(table[0][c].text()) << ": "
                << (c < row.size() ? json_value(row[c]) : "null");
        }
        out << "}";
    }
    out << (table.size() > 1 ? "\n]\n" : "]\n");
}

void render_markdown(const CsvTable& table, std::ostream& out) {
    if (table.empty())
        return;
    const std::size_t columns = table[0].size();
    for (std::size_t r = 0; r < table.size(); ++r) {
        out << "|";
        for (std::size_t c = 0; c < columns; ++c)
            out << ' ' << (c < table[r].size() ? markdown_cell(table[r][c].text()) : "") << " |";
        out << "\n";
        if (r == 0) {
            out << "|";
            for (std::size_t c = 0; c < columns; ++c)
                out << "---|";
            out << "\n";
        }
    }
}

void render_text(const CsvTable& table, std::ostream& out) {
    if (table.empty())
        return;
    const std::size_t columns = table[0].size();
    std::vector<std::size_t> widths(columns, 0);
    for (const auto& row : table) {
        for (std::size_t c = 0; c < columns && c < row.size(); ++c)
            widths[c] = std::max(widths[c], display_width(one_line(row[c].text())));
    }
    for (const auto& row : table) {
        std::string line;
        for (std::size_t c = 0; c < columns; ++c) {
            const std::string text = c < row.size() ? one_line(row[c].text()) : "";
            const std::string pad(widths[c] - display_width(text), ' ');
            const bool right = c < row.size() && row[c].is_number();
            if (c > 0)
                line += "  ";
            line += right ? pad + text : text + pad;
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out << line << "\n";
    }
}

}  // namespace

std::optional<TableFormat> table_format_from_string(std::string_view name) {
    if (name == "csv")
        return TableFormat::Csv;
    if (name == "json")
        return TableFormat::Json;
    if (name == "markdown")
        return TableFormat::Markdown;
    if (name == "table")
        return TableFormat::Text;
    return std::nullopt;
}

void render_table(const CsvTable& table, TableFormat format, std::ostream& out) {
    switch (format) {
        case TableFormat::Csv:
            for (const auto& row : table)
                out << csv_line(row);
            return;
        case TableFormat::Json:
            render_json(table, out);
            return;
        case TableFormat::Markdown:
            render_markdown(table, out);
            return;
        case TableFormat::Text:
            render_text(table, out);
            return;
    }
}

std::string render_table(const CsvTable& table, TableFormat format) {
    std::ostringstream out;
    render_table(table, format, out);
    return out.str();
}

void write_csv_table(const CsvTable& table, const std::filesystem::path& file) {
    CsvFileWriter writer(file);
    for (const auto& row : table)
        writer.write_row(row);
    writer.commit();
}

}  // namespace trainscope::reports
