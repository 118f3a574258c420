#include "lightrail/planner/job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "json_input.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {
namespace {

const std::pair<Dimension, const char*> kDimensionNames[] = {
    {Dimension::kTensor, "tensor"}, {Dimension::kContext, "context"}, {Dimension::kPipeline, "pipeline"},
    {Dimension::kData, "data"},     {Dimension::kExpert, "expert"},   {Dimension::kWorld, "world"}};

std::optional<Dimension> dimension_from_string(const std::string& s) {
  for (const auto& [d, name] : kDimensionNames)
    if (s == name) return d;
  return std::nullopt;
}

std::string dimension_list() {
  std::string list;
  for (const auto& [d, name] : kDimensionNames) list += (list.empty() ? "" : ", ") + std::string(name);
  return list;
}

// Ranks in each group of `d` (kWorld: every rank).
int64_t degree_of(const Job& job, Dimension d) {
  switch (d) {
    case Dimension::kTensor:
      return job.tensor;
    case Dimension::kContext:
      return job.context;
    case Dimension::kPipeline:
      return job.pipeline;
    case Dimension::kData:
      return job.data;
    case Dimension::kExpert:
      return job.expert;
    case Dimension::kWorld:
      return job.gpus;
  }
  return 0;
}

}  // namespace

const char* to_string(Dimension d) {
  for (const auto& [e, s] : kDimensionNames)
    if (e == d) return s;
  return "?";
}

int Job::rail_of(int rank) const {
  const int local = rank % gpus_per_node;
  return rail_of_local_gpu.empty() ? local : rail_of_local_gpu[local];
}

std::vector<std::vector<int>> Job::groups_of(const Phase& phase) const {
  if (!phase.groups.empty()) return phase.groups;
  std::vector<std::vector<int>> groups;
  if (phase.dimension == Dimension::kWorld) {
    groups.emplace_back();
    for (int r = 0; r < gpus; ++r) groups[0].push_back(r);
    return groups;
  }
  // Coordinates: tensor fastest, then context, pipeline, data.
  const int dims[4] = {tensor, context, pipeline, data};
  int axis = 0, size = 0, stride = 1;
  switch (phase.dimension) {
    case Dimension::kTensor:
      axis = 0;
      break;
    case Dimension::kContext:
      axis = 1;
      break;
    case Dimension::kPipeline:
      axis = 2;
      break;
    case Dimension::kData:
    case Dimension::kExpert:
      axis = 3;
      break;
    case Dimension::kWorld:
      break;
  }
  for (int a = 0; a < axis; ++a) stride *= dims[a];
  size = phase.dimension == Dimension::kExpert ? expert : dims[axis];
  for (int r = 0; r < gpus; ++r) {
    const int coord = (r / stride) % dims[axis];
    if (coord % size != 0) continue;  // r leads its group
    std::vector<int> g;
    for (int k = 0; k < size; ++k) g.push_back(r + k * stride);
    groups.push_back(std::move(g));
  }
  return groups;
}

