// An ML training job: placement, parallelism degrees and the phases of one
// iteration (compute, then the collective of the phase).
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "lightrail/planner/collectives.hpp"

namespace lightrail::planner {

// The parallelism dimension whose groups a phase's collective runs in.
// Ranks are laid out tensor fastest, then context, pipeline, data; expert
// groups are consecutive blocks of `expert` data-parallel ranks.
enum class Dimension { kTensor, kContext, kPipeline, kData, kExpert, kWorld };

struct Phase {
  std::string name;
  int64_t compute_ps = 0;  // compute before the collective starts
  Collective collective = Collective::kAllReduce;
  Algorithm algorithm = Algorithm::kRing;
  Dimension dimension = Dimension::kData;
  int64_t bytes = 0;  // per rank: the collective's buffer (NCCL's count * size)
  // Explicit groups of ranks instead of `dimension` (disjoint; ranks absent
  // from every group sit the phase out).
  std::vector<std::vector<int>> groups;
};

struct Job {
  std::string name;
  int gpus = 0;
  int gpus_per_node = 8;
  // rail (NIC) of each local GPU index; default: GPU i uses rail i
  std::vector<int> rail_of_local_gpu;
  int tensor = 1, context = 1, pipeline = 1, data = 1, expert = 1;
  std::vector<Phase> phases;  // one iteration, in order; iterations repeat it

  int nodes() const { return gpus / gpus_per_node; }
  int node_of(int rank) const { return rank / gpus_per_node; }
  int rail_of(int rank) const;
  // Groups of the phase (each sorted by rank), checked disjoint.
  std::vector<std::vector<int>> groups_of(const Phase& phase) const;
};

// Throws std::invalid_argument naming the field, e.g. "job.parallelism:
// tensor 8 x context 1 x pipeline 8 x data 16 = 1024, but job.gpus is 2048",
// every problem on its own line; values beyond limits.hpp are problems.
void validate(const Job& job);

// Validated; errors name "job.<field>". Also refuses unknown fields,
// non-integers for integer fields and both units of one quantity
// (compute_ms and compute_ps, megabytes and bytes).
Job job_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Job& job);

// Presets (all validated):
// GPT-style dense transformer, tensor 8 in a node, pipeline 8, data = gpus/64;
// a GPipe-style iteration: forward (activation sends), backward (gradient
// sends), data-parallel gradient all-reduce. Weak scaling: the same work per
// data-parallel replica at every size. See docs/control-plane.md.
Job gpt_preset(int gpus);
// Mixture of experts: as GPT plus an expert all-to-all (expert = 8) before
// and after the expert layers.
Job moe_preset(int gpus);
// Data-parallel CNN (ResNet-50-like): one ring all-reduce of 100 MB.
Job cnn_preset(int gpus, int gpus_per_node = 8);
// "gpt", "moe", "cnn"; throws naming the accepted presets.
Job preset(const std::string& name, int gpus);

const char* to_string(Dimension d);

}  // namespace lightrail::planner
