// Every JSON document lightrail's programs print, serve or write names its
// format and the version that made it (docs/json.md): "schema" is
// "lightrail.<format>/<major>" (the JSON Schema in
// docs/schemas/lightrail.<format>.schema.json has that $id), "version" is
// lightrail::version(). A major changes only when a field is removed or
// changes meaning; new fields keep it.
#pragma once

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "lightrail/version.hpp"

namespace lightrail {

inline void stamp_schema(nlohmann::json& doc, std::string_view schema) {
  doc["schema"] = std::string(schema);
  doc["version"] = std::string(version().version);
}

// The one style of every --json output: indented by two, ASCII only
// (control and non-ASCII characters escaped: safe on a terminal), bytes
// that are not UTF-8 replaced (a printout never throws).
inline std::string json_text(const nlohmann::json& doc) {
  return doc.dump(2, ' ', true, nlohmann::json::error_handler_t::replace);
}

// A --json output: stamped, on stdout, one document.
inline void print_json(nlohmann::json doc, std::string_view schema) {
  stamp_schema(doc, schema);
  std::cout << json_text(doc) << "\n";
}

}  // namespace lightrail