void validate(const Job& job) {
  std::vector<Problem> problems;
  auto fail = [&](const std::string& where, const std::string& message) {
    problems.push_back({where, message});
  };
  const bool gpus_ok = job.gpus >= 1 && job.gpus <= kMaxGpus;
  if (!gpus_ok) {
    fail("job.gpus", job.gpus < 1 ? fmt::format("must be positive, is {}", job.gpus)
                                  : fmt::format("{} is beyond the planner's limit of {} GPUs (its time and "
                                                "memory grow with the GPUs)",
                                                job.gpus, kMaxGpus));
  }
  if (job.gpus_per_node <= 0) {
    fail("job.gpus_per_node", fmt::format("must be positive, is {}", job.gpus_per_node));
  } else if (gpus_ok && job.gpus % job.gpus_per_node != 0) {
    fail("job.gpus_per_node",
         fmt::format("{} GPUs do not fill whole nodes of {} GPUs", job.gpus, job.gpus_per_node));
  }
  if (!job.rail_of_local_gpu.empty()) {
    if (int64_t(job.rail_of_local_gpu.size()) != job.gpus_per_node) {
      fail("job.rail_of_local_gpu", fmt::format("has {} entries, one per GPU of a node ({}) expected",
                                                job.rail_of_local_gpu.size(), job.gpus_per_node));
    }
    for (size_t i = 0; i < job.rail_of_local_gpu.size(); ++i) {
      if (job.rail_of_local_gpu[i] < 0) {
        fail(fmt::format("job.rail_of_local_gpu[{}]", i),
             fmt::format("negative rail {}", job.rail_of_local_gpu[i]));
      }
    }
  }
  const std::pair<const char*, int> degrees[] = {{"tensor", job.tensor},
                                                 {"context", job.context},
                                                 {"pipeline", job.pipeline},
                                                 {"data", job.data},
                                                 {"expert", job.expert}};
  bool degrees_ok = true;
  for (const auto& [name, d] : degrees) {
    if (d <= 0 || d > kMaxGpus) {
      degrees_ok = false;
      fail(fmt::format("job.parallelism.{}", name), fmt::format("{} is out of range (1..{})", d, kMaxGpus));
    }
  }
  if (degrees_ok) {
    // Each degree is at most 2^20: the product of four fits in a double's
    // exact range only up to 2^53, but anything beyond kMaxGpus mismatches.
    const double product = double(job.tensor) * job.context * job.pipeline * job.data;
    if (product != double(job.gpus)) {
      const std::string shown =
          product <= 9e15 ? fmt::format("{:.0f}", product) : fmt::format("{:.4g}", product);
      fail("job.parallelism",
           fmt::format("tensor {} x context {} x pipeline {} x data {} = {}, but job.gpus is {}", job.tensor,
                       job.context, job.pipeline, job.data, shown, job.gpus));
    }
    if (job.data % job.expert != 0) {
      fail("job.parallelism.expert",
           fmt::format("expert degree {} must divide the data degree {}", job.expert, job.data));
    }
  }
  if (job.phases.empty()) fail("job.phases", "an iteration needs at least one phase");
  if (gpus_ok && double(job.phases.size()) * job.gpus > double(kMaxRankPhases)) {
    fail("job.phases",
         fmt::format("{} phases x {} GPUs = {} rank-phases, beyond the planner's limit of {} (its "
                     "time grows with both)",
                     job.phases.size(), job.gpus, double(job.phases.size()) * job.gpus, kMaxRankPhases));
  }
  for (size_t i = 0; i < job.phases.size(); ++i) {
    const Phase& p = job.phases[i];
    const std::string where = fmt::format("job.phases[{}]", i);
    if (p.compute_ps < 0 || p.compute_ps > kMaxPs) {
      fail(where + ".compute_ps", fmt::format("{} ps is out of range (0..{})", p.compute_ps, kMaxPs));
    }
    if (p.bytes < 0 || p.bytes > kMaxBytes) {
      fail(where + ".bytes", fmt::format("{} is out of range (0..{})", p.bytes, kMaxBytes));
    }
    if (!supports(p.collective, p.algorithm)) {
      fail(where + ".algorithm",
           fmt::format("\"{}\" does not implement \"{}\"", to_string(p.algorithm), to_string(p.collective)));
    }
    if (p.groups.empty()) {
      // A dimension of degree 1 would give one-rank collectives.
      const int64_t size = degree_of(job, p.dimension);
      if (degrees_ok && gpus_ok && size < 2) {
        const std::string degree =
            p.dimension == Dimension::kWorld
                ? fmt::format("job.gpus is {}", job.gpus)
                : fmt::format("job.parallelism.{} is {}", to_string(p.dimension), size);
        fail(where + ".dimension",
             fmt::format("a {} collective needs at least 2 ranks, but {}", to_string(p.dimension), degree));
      }
      continue;
    }
    if (!gpus_ok) continue;
    std::vector<int> owner(job.gpus, -1);
    for (size_t g = 0; g < p.groups.size(); ++g) {
      const std::string gw = fmt::format("{}.groups[{}]", where, g);
      if (p.groups[g].size() < 2)
        fail(gw, fmt::format("a group needs at least 2 ranks, has {}", p.groups[g].size()));
      for (int r : p.groups[g]) {
        if (r < 0 || r >= job.gpus) {
          fail(gw, fmt::format("rank {} outside 0..{}", r, job.gpus - 1));
          continue;
        }
        if (owner[r] >= 0) {
          fail(gw, fmt::format("rank {} is already in groups[{}]; groups must not overlap", r, owner[r]));
          continue;
        }
        owner[r] = int(g);
      }
    }
  }
  if (!problems.empty()) throw std::invalid_argument(to_string(problems));
}

