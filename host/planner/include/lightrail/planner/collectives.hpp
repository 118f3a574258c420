// Collective communication patterns as sequences of one-to-one circuit
// configurations (PAS): which circuits each round of a collective needs and
// which data blocks travel over them.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "lightrail/planner/matching.hpp"

namespace lightrail::planner {

enum class Collective { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kSendRecv };

enum class Algorithm {
  kRing,               // one shift permutation
  kBidirectionalRing,  // both directions: 2 ports, or 2 configurations
  kRecursiveDoubling,  // partner = rank XOR 2^k, MPICH fold for non-powers of two
  kHalvingDoubling,    // Rabenseifner: halving reduce-scatter, doubling all-gather
  kBinaryTree,         // reduce up a binary tree, broadcast down
  kDirect,             // all-to-all as n-1 shifts
  kBruck,              // all-to-all in ceil(log2 n) shifts by 2^k
  kPipeline,           // pipeline neighbours, stage i -> i+1
  kPipelineReverse,    // pipeline neighbours, stage i+1 -> i (backward pass)
};

// The algorithms a collective may be planned with (not the pipeline's
// neighbour patterns): what the planner's choice searches over.
inline constexpr Algorithm kCollectiveAlgorithms[] = {Algorithm::kRing,
                                                      Algorithm::kBidirectionalRing,
                                                      Algorithm::kRecursiveDoubling,
                                                      Algorithm::kHalvingDoubling,
                                                      Algorithm::kBinaryTree,
                                                      Algorithm::kDirect,
                                                      Algorithm::kBruck};

// One message of a round: `src` sends `blocks` to `dst`; a reducing
// transfer adds the sender's partial sums into the receiver's.
struct Transfer {
  int src = 0;
  int dst = 0;
  int port = 0;  // the sender's port carrying it
  std::vector<int> blocks;
  bool reduce = false;
};

struct Round {
  int config = 0;                   // index into CollectivePlan::configs
  double fraction = 0.0;            // bytes on the busiest port / the collective's bytes
  std::vector<Transfer> transfers;  // filled when planned with transfers
};

struct CollectivePlan {
  Collective kind{};
  Algorithm algorithm{};
  int ranks = 0;
  int ports_per_rank = 1;
  int64_t blocks = 0;             // the data is cut into this many blocks (all-to-all: ranks^2)
  std::vector<Matching> configs;  // over ranks * ports_per_rank ports, distinct
  std::vector<Round> rounds;

  // Configuration changes between consecutive rounds (the first
  // configuration is set before the collective starts).
  int reconfigurations() const;
  // Rounds that must wait for the previous one (a packet switch runs all
  // rounds of a direct all-to-all at once).
  int dependent_rounds() const;
};

// Port p of rank r is circuit port r * ports_per_rank + p; ranks in
// 2..kMaxGpus, ports_per_rank in 1..kMaxPortsPerNic (limits.hpp). Every
// configuration is verified one-to-one before it is returned. Transfers are
// only listed when `with_transfers` (the data-movement check needs them; the
// rest of the planner only needs the configurations and fractions); an
// all-to-all's ranks^2 blocks must then fit an int.
CollectivePlan plan_collective(Collective kind, Algorithm algorithm, int ranks, int ports_per_rank = 1,
                               bool with_transfers = true);

// At most this many configurations in a plan of `algorithm` over `ranks`
// ranks, whatever the ports (plan_collective enforces it): memory can be
// planned before the plan is built.
int64_t max_configurations(Algorithm algorithm, int ranks);

bool supports(Collective kind, Algorithm algorithm);
const char* to_string(Collective kind);
const char* to_string(Algorithm algorithm);
// Throw std::invalid_argument listing the accepted names.
Collective collective_from_string(const std::string& name);
Algorithm algorithm_from_string(const std::string& name);

}  // namespace lightrail::planner
