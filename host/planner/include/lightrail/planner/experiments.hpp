// The shipped experiments (experiments/*.json): Opus overhead sweep, PAS
// acceleration over EPS, FastConv time-to-accuracy, power and cost.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace lightrail::planner {

// Runs the experiment described by `spec` ("kind": "opus" | "pas" |
// "fastconv" | "power_cost"); returns {"kind", "columns", "rows", "notes"}.
// `base_dir` resolves relative file names in the spec (e.g. "parts").
// Throws std::invalid_argument naming "experiment.<field>".
nlohmann::json run_experiment(const nlohmann::json& spec, const std::string& base_dir = ".");

// The result as an aligned text table.
std::string render_table(const nlohmann::json& result);

}  // namespace lightrail::planner
