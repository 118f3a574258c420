// Reading JSON documents strictly: every JSON format lightrail reads
// (schedules, fabrics, jobs, experiments, scenarios) goes through here, so
// they all refuse the same things the same way.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace lightrail {

// Parses one JSON document. Throws FormatError(what, problems) naming the
// place of the fault, for: malformed JSON (line and column), anything but
// whitespace after the document (a NUL included), a number beyond the range
// of a double ("1e400", a 400-digit integer), nesting deeper than 256
// levels (the stack of any recursive reader), and a key that appears twice in
// one object (named by its JSON path, e.g. "steps[2].config"; last-wins
// would silently run the second value).
nlohmann::json parse_json_text(const std::string& text, const std::string& what);

// Reads a whole file and parses it as above; `what` prefixes every message
// (FormatError "cannot open" when the file cannot be read).
nlohmann::json read_json_file(const std::string& path, const std::string& what);

// A JSON path element appended: "a" + "b" -> "a.b", "" + "b" -> "b".
std::string json_path(const std::string& path, const std::string& key);
std::string json_path(const std::string& path, size_t index);  // "a[3]"

// The kind of a value for "must be X, not Y" messages: "a fractional
// number", "an integer", "string", "array", "object", "boolean", "null".
const char* json_type_name(const nlohmann::json& v);

// Why v is not an integer in [lo, hi] ("must be an integer, not 16.7",
// "4294967312 is out of range (0..65535)"), or "" when it is one.
std::string integer_problem(const nlohmann::json& v, int64_t lo, int64_t hi);

// Printable form of untrusted text for messages: control characters and
// non-UTF-8 bytes become \n, \t, \u001b or \xff escapes, so a name cannot
// split a message over lines or drive a terminal.
std::string printable(const std::string& text);

}  // namespace lightrail
