// A job planned onto boards of the fabric: the control plane's plan
// (plan_opus + to_schedules, on ports 0..N-1 of each rail) moved onto the
// switch ports of the free boards it is given. Pure: reads no board.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "lightrail/fabric.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/job.hpp"

namespace lightrail::daemon {

// The job cannot be placed now: field names the job or fabric field at
// fault (as the planner names it), or "" when the reason is the free ports.
struct PlacementError : std::invalid_argument {
  PlacementError(std::string field, const std::string& message, bool fits_later)
      : std::invalid_argument(message), field(std::move(field)), fits_later(fits_later) {}
  std::string field;
  bool fits_later;  // true: only the free boards are too few (it fits the fabric)
};

struct PlacedBoard {
  size_t board = 0;  // index into FabricSpec::boards
  Schedule schedule;
  // phase_step[p]: the event-triggered step that opens job phase p on this
  // board, nullopt when the board's rail is idle in that phase.
  std::vector<std::optional<uint32_t>> phase_step;
};

struct Placement {
  std::vector<PlacedBoard> boards;
  nlohmann::json summary;  // rails, ports, configurations, reconfigurations, predicted times
  std::vector<BoardAssignment> assignments() const;
};

// The planner's fabric for this fabric: mode, rails and radix of the fabric
// file, everything else from the model. Throws PlacementError when the
// fabric's rails differ in kind or radix (the planner has one of each).
planner::Fabric planner_fabric(const FabricSpec& spec, const planner::Fabric& model);

// Plans `job` and places each rail's board schedules on free boards of that
// rail (lowest index first; a board is usable only when every port is
// cabled). Values are remapped to the boards' switch ports: OCS output
// ports, AWGR wavelengths (dst - src) mod radix. Every schedule gets
// `generation`. Throws PlacementError.
Placement place_job(const planner::Job& job, const FabricSpec& spec, const DeviceCapabilities& caps,
                    const planner::Fabric& model, const std::vector<bool>& board_free, uint32_t generation);

}  // namespace lightrail::daemon
