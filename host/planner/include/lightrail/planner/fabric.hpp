// The network a job runs on: photonic rails (one OCS or AWGR per rail) with
// an electrical packet-switched (EPS) fallback.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "lightrail/planner/job.hpp"

namespace lightrail::planner {

enum class SwitchMode {
  kOcs,   // optical circuit switch: a port's "wavelength" is the output port
  kAwgr,  // tunable lasers + AWGR: port s on wavelength w reaches (s + w) mod radix
};

struct Fabric {
  std::string name = "fabric";
  SwitchMode mode = SwitchMode::kOcs;
  int rails = 8;
  int ocs_radix = 256;                          // ports of a rail's switch
  int ports_per_nic = 1;                        // switch ports each NIC has on its rail
  double link_gbps = 400;                       // per port
  int64_t reconfiguration_ps = 10'000'000'000;  // switch settling time (10 ms)
  int64_t circuit_latency_ps = 1'000'000;       // NIC + fibre, per round (1 us)
  double scale_up_gbps = 3600;                  // in-node (NVLink) per GPU
  // Electrical packet switching: the ideal rail switch of the comparison and
  // the shared fallback. Unset: link_gbps, the same bandwidth as the rails.
  std::optional<double> eps_gbps;      // per host port
  double eps_oversubscription = 1;     // core bandwidth = hosts * eps_gbps / this
  int64_t eps_latency_ps = 2'000'000;  // per round, unloaded (2 us)
  // Bytes a competing flow keeps queued at a shared switch port (queueing
  // delay each round = competitors * this / eps rate).
  int64_t eps_queue_bytes = 1'000'000;
  // The electrical network's structure (clos.hpp). 0: one ideal switch of
  // any radix (a flat network); else a leaf-spine Clos of switches of this
  // many ports, leaves split down:up by eps_oversubscription, ECMP over the
  // uplinks, eps_hop_latency_ps per switch a packet crosses.
  int eps_switch_radix = 0;
  int64_t eps_hop_latency_ps = 500'000;
  // How a leaf spreads its flows over its uplinks: adaptive routing (packet
  // spraying: the load spreads evenly) or per-flow ECMP hashing (collisions).
  bool eps_ecmp = false;

  double link_bytes_per_ps() const { return link_gbps / 8e3; }
  double eps_bytes_per_ps() const { return eps_gbps.value_or(link_gbps) / 8e3; }
};

// Throws std::invalid_argument naming "fabric.<field>" and its range (see
// limits.hpp), every problem on its own line.
void validate(const Fabric& fabric);
// Also refuses unknown fields, non-integers for integer fields, and both
// units of one quantity (reconfiguration_us and reconfiguration_ps).
Fabric fabric_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Fabric& fabric);

// Throws std::invalid_argument naming the fabric field that is too small for
// the job (rails fewer than the rails the job uses, switch radix below the
// ports a rail needs).
void check_fits(const Fabric& fabric, const Job& job);

}  // namespace lightrail::planner
