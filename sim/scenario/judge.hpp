// A finished run judged against what its scenario expects ("expect": swaps,
// steps, sync offsets, lock, holdover, link changes, the engines' frames):
// one line per expectation not met, naming the board and the figure.
#pragma once

#include <nlohmann/json.hpp>

#include "scenario/scenario.hpp"

namespace lightrail::sim {

// The unmet expectations of `report` (a Cosim report) as a JSON array of
// strings; empty when every expectation held.
nlohmann::json unmet_expectations(const Scenario& sc, const nlohmann::json& report);

}  // namespace lightrail::sim