namespace {

const char* default_algorithm(Collective c) {
  return c == Collective::kAllToAll ? "direct" : c == Collective::kSendRecv ? "pipeline" : "ring";
}

Phase parse_phase(Input& in, const nlohmann::json& pj, const std::string& where, size_t i) {
  Phase p;
  p.name = fmt::format("phase{}", i);
  if (!in.object(pj, where)) return p;
  in.known(pj, where,
           {"name", "compute_ms", "compute_ps", "collective", "algorithm", "dimension", "megabytes", "bytes",
            "groups"});
  in.read_string(pj, "name", where, p.name);
  in.one_of(pj, where, "compute_ms", "compute_ps");
  double compute_ms = 0;
  in.read_number(pj, "compute_ms", where, compute_ms, 0, kMaxPs / 1e9);
  p.compute_ps = static_cast<int64_t>(compute_ms * 1e9);
  in.read_integer(pj, "compute_ps", where, p.compute_ps, 0, kMaxPs);
  std::string collective, algorithm, dimension = "data";
  in.read_string(pj, "collective", where, collective, true);
  bool known_collective = false;
  if (pj.contains("collective") && pj["collective"].is_string()) {
    try {
      p.collective = collective_from_string(collective);
      known_collective = true;
    } catch (const std::invalid_argument& e) {
      in.fail(where + ".collective", e.what());
    }
  }
  algorithm = default_algorithm(p.collective);
  in.read_string(pj, "algorithm", where, algorithm);
  if (known_collective || pj.contains("algorithm")) {
    try {
      p.algorithm = algorithm_from_string(algorithm);
    } catch (const std::invalid_argument& e) {
      in.fail(where + ".algorithm", e.what());
    }
  }
  in.read_string(pj, "dimension", where, dimension);
  if (auto d = dimension_from_string(dimension)) {
    p.dimension = *d;
  } else {
    in.fail(where + ".dimension",
            fmt::format("unknown dimension \"{}\" (one of: {})", printable(dimension), dimension_list()));
  }
  in.one_of(pj, where, "megabytes", "bytes");
  double mb = 0;
  in.read_number(pj, "megabytes", where, mb, 0, kMaxBytes / 1e6);
  p.bytes = static_cast<int64_t>(mb * 1e6);
  in.read_integer(pj, "bytes", where, p.bytes, 0, kMaxBytes);
  if (const auto* groups = in.field(pj, "groups", where)) {
    const std::string gw = where + ".groups";
    if (in.array(*groups, gw)) {
      for (size_t g = 0; g < groups->size(); ++g) {
        const std::string gi = Input::path_of(gw, g);
        std::vector<int> ranks;
        if (in.array((*groups)[g], gi, true)) {
          for (size_t k = 0; k < (*groups)[g].size(); ++k)
            if (auto r = in.integer((*groups)[g][k], Input::path_of(gi, k), 0, kMaxGpus - 1))
              ranks.push_back(int(*r));
        }
        p.groups.push_back(std::move(ranks));
      }
    }
  }
  return p;
}

}  // namespace

