// Arbitrary traffic to circuits: a traffic matrix as a weighted sequence of
// one-to-one configurations.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <vector>

#include "lightrail/planner/matching.hpp"

namespace lightrail::planner {

using TrafficMatrix = std::vector<std::vector<int64_t>>;  // bytes, [src][dst], n x n

struct WeightedMatching {
  Matching matching;  // a full permutation of the n ports
  int64_t bytes = 0;  // every circuit of it carries this much
};

struct Decomposition {
  std::vector<WeightedMatching> terms;
  // Dummy bytes added so every row and column sums to the same total
  // (Birkhoff-von Neumann needs a doubly balanced matrix): the terms sum to
  // traffic + padding exactly.
  TrafficMatrix padding;
  // Left to the packet switch (greedy only): traffic = circuits + residual - padding.
  TrafficMatrix residual;
};

// Exact Birkhoff-von Neumann: pad, then peel off perfect matchings of the
// support, each weighted by its smallest entry. At most n^2 - 2n + 2 terms.
// Throws std::invalid_argument for a non-square matrix, a negative entry, or
// a row or column whose sum is beyond int64 (it could not be balanced).
Decomposition bvn_decompose(const TrafficMatrix& traffic);

// Cost model of serving a decomposition: each configuration costs the
// reconfiguration delay plus its bytes over the circuit rate; the residual
// goes over the packet switch at the same time, its busiest port limiting.
struct CircuitCost {
  int64_t reconfiguration_ps = 0;
  double circuit_bytes_per_ps = 0;  // per circuit
  double packet_bytes_per_ps = 0;   // per port of the packet switch; 0: none
};
// INT64_MAX when a residual is left with no packet switch; throws
// std::invalid_argument for a cost with a non-positive circuit rate or a
// time beyond int64.
int64_t total_time_ps(const Decomposition& d, const CircuitCost& cost);

// Solstice-style greedy: pad, then repeatedly take the perfect matching whose
// smallest entry is largest (long circuits first), and stop once handing the
// rest to the packet switch is faster than another reconfiguration. Never
// more than n^2 configurations; with no packet switch it serves everything.
Decomposition greedy_decompose(const TrafficMatrix& traffic, const CircuitCost& cost);

// sum of terms - padding + residual (should equal the traffic).
TrafficMatrix reconstruct(const Decomposition& d);

}  // namespace lightrail::planner
