// print_tabular, byte for byte as torch 2.15 + tabulate 0.10 print it. tabulate is Python, so its "simple"
// layout is transcribed here (tabulate.py: _type, _column_type, _format, _afterpoint, _align_column,
// _align_header, _format_table): a column whose every cell reads as a number is reformatted and
// right-aligned on the decimal point, cells are stripped, lines right-trimmed, and a cell holding a line
// break turns the whole table multiline. Widths count code points, as Python's len does (tabulate only
// measures display width when the optional wcwidth package is installed, and the reference has none).
#include "ir/tabular.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ir/graph.h"
#include "support/strings.h"

namespace fx {
namespace {

// ---- Python's string predicates, for the ASCII text graph cells hold ---------------------------------

bool is_py_space(char c) {  // str.strip()/int()/float() whitespace within ASCII
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= '\x1c' && c <= '\x1f');
}

std::string py_strip(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && is_py_space(s[b])) ++b;
  while (e > b && is_py_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

std::string py_rstrip(const std::string& s) {
  size_t e = s.size();
  while (e > 0 && is_py_space(s[e - 1])) --e;
  return s.substr(0, e);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// len() of a UTF-8 string: its code points.
size_t py_len(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Digits with single underscores between them (PEP 515), from s[i]; appends the digits to `out`.
bool scan_digitpart(const std::string& s, size_t& i, std::string& out) {
  if (i >= s.size() || !is_digit(s[i])) return false;
  while (i < s.size()) {
    if (is_digit(s[i])) {
      out += s[i++];
    } else if (s[i] == '_' && i + 1 < s.size() && is_digit(s[i + 1])) {
      ++i;
    } else {
      break;
    }
  }
  return true;
}

// int(s) succeeds.
bool py_int_convertible(const std::string& text) {
  std::string s = py_strip(text), digits;
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  return scan_digitpart(s, i, digits) && i == s.size();
}

// float(s) succeeds; its value goes to *value.
bool py_float_convertible(const std::string& text, double* value) {
  std::string s = py_strip(text);
  size_t i = 0;
  std::string clean;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) clean += s[i++];
  std::string rest = lower(s.substr(i));
  if (rest == "inf" || rest == "infinity" || rest == "nan") {
    double v = rest == "nan" ? NAN : INFINITY;
    *value = (!clean.empty() && clean[0] == '-') ? -v : v;
    return true;
  }
  bool int_part = scan_digitpart(s, i, clean);
  bool frac_part = false;
  if (i < s.size() && s[i] == '.') {
    clean += s[i++];
    frac_part = scan_digitpart(s, i, clean);
  }
  if (!int_part && !frac_part) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    clean += s[i++];
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) clean += s[i++];
    if (!scan_digitpart(s, i, clean)) return false;
  }
  if (i != s.size()) return false;
  *value = std::strtod(clean.c_str(), nullptr);
  return true;
}

// tabulate's _float_with_thousands_separators: ^(([+-]?[0-9]{1,3})(?:,([0-9]{3}))*)?(?(1)\.[0-9]*|\.[0-9]+)?$
bool thousands_number(const std::string& s) {
  size_t end = s.size();
  if (end > 0 && s[end - 1] == '\n') --end;  // '$' also matches before a final newline
  auto digits_at = [&](size_t i) {
    size_t j = i;
    while (j < end && is_digit(s[j])) ++j;
    return j - i;
  };
  size_t i = 0;
  bool group = false;
  size_t sign = (i < end && (s[i] == '+' || s[i] == '-')) ? 1 : 0;
  size_t lead = digits_at(sign);
  if (lead >= 1 && lead <= 3) {
    group = true;
    i = sign + lead;
    while (i < end && s[i] == ',' && digits_at(i + 1) == 3) i += 4;
  }
  if (i < end && s[i] == '.') {
    size_t frac = digits_at(i + 1);
    if (!group && frac == 0) return false;
    i += 1 + frac;
  }
  return i == end;
}

// tabulate's _isnumber for a str.
bool is_number(const std::string& s) {
  double v;
  if (!py_float_convertible(s, &v)) return false;
  if (!std::isinf(v) && !std::isnan(v)) return true;
  std::string l = lower(s);
  return l == "inf" || l == "-inf" || l == "nan";
}

// ---- tabulate's column typing and formatting ---------------------------------------------------------

enum ColType { kNone = 0, kBool = 1, kInt = 2, kFloat = 3, kStr = 5 };

ColType cell_type(const std::string& s) {
  if (s.empty()) return kNone;
  if (s == "True" || s == "False") return kBool;
  if (py_int_convertible(s) || (thousands_number(s) && s.find('.') == std::string::npos)) return kInt;
  if (is_number(s) || thousands_number(s)) return kFloat;
  return kStr;
}

// format(float(s), "g")
std::string format_g(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string format_cell(const std::string& s, ColType type) {
  if (s.empty() || type != kFloat) return s;
  std::string t = s;
  if (t.find(',') != std::string::npos) t.erase(std::remove(t.begin(), t.end(), ','), t.end());
  double v;
  return py_float_convertible(t, &v) ? format_g(v) : s;
}

// tabulate's _afterpoint: digits after the decimal point (or exponent mark), -1 for none.
long after_point(const std::string& s) {
  if (!(is_number(s) || thousands_number(s)) || py_int_convertible(s)) return -1;
  size_t pos = s.rfind('.');
  if (pos == std::string::npos) pos = lower(s).rfind('e');
  if (pos == std::string::npos) return -1;
  return static_cast<long>(py_len(s.substr(pos + 1)));
}

std::string pad_left(size_t width, const std::string& s) {
  size_t n = py_len(s);
  return n >= width ? s : std::string(width - n, ' ') + s;
}

std::string pad_right(size_t width, const std::string& s) {
  size_t n = py_len(s);
  return n >= width ? s : s + std::string(width - n, ' ');
}

// re.split("[\r\n]", s)
std::vector<std::string> split_cr_lf(const std::string& s) {
  std::vector<std::string> parts(1);
  for (char c : s) {
    if (c == '\r' || c == '\n') {
      parts.emplace_back();
    } else {
      parts.back() += c;
    }
  }
  return parts;
}

// str.splitlines() for the line breaks ASCII has (\r\n counts once; a final break adds no empty line).
std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::string cur;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '\n' || c == '\r' || c == '\v' || c == '\f' || (c >= '\x1c' && c <= '\x1e')) {
      lines.push_back(cur);
      cur.clear();
      if (c == '\r' && i + 1 < s.size() && s[i + 1] == '\n') ++i;
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) lines.push_back(cur);
  return lines;
}

