// Times typed on the command line: --commit-at and --at (epoch | none |
// now+TIME | TIME; TIME decimal digits with an optional unit ps, ns, us, ms
// or s), read strictly before anything is opened.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <utility>

#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail::cli {

// --commit-at as typed: epoch | none | now+TIME | TIME, TIME decimal digits
// with an optional unit (ps when none); empty follows the schedule.
struct CommitSpec {
  enum Kind { kFollow, kNone, kEpoch, kAt, kAfterNow } kind = kFollow;
  int64_t ps = 0;  // kAt: the time; kAfterNow: the lead
};

// Strict: anything but the forms above, or a time beyond int64 ps, is
// refused before the file is read or the device opened.
inline CommitSpec parse_commit_at(const std::string& s, const char* option = "--commit-at") {
  const std::string shown = printable(s);
  const auto bad = [&](const std::string& why) {
    return FormatError(
        fmt::format("{} \"{}\": {} (expected epoch, none, now+TIME or TIME; TIME is decimal digits with an "
                    "optional unit ps, ns, us, ms or s; ps without one)",
                    option, shown, why));
  };
  CommitSpec spec;
  if (s.empty()) return spec;
  if (s == "none" || s == "epoch") {
    spec.kind = s == "none" ? CommitSpec::kNone : CommitSpec::kEpoch;
    return spec;
  }
  const bool relative = s.rfind("now+", 0) == 0;
  spec.kind = relative ? CommitSpec::kAfterNow : CommitSpec::kAt;
  const std::string time = relative ? s.substr(4) : s;
  const size_t digits = time.find_first_not_of("0123456789");
  if (digits == 0 || time.empty()) throw bad("no decimal time");
  const std::string unit = digits == std::string::npos ? "ps" : time.substr(digits);
  static const std::pair<const char*, int64_t> kUnits[] = {
      {"ps", 1}, {"ns", 1'000}, {"us", 1'000'000}, {"ms", 1'000'000'000}, {"s", 1'000'000'000'000}};
  int64_t scale = 0;
  for (const auto& [name, factor] : kUnits) {
    if (unit == name) scale = factor;
  }
  if (scale == 0) throw bad("\"" + printable(unit) + "\" is not a unit");
  int64_t value = 0;
  for (char c : time.substr(0, digits)) {
    if (__builtin_mul_overflow(value, int64_t{10}, &value) ||
        __builtin_add_overflow(value, c - '0', &value)) {
      throw bad("beyond the 64-bit picosecond range");
    }
  }
  if (__builtin_mul_overflow(value, scale, &spec.ps)) throw bad("beyond the 64-bit picosecond range");
  return spec;
}

}  // namespace lightrail::cli