Job job_from_json(const nlohmann::json& j) {
  Input in;
  if (!in.object(j, "job")) in.check();
  Job job;
  if (j.contains("preset")) {
    // A preset is a whole job: other fields would be silently ignored.
    in.known(j, "job", {"preset", "gpus", "name"},
             "not used with a preset (a preset job has only name, preset and gpus; give an explicit job "
             "instead)");
    std::string name;
    int gpus = 0;
    in.read_string(j, "preset", "job", name, true);
    in.read_integer(j, "gpus", "job", gpus, 1, kMaxGpus, true);
    in.check();
    job = preset(name, gpus);
    in.read_string(j, "name", "job", job.name);
    in.check();
    return job;
  }
  in.known(j, "job", {"name", "gpus", "gpus_per_node", "rail_of_local_gpu", "parallelism", "phases"});
  job.name = "job";
  in.read_string(j, "name", "job", job.name);
  in.read_integer(j, "gpus", "job", job.gpus, 1, kMaxGpus, true);
  in.read_integer(j, "gpus_per_node", "job", job.gpus_per_node, 1, kMaxGpus);
  if (const auto* rails = in.field(j, "rail_of_local_gpu", "job")) {
    if (in.array(*rails, "job.rail_of_local_gpu")) {
      for (size_t i = 0; i < rails->size(); ++i) {
        if (auto r = in.integer((*rails)[i], Input::path_of("job.rail_of_local_gpu", i), 0,
                                std::numeric_limits<int>::max()))
          job.rail_of_local_gpu.push_back(int(*r));
      }
    }
  }
  if (const auto* par = in.field(j, "parallelism", "job")) {
    if (in.object(*par, "job.parallelism")) {
      in.known(*par, "job.parallelism", {"tensor", "context", "pipeline", "data", "expert"});
      const std::string pp = "job.parallelism";
      in.read_integer(*par, "tensor", pp, job.tensor, 1, kMaxGpus);
      in.read_integer(*par, "context", pp, job.context, 1, kMaxGpus);
      in.read_integer(*par, "pipeline", pp, job.pipeline, 1, kMaxGpus);
      in.read_integer(*par, "data", pp, job.data, 1, kMaxGpus);
      in.read_integer(*par, "expert", pp, job.expert, 1, kMaxGpus);
    }
  }
  if (const auto* phases = in.field(j, "phases", "job", true)) {
    if (in.array(*phases, "job.phases", true)) {
      for (size_t i = 0; i < phases->size(); ++i)
        job.phases.push_back(parse_phase(in, (*phases)[i], Input::path_of("job.phases", i), i));
    }
  }
  in.check();
  validate(job);
  return job;
}

nlohmann::json to_json(const Job& job) {
  nlohmann::json j;
  j["name"] = job.name;
  j["gpus"] = job.gpus;
  j["gpus_per_node"] = job.gpus_per_node;
  if (!job.rail_of_local_gpu.empty()) j["rail_of_local_gpu"] = job.rail_of_local_gpu;
  j["parallelism"] = {{"tensor", job.tensor},
                      {"context", job.context},
                      {"pipeline", job.pipeline},
                      {"data", job.data},
                      {"expert", job.expert}};
  for (const Phase& p : job.phases) {
    nlohmann::json pj{{"name", p.name},
                      {"compute_ps", p.compute_ps},
                      {"collective", to_string(p.collective)},
                      {"algorithm", to_string(p.algorithm)},
                      {"dimension", to_string(p.dimension)},
                      {"bytes", p.bytes}};
    if (!p.groups.empty()) pj["groups"] = p.groups;
    j["phases"].push_back(pj);
  }
  return j;
}