size_t cell_width(const std::string& s, bool multiline) {
  if (!multiline) return py_len(s);
  size_t w = 0;
  for (const std::string& line : split_cr_lf(s)) w = std::max(w, py_len(line));
  return w;
}


// _align_column: pads every cell of a column to a common width (at least `minwidth`).
std::vector<std::string> align_column(std::vector<std::string> cells, bool decimal, size_t minwidth,
                                      bool multiline) {
  if (decimal) {
    long maxdec = -1;
    std::vector<long> decs;
    for (const std::string& s : cells) {
      decs.push_back(after_point(s));
      maxdec = std::max(maxdec, decs.back());
    }
    for (size_t i = 0; i < cells.size(); ++i) cells[i] += std::string(maxdec - decs[i], ' ');
  } else {
    for (std::string& s : cells) s = py_strip(s);
  }
  size_t maxwidth = minwidth;
  for (const std::string& s : cells) maxwidth = std::max(maxwidth, cell_width(s, multiline));
  auto pad = decimal ? pad_left : pad_right;
  for (std::string& s : cells) {
    if (multiline) {
      std::vector<std::string> lines = split_lines(s);
      for (std::string& line : lines) line = pad(maxwidth, line);
      s = join(lines, "\n");
    } else {
      s = pad(maxwidth, s);
    }
  }
  return cells;
}

