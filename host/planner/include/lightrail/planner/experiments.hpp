// The shipped experiments (experiments/*.json): Opus overhead sweep, PAS
// acceleration over EPS, FastConv time-to-accuracy, power and cost.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace lightrail::planner {

// Runs the experiment described by `spec` ("kind": "opus" | "pas" |
// "fastconv" | "power_cost"); returns {"kind", "columns", "rows", "notes"}.
// `base_dir` resolves relative file names in the spec (e.g. "parts", read
// with lightrail::read_json_file). Throws std::invalid_argument naming
// "experiment.<field>" (unknown fields, wrong types and values out of range
// included, every problem on its own line). FastConv rows hold null for a
// job that never reaches 90% and end with "mean" (over the jobs that do)
// and "not reached" ("N of M").
nlohmann::json run_experiment(const nlohmann::json& spec, const std::string& base_dir = ".");

// The result as an aligned text table.
std::string render_table(const nlohmann::json& result);

}  // namespace lightrail::planner
