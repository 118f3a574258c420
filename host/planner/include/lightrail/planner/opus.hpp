// Opus: parallelism phases to photonic rails. Each rail's switch is
// time-multiplexed across one circuit configuration per phase (per round
// for multi-matching collectives), reconfigured at phase boundaries only
// when the configuration changes.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <vector>

#include "lightrail/planner/collectives.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/job.hpp"

namespace lightrail::planner {

// What one phase does on one rail.
struct RailPhase {
  std::vector<int> round_config;          // rail configuration of each round (empty: rail idle)
  std::vector<int64_t> round_bytes;       // bytes on the busiest port in each round
  int internal_reconfigurations = 0;      // changes between this phase's rounds
  bool boundary_reconfiguration = false;  // first config differs from the rail's previous one
};

struct RailPlan {
  int rail = 0;
  int ports = 0;                  // switch ports in use: nodes x ports per NIC
  std::vector<Matching> configs;  // distinct, each verified one-to-one
  std::vector<RailPhase> phases;  // one per job phase
  int reconfigurations_per_iteration() const;
};

// Phase work that stays inside a node (scale-up), per phase: bytes on the
// busiest GPU and dependent rounds.
struct ScaleUpPhase {
  int64_t bytes = 0;
  int rounds = 0;
};

struct OpusPlan {
  Job job;
  Fabric fabric;
  std::vector<RailPlan> rails;         // rails the job uses
  std::vector<ScaleUpPhase> scale_up;  // per phase
  std::vector<int> dependent_rounds;   // per phase, for a packet switch
  // Per phase: traffic between nodes kept on the electrical network (the
  // rails stay idle and hold their circuits); bytes on the busiest port
  // summed over the rounds. Zero bytes and rounds for phases on circuits.
  std::vector<bool> on_eps;
  std::vector<ScaleUpPhase> eps;
};

// Throws std::invalid_argument naming the job or fabric field when the job
// does not fit the fabric or a group cannot run on rails (a group with
// several ranks on one node that also spans nodes, or spanning rails), and
// naming the phase when the plan would hold more than kMaxPlanEntries
// configuration entries (checked before they are built). Phases i with
// `electrical[i]` (empty: none) keep their traffic between nodes on the
// electrical network; their rails hold the previous circuits.
OpusPlan plan_opus(const Job& job, const Fabric& fabric, const std::vector<bool>& electrical = {});

}  // namespace lightrail::planner
