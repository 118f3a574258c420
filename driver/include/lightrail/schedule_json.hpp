// The schedule file format (docs/schedule.md): JSON <-> Schedule.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "lightrail/schedule.hpp"

namespace lightrail {

// Parses a schedule document. Throws FormatError listing every problem with
// its JSON path ("steps[3].duraton_ps: unknown field"), or the line and
// column of malformed JSON. Checks the format only; validate() checks the
// schedule against a board.
Schedule parse_schedule(const std::string& text);
Schedule schedule_from_json(const nlohmann::json& doc);

// Reads and parses a file; the file name prefixes every message.
Schedule load_schedule_file(const std::string& path);

// The document parse_schedule() reads back to the same Schedule. Steps name
// their configuration when it has a unique name.
nlohmann::json to_json(const Schedule& schedule);

}  // namespace lightrail
