// `lightrail-cosim run SCENARIO.json`: boards, schedules and timed host
// actions in one file (docs/cosim.md). The host side runs the real driver
// against the board server over loopback, as a host program would.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "board/board.hpp"
#include "lightrail/schedule.hpp"
#include "link/sync.hpp"

namespace lightrail::sim {

struct Action {
  uint64_t at_ps = 0;    // simulated time at which the host acts
  int board = -1;        // -1: every board
  std::string what;      // upload | corrupt_commit | drop_mid_stage | trigger | stop | cancel | board_reset |
                         // intrude | raw_overwrite
  std::string schedule;  // name in Scenario::schedules
  nlohmann::json commit;         // "epoch" | {"at_ps": t} | {"in_ps": dt} (board time now + dt)
  std::string expect_error;      // upload: the error must occur and contain this
  std::string corrupt;           // corrupt_commit: magic | version | bounds | crc
  std::string outcome;           // cancel: cancelled | already_swapped | nothing_pending
  nlohmann::json at;             // trigger: {"at_ps": t} | {"in_ps": dt}: a timed trigger, one time for all
  std::optional<uint32_t> step;  // trigger: a jump to this step (CTRL.TRIGGER_JUMP)
  uint64_t reset_cycles = 0;     // board_reset: cycles rst_ni is held low
  std::string where;             // "actions[3]" for messages
};

// The most boards a scenario or `serve` simulates.
constexpr unsigned kMaxBoards = 1024;

struct Scenario {
  std::string path;
  int boards = 1;
  uint64_t duration_ps = 0;
  std::string waveform_prefix;
  uint64_t margin_ps = 125, packet_ps = 5120;
  std::vector<std::pair<std::string, Schedule>> schedules;
  std::vector<Action> actions;
  // Figures the report must show besides the correctness checks, e.g.
  // {"swaps": 3, "rejected_banks": 4, "min_steps": 100000} (per board).
  nlohmann::json expect = nlohmann::json::object();
  // Deliberate faults, to prove the probes catch them (docs/cosim.md).
  FaultInjection fault;
  // The sequencer kernel's pipeline latency, cycles (-1: SEQ_KERNEL_LATENCY).
  int kernel_latency = -1;
  SyncOptions sync;  // clock distribution (off unless the scenario has "sync")
  // How long the scenario's host waits for one board answer or a commit, in
  // wall time. The co-simulated board runs about 1000x slower than real
  // time, so the driver's 5 s default (meant for hardware) is 5 us of board
  // time here; a loaded machine needs more. "host": {"timeout_ms": N}.
  int host_timeout_ms = 120000;

  const Schedule& schedule(const std::string& name) const;
};

// Throws std::runtime_error naming the offending field ("actions[2].commit").
Scenario load_scenario(const std::string& path);

// A schedule made from a recipe, for long programs no one writes by hand:
// {"steps": N, "step_ps": d, "configs": C, "guard_ps": g, "cyclic": b,
//  "seed": s, "generation": n}; configurations draw each port's wavelength
// at random (seeded), about one port in eight dark.
Schedule generate_schedule(const nlohmann::json& recipe, const std::string& where);

// Runs the scenario to its end; returns the report (ok == every check held),
// or, on a partitioned run's ranks other than 0, null.
nlohmann::json run_scenario(const Scenario& scenario);

}  // namespace lightrail::sim
