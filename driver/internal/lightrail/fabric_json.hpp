// The fabric file and the fabric reports as nlohmann::json values, for the
// programs built in this tree (the CLI, the daemon, the Python binding).
// Internal: not installed; the public API (fabric.hpp) takes and gives JSON
// text, so no third-party type is part of the library's ABI.
#pragma once

#include <nlohmann/json.hpp>

#include "lightrail/fabric.hpp"

namespace lightrail {

// As parse_fabric, on a parsed document.
FabricSpec fabric_from_json(const nlohmann::json& j);
nlohmann::json to_json(const FabricSpec& spec);
nlohmann::json to_json(const FabricCommitReport& report);
nlohmann::json to_json(const FabricTriggerReport& report);
nlohmann::json to_json(const FabricSyncReport& report);

}  // namespace lightrail
