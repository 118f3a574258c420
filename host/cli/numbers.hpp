// Numbers typed on the command line, read strictly: decimal digits with an
// optional sign, nothing else. CLI11's own conversion (strtoll, base 0) takes
// "0100" as octal 64, "0x10" as hex and silently saturates on overflow.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "lightrail/json_text.hpp"

namespace lightrail::cli {

struct Decimal {
  bool syntax_ok = false;  // [+-]?[0-9]+
  bool in_range = false;   // fits in int64
  int64_t value = 0;
};

inline Decimal parse_decimal(const std::string& text) {
  Decimal d;
  size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) i = 1;
  if (i == text.size()) return d;
  // Accumulate negatively so that INT64_MIN fits.
  int64_t value = 0;
  d.in_range = true;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') return Decimal{};
    if (d.in_range && (__builtin_mul_overflow(value, int64_t{10}, &value) ||
                       __builtin_sub_overflow(value, int64_t{c - '0'}, &value))) {
      d.in_range = false;
    }
  }
  if (d.in_range && !negative) {
    if (value == std::numeric_limits<int64_t>::min()) {
      d.in_range = false;
    } else {
      value = -value;
    }
  }
  d.syntax_ok = true;
  d.value = d.in_range ? value : 0;
  return d;
}

// For add_option(...)->check(): a usage error (exit 2) unless the text is a
// decimal integer; the range is the command's to judge (exit 1).
inline CLI::Validator decimal_integer() {
  return CLI::Validator(
      [](std::string& text) {
        return parse_decimal(text).syntax_ok ? std::string()
                                             : "not a decimal integer: \"" + printable(text) + "\"";
      },
      "INTEGER");
}

}  // namespace lightrail::cli