// One table row; a multiline row becomes as many text lines as its tallest cell.
void append_row(std::vector<std::string>& lines, const std::vector<std::string>& cells,
                const std::vector<size_t>& widths, bool multiline) {
  if (!multiline) {
    lines.push_back(py_rstrip(join(cells, "  ")));
    return;
  }
  std::vector<std::vector<std::string>> cell_lines;
  size_t nlines = 0;
  for (const std::string& c : cells) {
    cell_lines.push_back(split_lines(c));
    nlines = std::max(nlines, cell_lines.back().size());
  }
  for (size_t i = 0; i < cell_lines.size(); ++i) cell_lines[i].resize(nlines, std::string(widths[i], ' '));
  for (size_t l = 0; l < nlines; ++l) {
    std::vector<std::string> row;
    for (const auto& cl : cell_lines) row.push_back(cl[l]);
    lines.push_back(py_rstrip(join(row, "  ")));
  }
}

// FX stores a torch.Size argument as the plain tuple map_aggregate makes of it, so torch never shows one in
// args; a Size that reached our graph (e.g. from a file) is shown the way torch would hold it.
Value as_fx_argument(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Tuple:
    case ValueKind::List:
    case ValueKind::Size: {
      ValueList items;
      for (const Value& item : v.items()) items.push_back(as_fx_argument(item));
      return v.kind() == ValueKind::List ? Value::list(std::move(items)) : Value::tuple(std::move(items));
    }
    case ValueKind::Dict: {
      Kwargs items;
      for (const auto& [key, item] : v.dict_items()) items.emplace_back(key, as_fx_argument(item));
      return Value::dict(std::move(items));
    }
    case ValueKind::Slice: {
      const ValueList& s = v.items();
      return Value::slice(as_fx_argument(s[0]), as_fx_argument(s[1]), as_fx_argument(s[2]));
    }
    default: return v;
  }
}

}  // namespace

std::string tabulate_simple(const std::vector<std::vector<std::string>>& rows,
                            const std::vector<std::string>& headers, size_t parsed_columns) {
  const size_t ncols = headers.size();
  bool multiline = false;
  auto has_break = [](const std::string& s) { return s.find_first_of("\r\n") != std::string::npos; };
  for (const std::string& h : headers) multiline = multiline || has_break(h);
  for (const auto& row : rows) {
    for (const std::string& c : row) multiline = multiline || has_break(c);
  }

  std::vector<std::vector<std::string>> cols(ncols);
  std::vector<bool> decimal(ncols, false);
  for (size_t c = 0; c < ncols && !rows.empty(); ++c) {
    ColType type = kBool;  // reduce(_more_generic, types, bool)
    if (c < parsed_columns) {
      for (const auto& row : rows) type = std::max(type, cell_type(row[c]));
    } else {
      type = kStr;
    }
    decimal[c] = type == kInt || type == kFloat;
    for (const auto& row : rows) cols[c].push_back(format_cell(row[c], type));
  }

  std::vector<size_t> widths(ncols);
  for (size_t c = 0; c < ncols; ++c) {
    size_t minwidth = cell_width(headers[c], multiline) + 2;  // MIN_PADDING
    if (!rows.empty()) cols[c] = align_column(cols[c], decimal[c], minwidth, multiline);
    widths[c] = minwidth;
    for (const std::string& s : cols[c]) widths[c] = std::max(widths[c], cell_width(s, multiline));
  }

  std::vector<std::string> header_cells, rule_cells;
  for (size_t c = 0; c < ncols; ++c) {
    header_cells.push_back(decimal[c] ? pad_left(widths[c], headers[c]) : pad_right(widths[c], headers[c]));
    rule_cells.push_back(std::string(widths[c], '-'));
  }
  std::vector<std::string> lines;
  append_row(lines, header_cells, widths, multiline);
  lines.push_back(py_rstrip(join(rule_cells, "  ")));
  for (size_t r = 0; r < rows.size(); ++r) {
    std::vector<std::string> cells;
    for (size_t c = 0; c < ncols; ++c) cells.push_back(cols[c][r]);
    append_row(lines, cells, widths, multiline);
  }
  return join(lines, "\n");
}

std::string print_tabular(const Graph& graph) {
  std::vector<std::vector<std::string>> rows;
  for (const Node* n : graph.nodes()) {
    rows.push_back({op_name(n->op()), n->name(), n->target(), as_fx_argument(Value::tuple(n->args())).repr(),
                    as_fx_argument(Value::dict(n->kwargs())).repr()});
  }
  return tabulate_simple(rows, {"opcode", "name", "target", "args", "kwargs"}, 3) + "\n";
}

}  // namespace fx
