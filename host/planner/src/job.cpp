#include "lightrail/planner/job.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace lightrail::planner {
namespace {

[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw std::invalid_argument(field + ": " + message);
}

const std::pair<Dimension, const char*> kDimensionNames[] = {
    {Dimension::kTensor, "tensor"}, {Dimension::kContext, "context"}, {Dimension::kPipeline, "pipeline"},
    {Dimension::kData, "data"},     {Dimension::kExpert, "expert"},   {Dimension::kWorld, "world"}};

Dimension dimension_from_string(const std::string& s, const std::string& field) {
  std::string list;
  for (const auto& [d, name] : kDimensionNames) {
    if (s == name) return d;
    list += (list.empty() ? "" : ", ") + std::string(name);
  }
  fail(field, fmt::format("unknown dimension \"{}\" (one of: {})", s, list));
}

// Reads a JSON field with the field's path in every error.
template <typename T>
T get(const nlohmann::json& j, const char* key, const std::string& path, T fallback, bool required = false) {
  if (!j.contains(key)) {
    if (required) fail(path + "." + key, "is required");
    return fallback;
  }
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    fail(path + "." + key, fmt::format("has the wrong type ({})", j.at(key).dump()));
  }
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
  if (job.gpus <= 0) fail("job.gpus", fmt::format("must be positive, is {}", job.gpus));
  if (job.gpus_per_node <= 0)
    fail("job.gpus_per_node", fmt::format("must be positive, is {}", job.gpus_per_node));
  if (job.gpus % job.gpus_per_node != 0) {
    fail("job.gpus_per_node",
         fmt::format("{} GPUs do not fill whole nodes of {} GPUs", job.gpus, job.gpus_per_node));
  }
  if (!job.rail_of_local_gpu.empty()) {
    if (int(job.rail_of_local_gpu.size()) != job.gpus_per_node) {
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
  for (const auto& [name, d] : degrees) {
    if (d <= 0) fail(fmt::format("job.parallelism.{}", name), fmt::format("must be positive, is {}", d));
  }
  const int64_t product = int64_t{job.tensor} * job.context * job.pipeline * job.data;
  if (product != job.gpus) {
    fail("job.parallelism",
         fmt::format("tensor {} x context {} x pipeline {} x data {} = {}, but job.gpus is {}", job.tensor,
                     job.context, job.pipeline, job.data, product, job.gpus));
  }
  if (job.data % job.expert != 0) {
    fail("job.parallelism.expert",
         fmt::format("expert degree {} must divide the data degree {}", job.expert, job.data));
  }
  if (job.phases.empty()) fail("job.phases", "an iteration needs at least one phase");
  for (size_t i = 0; i < job.phases.size(); ++i) {
    const Phase& p = job.phases[i];
    const std::string where = fmt::format("job.phases[{}]", i);
    if (p.compute_ps < 0) fail(where + ".compute_ps", fmt::format("negative time {} ps", p.compute_ps));
    if (p.bytes < 0) fail(where + ".bytes", fmt::format("negative size {}", p.bytes));
    if (!supports(p.collective, p.algorithm)) {
      fail(where + ".algorithm",
           fmt::format("\"{}\" does not implement \"{}\"", to_string(p.algorithm), to_string(p.collective)));
    }
    std::vector<int> owner(job.gpus, -1);
    for (size_t g = 0; g < p.groups.size(); ++g) {
      if (p.groups[g].size() < 2)
        fail(fmt::format("{}.groups[{}]", where, g), "a group needs at least 2 ranks");
      for (int r : p.groups[g]) {
        if (r < 0 || r >= job.gpus) {
          fail(fmt::format("{}.groups[{}]", where, g), fmt::format("rank {} outside 0..{}", r, job.gpus - 1));
        }
        if (owner[r] >= 0) {
          fail(fmt::format("{}.groups[{}]", where, g),
               fmt::format("rank {} is already in groups[{}]; groups must not overlap", r, owner[r]));
        }
        owner[r] = int(g);
      }
    }
  }
}

Job job_from_json(const nlohmann::json& j) {
  if (!j.is_object()) fail("job", "must be a JSON object");
  Job job;
  if (j.contains("preset")) {
    job = preset(get<std::string>(j, "preset", "job", ""), get<int>(j, "gpus", "job", 0, true));
    if (!j.contains("phases")) {
      job.name = get<std::string>(j, "name", "job", job.name);
      return job;
    }
  }
  job.name = get<std::string>(j, "name", "job", job.name.empty() ? "job" : job.name);
  job.gpus = get<int>(j, "gpus", "job", job.gpus, true);
  job.gpus_per_node = get<int>(j, "gpus_per_node", "job", job.gpus_per_node);
  job.rail_of_local_gpu = get<std::vector<int>>(j, "rail_of_local_gpu", "job", {});
  const nlohmann::json par = j.value("parallelism", nlohmann::json::object());
  if (!par.is_object()) fail("job.parallelism", "must be an object");
  job.tensor = get<int>(par, "tensor", "job.parallelism", 1);
  job.context = get<int>(par, "context", "job.parallelism", 1);
  job.pipeline = get<int>(par, "pipeline", "job.parallelism", 1);
  job.data = get<int>(par, "data", "job.parallelism", 1);
  job.expert = get<int>(par, "expert", "job.parallelism", 1);
  if (!j.contains("phases") || !j.at("phases").is_array()) fail("job.phases", "is required (an array)");
  job.phases.clear();
  for (size_t i = 0; i < j.at("phases").size(); ++i) {
    const auto& pj = j.at("phases")[i];
    const std::string where = fmt::format("job.phases[{}]", i);
    if (!pj.is_object()) fail(where, "must be an object");
    Phase p;
    p.name = get<std::string>(pj, "name", where, fmt::format("phase{}", i));
    const double compute_ms = get<double>(pj, "compute_ms", where, 0.0);
    p.compute_ps = pj.contains("compute_ps") ? get<int64_t>(pj, "compute_ps", where, 0)
                                             : static_cast<int64_t>(compute_ms * 1e9);
    if (compute_ms < 0) fail(where + ".compute_ms", fmt::format("negative time {}", compute_ms));
    try {
      p.collective = collective_from_string(get<std::string>(pj, "collective", where, "", true));
    } catch (const std::invalid_argument& e) {
      if (std::string(e.what()).rfind(where, 0) == 0) throw;
      fail(where + ".collective", e.what());
    }
    const char* default_algo = p.collective == Collective::kAllToAll   ? "direct"
                               : p.collective == Collective::kSendRecv ? "pipeline"
                                                                       : "ring";
    try {
      p.algorithm = algorithm_from_string(get<std::string>(pj, "algorithm", where, default_algo));
    } catch (const std::invalid_argument& e) {
      if (std::string(e.what()).rfind(where, 0) == 0) throw;
      fail(where + ".algorithm", e.what());
    }
    p.dimension =
        dimension_from_string(get<std::string>(pj, "dimension", where, "data"), where + ".dimension");
    const double mb = get<double>(pj, "megabytes", where, 0.0);
    if (mb < 0) fail(where + ".megabytes", fmt::format("negative size {}", mb));
    p.bytes = pj.contains("bytes") ? get<int64_t>(pj, "bytes", where, 0) : static_cast<int64_t>(mb * 1e6);
    p.groups = get<std::vector<std::vector<int>>>(pj, "groups", where, {});
    job.phases.push_back(std::move(p));
  }
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
  throw std::invalid_argument(fmt::format("job.preset: unknown preset \"{}\" (one of: gpt, moe, cnn)", name));
}

}  // namespace lightrail::planner
