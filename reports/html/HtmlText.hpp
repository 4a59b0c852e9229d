#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainscope::reports {

// Escapes text for HTML and SVG element content and attribute values: & < > " '.
std::string html_escape(std::string_view text);

// The n-th colour of the charts' palette (colour-blind safe, repeats after 8).
std::string_view chart_colour(std::size_t index);

// A number for SVG coordinates: fixed, at most two decimals, no trailing zeros.
std::string svg_number(double value);

// A number for an axis tick or a label: 3 significant digits below 1000, whole numbers
// up to 10^4, then k/M/G suffixes; never an exponent.
std::string short_number(double value);

// Text cut to at most max_chars code points, "..." marking a cut (never inside a UTF-8
// sequence).
std::string ellipsize(std::string_view text, std::size_t max_chars);

// Axis ticks from 0 to at least max_value in steps of 1, 2 or 5 × 10^n (about `count`
// of them); {0, 1} when max_value is not positive.
std::vector<double> nice_ticks(double max_value, int count = 5);

}  // namespace trainscope::reports
