// The schedule format as nlohmann::json values, for the programs built in
// this tree. Internal: not installed; the public API (schedule_json.hpp)
// takes and gives JSON text, so no third-party type is part of the
// library's ABI.
#pragma once

#include <nlohmann/json.hpp>

#include "lightrail/schedule_json.hpp"

namespace lightrail {

// As parse_schedule and read_schedule_file, on a parsed document.
Schedule schedule_from_json(const nlohmann::json& doc);
ScheduleDocument read_schedule_document(const nlohmann::json& doc);
// The document parse_schedule() reads back to the same Schedule.
nlohmann::json to_json(const Schedule& schedule);

}  // namespace lightrail