namespace {
// GPT-175B-like shape (hidden 12288, sequence 2048, micro-batch 1, 16
// micro-batches per replica), 150 TFLOP/s sustained per GPU.
constexpr double kParams = 175e9, kHidden = 12288, kSeq = 2048, kMicro = 16, kFlops = 150e12;

Job transformer(const std::string& name, int gpus) {
  Job job;
  job.name = name;
  job.gpus = gpus;
  job.gpus_per_node = 8;
  job.tensor = 8;
  job.pipeline = 8;
  if (gpus % 64 != 0 || gpus < 128) {
    throw std::invalid_argument(
        fmt::format("job.gpus: the {} preset needs a multiple of 64 GPUs (>= 128), got {}", name, gpus));
  }
  job.data = gpus / 64;
  const double stage_gpus = job.tensor * job.pipeline;
  const double t_fwd_micro_s = 2 * kParams * kSeq / (stage_gpus * kFlops);  // per stage, per micro-batch
  const double t_bwd_micro_s = 2 * t_fwd_micro_s;
  const double slots = kMicro + job.pipeline - 1;  // GPipe: bubble included
  const int64_t activations = static_cast<int64_t>(kSeq * kHidden * 2 * kMicro);
  const int64_t grads = static_cast<int64_t>(2 * kParams / stage_gpus);
  auto ps = [](double s) { return static_cast<int64_t>(s * 1e12); };
  job.phases = {
      {"forward",
       ps(slots * t_fwd_micro_s),
       Collective::kSendRecv,
       Algorithm::kPipeline,
       Dimension::kPipeline,
       activations,
       {}},
      {"backward",
       ps((slots - 1) * t_bwd_micro_s),
       Collective::kSendRecv,
       Algorithm::kPipelineReverse,
       Dimension::kPipeline,
       activations,
       {}},
      {"gradients", ps(t_bwd_micro_s), Collective::kAllReduce, Algorithm::kRing, Dimension::kData, grads, {}},
  };
  return job;
}
}  // namespace

Job gpt_preset(int gpus) {
  Job job = transformer("gpt", gpus);
  validate(job);
  return job;
}

Job moe_preset(int gpus) {
  Job job = transformer("moe", gpus);
  job.expert = std::min(8, job.data);
  if (job.expert < 2) {
    throw std::invalid_argument(
        fmt::format("job.gpus: the moe preset needs at least 128 GPUs, got {}", gpus));
  }
  // Token dispatch and combine around the expert layers, in both passes:
  // every token's hidden state goes to its expert and back (top-1).
  const int64_t tokens = static_cast<int64_t>(kSeq * kHidden * 2 * kMicro);
  Phase dispatch{
      "expert_dispatch", 0, Collective::kAllToAll, Algorithm::kBruck, Dimension::kExpert, tokens, {}};
  Phase combine = dispatch;
  combine.name = "expert_combine";
  // Split the forward compute around the all-to-alls.
  Phase& fwd = job.phases[0];
  dispatch.compute_ps = fwd.compute_ps / 2;
  combine.compute_ps = fwd.compute_ps / 4;
  fwd.compute_ps -= dispatch.compute_ps + combine.compute_ps;
  job.phases.insert(job.phases.begin(), {dispatch, combine});
  validate(job);
  return job;
}

Job cnn_preset(int gpus, int gpus_per_node) {
  Job job;
  job.name = "cnn";
  job.gpus = gpus;
  job.gpus_per_node = gpus_per_node;
  job.data = gpus;
  // ResNet-50-like: 25.6 M parameters in fp32 (~100 MB of gradients), a
  // 200 ms forward+backward per step on each GPU.
  job.phases = {{"gradients",
                 200'000'000'000,
                 Collective::kAllReduce,
                 Algorithm::kRing,
                 Dimension::kData,
                 102'400'000,
                 {}}};
  validate(job);
  return job;
}

Job preset(const std::string& name, int gpus) {
  if (name == "gpt") return gpt_preset(gpus);
  if (name == "moe") return moe_preset(gpus);
  if (name == "cnn") return cnn_preset(gpus, 1);
  throw std::invalid_argument(
      fmt::format("job.preset: unknown preset \"{}\" (one of: gpt, moe, cnn)", printable(name)));
}

}  // namespace lightrail::planner
