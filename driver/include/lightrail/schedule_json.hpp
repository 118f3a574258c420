// The schedule file format (docs/schedule.md): JSON <-> Schedule.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <string>
#include <vector>

#include "lightrail/export.hpp"
#include "lightrail/schedule.hpp"
#include "lightrail/validate.hpp"

namespace lightrail {

// Parses a schedule document. Throws FormatError listing every problem with
// its JSON path ("steps[3].duraton_ps: unknown field"), or the line and
// column of malformed JSON (parse_json_text: duplicate keys, numbers beyond
// double range and trailing content are refused too). Checks the format
// only; validate() checks the schedule against a board.
LIGHTRAIL_EXPORT Schedule parse_schedule(const std::string& text);

// Reads and parses a file; the file name prefixes every message.
LIGHTRAIL_EXPORT Schedule load_schedule_file(const std::string& path);

// What a JSON document says as a schedule, with every format problem instead
// of an exception, so a checker can report them together with validate()'s.
struct ScheduleDocument {
  Schedule schedule;              // as far as the document could be read
  std::vector<Problem> problems;  // every format problem; empty: as parse_schedule returns it
  // Every field the format defines was read as written: the only problems
  // are unknown fields, which change nothing. Then `schedule` is exactly
  // what the document means and validating it reports real problems; else
  // it has gaps filled with defaults and validate() would report those.
  bool complete = false;
};
// Throws FormatError only when the file cannot be read or is not one JSON
// document; format problems come back in the ScheduleDocument.
LIGHTRAIL_EXPORT ScheduleDocument read_schedule_file(const std::string& path);

// The document parse_schedule() reads back to the same Schedule, indented
// by `indent` spaces (-1: one line). Steps name their configuration when it
// has a unique name.
LIGHTRAIL_EXPORT std::string to_json_text(const Schedule& schedule, int indent = 2);

}  // namespace lightrail
