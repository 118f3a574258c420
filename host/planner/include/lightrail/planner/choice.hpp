// The planner chooses: per phase, the collective algorithm and whether its
// traffic rides circuits or stays on the electrical network, from the flow
// model with the fabric's reconfiguration time. Circuits are used only
// where they pay for their reconfigurations.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/opus.hpp"

namespace lightrail::planner {

enum class Network {
  kCircuits,    // the rail's switch
  kElectrical,  // the electrical network (the fabric's EPS figures)
  kScaleUp,     // every group inside a node: neither
};
const char* to_string(Network n);

// One way to run a phase, modelled on its own (no boundary reconfiguration).
struct PhaseCost {
  Algorithm algorithm{};
  int64_t comm_ps = 0;       // its rounds
  int reconfigurations = 0;  // inside the collective (circuits only)
  int64_t total_ps = 0;      // comm_ps + reconfigurations x fabric.reconfiguration_ps
};

struct PhaseChoice {
  // The pattern: the phase's collective runs in `groups` groups of
  // `ranks_per_group` ranks (the largest if they differ), across nodes or not.
  int64_t groups = 0;
  int ranks_per_group = 0;
  bool across_nodes = false;
  Algorithm algorithm{};
  Network network{};
  std::optional<PhaseCost> best_circuits;    // fastest on circuits (none: scale-up)
  std::optional<PhaseCost> best_electrical;  // fastest on the electrical network
  std::string why;                           // one sentence, with the figures
};

struct ChosenPlan {
  OpusPlan plan;  // the job with the chosen algorithms; plan.on_eps the networks
  std::vector<PhaseChoice> phases;
  IterationTime chosen;             // photonic_iteration(plan, false)
  IterationTime electrical;         // every phase electrical, its best algorithm (the fallback)
  OpusPlan declared;                // the job as declared: its algorithms, every phase on circuits
  IterationTime declared_circuits;  // photonic_iteration(declared, false)
  bool in_place = false;            // circuits kept in place on the NIC's ports (in_place.hpp)
  bool fallback = false;            // nothing on circuits pays: the plan is the electrical one
  std::string ports_why;            // with several ports per NIC: striped or kept in place, and why
};

// Candidates per phase: every algorithm the planner implements for the
// collective (a send_recv keeps its direction), on circuits or electrical;
// a dynamic programme over the cyclic phase sequence picks the combination
// with the least modelled time without overlap (a boundary reconfiguration
// is paid when a circuit phase needs a configuration other than the one the
// rail holds; electrical phases leave the rail as it is). With several ports
// per NIC it is run again with circuits kept in place, and the plan the
// full flow model finds fastest is kept, never slower than `electrical`.
// Errors as plan_opus.
ChosenPlan choose_plan(const Job& job, const Fabric& fabric);

// Per phase, what was chosen and why, as `lightrail plan --json` ("choice")
// and lightraild's job status ("plan.choice") print it: phase, collective,
// groups, ranks_per_group, across_nodes, network, algorithm, best_circuits,
// best_electrical ({algorithm, comm_ps, reconfigurations, total_ps} or
// null), why.
nlohmann::json to_json(const ChosenPlan& c);

}  // namespace lightrail::planner
