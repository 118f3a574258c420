#include "lightrail/planner/experiments.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <iterator>
#include <limits>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "json_input.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/fastconv.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/job.hpp"
#include "lightrail/planner/limits.hpp"
#include "lightrail/planner/opus.hpp"

namespace lightrail::planner {
namespace {

using nlohmann::json;

const std::string kRoot = "experiment";

[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw std::invalid_argument("experiment." + field + ": " + message);
}

// A list field of numbers in lo..hi (integers when T is); `out` keeps its
// default when the field is absent.
template <typename T>
void read_list(Input& in, const json& spec, const char* key, std::vector<T>& out, double lo, double hi) {
  const json* v = in.field(spec, key, kRoot);
  if (!v) return;
  const std::string where = Input::path_of(kRoot, key);
  if (!in.array(*v, where)) return;
  out.clear();
  for (size_t i = 0; i < v->size(); ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (auto x = in.integer((*v)[i], Input::path_of(where, i), int64_t(lo), int64_t(hi)))
        out.push_back(T(*x));
    } else {
      if (auto x = in.number((*v)[i], Input::path_of(where, i), lo, hi)) out.push_back(*x);
    }
  }
}

// An all-reduce algorithm by name (the experiments' patterns).
std::optional<Algorithm> pattern(Input& in, const std::string& name, const std::string& where) {
  try {
    const Algorithm a = algorithm_from_string(name);
    if (supports(Collective::kAllReduce, a)) return a;
    in.fail(where, fmt::format("\"{}\" is not an all_reduce algorithm", to_string(a)));
  } catch (const std::invalid_argument& e) {
    in.fail(where, e.what());
  }
  return std::nullopt;
}

Fabric fabric_of(Input& in, const json& spec) {
  const json* j = in.field(spec, "fabric", kRoot);
  return j ? parse_fabric(in, *j, "experiment.fabric") : Fabric{};
}

// The rail switch grown to the job (the experiments sweep job sizes).
void fit_radix(Fabric& f, int nodes) {
  f.ocs_radix = std::max<int>(f.ocs_radix, nodes * f.ports_per_nic);  // <= kMaxGpus x kMaxPortsPerNic
}

// The sweep's ranks x phases x evaluations, against kMaxRankPhases.
void check_work(double work, const std::string& what) {
  if (work > double(kMaxRankPhases)) {
    throw std::invalid_argument(
        fmt::format("experiment: {} = {:.4g} rank-phase evaluations, beyond the planner's "
                    "limit of {} (its time grows with them)",
                    what, work, kMaxRankPhases));
  }
}

double pct(int64_t a, int64_t b) { return 100.0 * (double(a) - double(b)) / double(b); }

// The electrical network at its best: each phase with the algorithm it runs
// fastest on the packet switches (the job's own or another; a send/recv
// keeps its direction). Phases are independent there (no reconfiguration).
int64_t best_electrical_ps(const Job& job, const Fabric& fabric, const IterationTime& declared) {
  std::vector<int64_t> best;
  for (const PhaseTime& p : declared.phases) best.push_back(p.comm_ps);
  for (Algorithm a : kCollectiveAlgorithms) {
    Job j = job;
    bool any = false;
    for (Phase& p : j.phases) {
      if (p.collective == Collective::kSendRecv || !supports(p.collective, a) || p.algorithm == a) continue;
      p.algorithm = a;
      any = true;
    }
    if (!any) continue;
    IterationTime it;
    try {
      it = electrical_iteration(plan_opus(j, fabric));
    } catch (const std::invalid_argument&) {
      continue;  // beyond what a plan may hold (a direct all-to-all of many ranks): not a candidate
    }
    for (size_t i = 0; i < best.size(); ++i) best[i] = std::min(best[i], it.phases[i].comm_ps);
  }
  int64_t total = declared.compute_ps;
  for (int64_t b : best) total += b;
  return total;
}

json opus(Input& in, const json& spec) {
  in.known(spec, kRoot, {"kind", "preset", "gpus", "reconfiguration_us", "fabric"});
  Fabric fabric = fabric_of(in, spec);
  std::vector<int> sizes = {256, 1024, 2048};
  read_list(in, spec, "gpus", sizes, 1, kMaxGpus);
  std::vector<double> latencies = {0.01, 1, 10, 100, 1000, 10000, 25000};
  read_list(in, spec, "reconfiguration_us", latencies, 0, kMaxPs / 1e6);
  std::string preset_name = "gpt";
  in.read_string(spec, "preset", kRoot, preset_name);
  if (preset_name != "gpt" && preset_name != "moe" && preset_name != "cnn") {
    in.fail("experiment.preset",
            fmt::format("unknown preset \"{}\" (one of: gpt, moe, cnn)", printable(preset_name)));
  }
  in.check();
  std::vector<Job> jobs;
  double work = 0;
  for (size_t gi = 0; gi < sizes.size(); ++gi) {
    try {
      jobs.push_back(preset(preset_name, sizes[gi]));
    } catch (const std::invalid_argument& e) {
      fail(fmt::format("gpus[{}]", gi), e.what());
    }
    work += double(sizes[gi]) * jobs.back().phases.size() * (1 + latencies.size());
  }
  check_work(work, fmt::format("{} sizes of {} x {} reconfiguration_us", sizes.size(), preset_name,
                               latencies.size()));
  json rows = json::array();
  for (const Job& job : jobs) {
    fit_radix(fabric, job.nodes());
    // The circuits do not depend on the settling time: one plan per size.
    OpusPlan plan = plan_opus(job, fabric);
    const IterationTime el = electrical_iteration(plan);
    const int64_t best = best_electrical_ps(job, fabric, el);
    for (double us : latencies) {
      plan.fabric.reconfiguration_ps = static_cast<int64_t>(us * 1e6);
      const IterationTime no = photonic_iteration(plan, false);
      const IterationTime ov = photonic_iteration(plan, true);
      rows.push_back({job.gpus, us, el.total_ps() / 1e9, no.reconfigurations,
                      pct(no.total_ps(), el.total_ps()), pct(ov.total_ps(), el.total_ps()), best / 1e9,
                      pct(no.total_ps(), best)});
    }
  }
  return {
      {"columns",
       {"gpus", "reconfiguration_us", "electrical_iteration_ms", "reconfigurations_per_iteration",
        "overhead_pct_no_overlap", "overhead_pct_overlap", "electrical_best_ms",
        "overhead_pct_vs_best_electrical"}},
      {"rows", rows},
      {"notes", fmt::format("preset {}; overhead = photonic / electrical rail iteration - 1 (the electrical "
                            "network: {}); best electrical: each phase with its fastest algorithm there",
                            preset_name,
                            fabric.eps_switch_radix > 0
                                ? fmt::format("a Clos of {}-port switches", fabric.eps_switch_radix)
                                : std::string("one ideal switch a rail"))}};
}

json pas(Input& in, const json& spec) {
  in.known(spec, kRoot,
           {"kind", "nodes_per_job", "densities", "megabytes", "patterns", "duty", "compute_ms", "fabric"});
  const Fabric fabric = fabric_of(in, spec);
  std::vector<int> nodes = {4, 16}, densities = {1, 2, 4, 8, 16};
  std::vector<double> sizes = {1, 10, 100, 1000};
  read_list(in, spec, "nodes_per_job", nodes, 2, kMaxGpus);
  read_list(in, spec, "densities", densities, 1, kMaxGpus);
  read_list(in, spec, "megabytes", sizes, 0, kMaxBytes / 1e6);
  std::vector<std::pair<std::string, Algorithm>> patterns;
  if (const json* v = in.field(spec, "patterns", kRoot)) {
    if (in.array(*v, "experiment.patterns")) {
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string where = Input::path_of("experiment.patterns", i);
        if (auto name = in.string((*v)[i], where))
          if (auto a = pattern(in, *name, where)) patterns.push_back({*name, *a});
      }
    }
  } else {
    patterns = {{"ring", Algorithm::kRing}, {"recursive_doubling", Algorithm::kRecursiveDoubling}};
  }
  double duty = 0.5, compute_ms = 0;
  in.read_number(spec, "duty", kRoot, duty, 0, 1);
  in.read_number(spec, "compute_ms", kRoot, compute_ms, 0, kMaxPs / 1e9);
  in.check();
  double ranks = 0;
  for (int n : nodes) ranks += n;
  check_work(ranks * patterns.size() * sizes.size() * (1 + densities.size()),
             fmt::format("{} patterns x {} nodes_per_job x {} megabytes x {} densities", patterns.size(),
                         nodes.size(), sizes.size(), densities.size()));
  json rows = json::array();
  for (const auto& [name, a] : patterns) {
    for (int n : nodes) {
      for (double mb : sizes) {
        Job job = cnn_preset(n, 1);
        job.phases[0].algorithm = a;
        job.phases[0].bytes = static_cast<int64_t>(mb * 1e6);
        job.phases[0].compute_ps = static_cast<int64_t>(compute_ms * 1e9);
        Fabric f = fabric;
        fit_radix(f, n);
        const OpusPlan plan = plan_opus(job, f);
        const int64_t t_pas = photonic_iteration(plan, true).total_ps();
        if (t_pas == 0) {
          fail("megabytes",
               fmt::format("{} MB with compute_ms {} and fabric.circuit_latency_ps {} take no time on "
                           "circuits: the acceleration is undefined",
                           mb, compute_ms, f.circuit_latency_ps));
        }
        for (int d : densities) {
          const int64_t t_eps = shared_eps_iteration(plan, {d, duty}).total_ps();
          rows.push_back({name, n, mb, d, t_eps / 1e9, t_pas / 1e9, double(t_eps) / double(t_pas)});
        }
      }
    }
  }
  return {
      {"columns", {"pattern", "nodes_per_job", "megabytes", "density", "eps_ms", "pas_ms", "acceleration"}},
      {"rows", rows},
      {"notes", "acceleration = iteration time on the shared EPS / on PAS circuits (overlap on)"}};
}

json fastconv(Input& in, const json& spec) {
  in.known(spec, kRoot, {"kind", "ocs_ports", "ocs_slots", "release_fraction", "epoch_s", "fabric", "jobs"});
  const Fabric fabric = fabric_of(in, spec);
  FastConvConfig cfg;
  if (spec.contains("ocs_slots")) {
    in.fail("experiment.ocs_slots",
            "circuits are counted in ports: give ocs_ports (a job takes nodes x fabric.ports_per_nic)");
  }
  in.read_integer(spec, "ocs_ports", kRoot, cfg.ocs_ports, 0, std::numeric_limits<int64_t>::max());
  // Moving a job's circuits costs the switch's settling time.
  cfg.move_s = fabric.reconfiguration_ps / 1e12;
  in.read_number(spec, "release_fraction", kRoot, cfg.release_fraction, 0, 1);
  in.read_number(spec, "epoch_s", kRoot, cfg.epoch_s, 0, kMaxPs / 1e12, true);
  struct Spec {
    LearningJob lj;
    int nodes = 4;
    Algorithm algorithm = Algorithm::kRing;
    double megabytes = 100, compute_ms = 50;
  };
  std::vector<Spec> specs;
  if (const json* jobs = in.field(spec, "jobs", kRoot, true)) {
    if (in.array(*jobs, "experiment.jobs")) {
      for (size_t i = 0; i < jobs->size(); ++i) {
        const json& j = (*jobs)[i];
        const std::string where = Input::path_of("experiment.jobs", i);
        Spec s;
        s.lj.name = fmt::format("jobs[{}]", i);
        s.lj.iterations = 1000;
        s.lj.tau = 300;
        if (in.object(j, where)) {
          in.known(j, where,
                   {"name", "arrival_s", "iterations", "tau", "peak", "curve", "nodes", "pattern",
                    "megabytes", "compute_ms"});
          in.one_of(j, where, "tau", "curve");
          in.one_of(j, where, "peak", "curve");
          in.read_string(j, "name", where, s.lj.name);
          in.read_number(j, "arrival_s", where, s.lj.arrival_s, 0, kMaxPs / 1e12);
          in.read_integer(j, "iterations", where, s.lj.iterations, 1, std::numeric_limits<int64_t>::max());
          in.read_number(j, "tau", where, s.lj.tau, 0, std::numeric_limits<double>::max(), true);
          in.read_number(j, "peak", where, s.lj.peak, 0, 1, true);
          if (const json* curve = in.field(j, "curve", where)) {
            const std::string cw = where + ".curve";
            if (in.array(*curve, cw)) {
              for (size_t k = 0; k < curve->size(); ++k)
                if (auto a = in.number((*curve)[k], Input::path_of(cw, k), 0, 1)) s.lj.curve.push_back(*a);
              if (s.lj.curve.size() == curve->size() && s.lj.peak_accuracy() <= 0)
                in.fail(cw, "never rises above 0 (progress is accuracy / its peak)");
            }
          }
          in.read_integer(j, "nodes", where, s.nodes, 2, kMaxGpus);
          std::string name = "ring";
          in.read_string(j, "pattern", where, name);
          if (auto a = pattern(in, name, where + ".pattern")) s.algorithm = *a;
          in.read_number(j, "megabytes", where, s.megabytes, 0, kMaxBytes / 1e6);
          in.read_number(j, "compute_ms", where, s.compute_ms, 0, kMaxPs / 1e9);
        }
        specs.push_back(std::move(s));
      }
    }
  }
  in.check();
  double ranks = 0;
  for (const Spec& s : specs) ranks += s.nodes;
  check_work(ranks, fmt::format("{} jobs", specs.size()));
  std::vector<LearningJob> jobs;
  for (size_t i = 0; i < specs.size(); ++i) {
    Spec& s = specs[i];
    Job job = cnn_preset(s.nodes, 1);
    job.phases[0].algorithm = s.algorithm;
    job.phases[0].bytes = static_cast<int64_t>(s.megabytes * 1e6);
    job.phases[0].compute_ps = static_cast<int64_t>(s.compute_ms * 1e9);
    Fabric f = fabric;
    fit_radix(f, job.nodes());
    const OpusPlan plan = plan_opus(job, f);
    LearningJob& lj = s.lj;
    lj.ports = int64_t{s.nodes} * f.ports_per_nic;
    lj.iteration_ocs_s = photonic_iteration(plan, true).total_ps() / 1e12;
    lj.iteration_eps_s = shared_eps_iteration(plan, {1, 1.0}).total_ps() / 1e12;
    if (lj.iteration_ocs_s <= 0 || lj.iteration_eps_s <= 0) {
      fail(
          fmt::format("jobs[{}]", i),
          fmt::format("an iteration takes no time (compute_ms {}, megabytes {}, and the fabric's latencies): "
                      "the job would never end its accounting",
                      s.compute_ms, s.megabytes));
    }
    lj.eps_slowdown_per_job = shared_eps_iteration(plan, {2, 1.0}).total_ps() / 1e12 / lj.iteration_eps_s - 1;
    jobs.push_back(lj);
  }
  // Progress curves for a picture: about 4,000 points per policy in all.
  cfg.progress_points = int(std::max<size_t>(8, 4000 / std::max<size_t>(1, jobs.size())));
  std::vector<JobOutcome> runs[3];
  try {
    runs[0] = simulate(jobs, cfg, Policy::kEpsOnly);
    runs[1] = simulate(jobs, cfg, Policy::kPas);
    runs[2] = simulate(jobs, cfg, Policy::kFastConv);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("experiment." + std::string(e.what()));
  }
  // Jobs that never reach 90% are counted apart, not averaged in.
  json rows = json::array();
  auto cell = [](const std::optional<double>& t) { return t ? json(*t) : json(nullptr); };
  for (size_t i = 0; i < jobs.size(); ++i) {
    rows.push_back({jobs[i].name, cell(runs[0][i].time_to_90_s), cell(runs[1][i].time_to_90_s),
                    cell(runs[2][i].time_to_90_s)});
  }
  json mean = {"mean"}, missed = {"not reached"};
  for (const auto& run : runs) {
    double sum = 0;
    size_t reached = 0;
    for (const JobOutcome& o : run) {
      if (!o.time_to_90_s) continue;
      sum += *o.time_to_90_s;
      ++reached;
    }
    mean.push_back(reached ? json(sum / reached) : json(nullptr));
    missed.push_back(fmt::format("{} of {}", run.size() - reached, run.size()));
  }
  rows.push_back(mean);
  rows.push_back(missed);
  // What FastConv does to each job against PAS alone (time to 90%, %).
  json versus = json::array();
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto &pas_t = runs[1][i].time_to_90_s, &fc_t = runs[2][i].time_to_90_s;
    versus.push_back(pas_t && fc_t ? json(100.0 * (*fc_t / *pas_t - 1)) : json(nullptr));
  }
  json curves = json::object();
  const char* const policies[] = {"eps_only", "pas", "pas_fastconv"};
  for (size_t p = 0; p < 3; ++p) {
    json list = json::array();
    for (const JobOutcome& o : runs[p]) {
      json t = json::array(), a = json::array();
      for (const auto& [s, progress] : o.progress) {
        t.push_back(s);
        a.push_back(progress);
      }
      list.push_back({{"job", o.name}, {"t_s", t}, {"progress", a}});
    }
    curves[policies[p]] = list;
  }
  return {{"columns", {"job", "eps_only_s", "pas_s", "pas_fastconv_s"}},
          {"rows", rows},
          {"curves", curves},
          {"fastconv_vs_pas_pct", versus},
          {"notes",
           "seconds from arrival to 90% of peak accuracy; the mean is over the jobs that reach it, "
           "\"-\" (null): never reached"}};
}

// The parts table's figures: W or USD per port, or the switch radix.
constexpr double kMaxFigure = 1e9;
const char* const kParts[] = {
    "eps_switch_w_per_port",   "eps_transceiver_w_per_port",   "nic_transceiver_w", "ocs_w_per_port",
    "eps_switch_usd_per_port", "eps_transceiver_usd_per_port", "ocs_usd_per_port",  "eps_switch_radix"};

json power_cost(Input& in, const json& spec, const std::string& base_dir) {
  in.known(spec, kRoot, {"kind", "gpus", "rails", "parts"});
  int gpus = 2048, rails = 8;
  in.read_integer(spec, "gpus", kRoot, gpus, 1, std::numeric_limits<int>::max());
  in.read_integer(spec, "rails", kRoot, rails, 1, std::numeric_limits<int>::max());
  if (in.ok() && gpus % rails != 0)
    in.fail("experiment.rails", fmt::format("must divide gpus {} (got {})", gpus, rails));
  json parts = json::object();
  std::string where = "experiment.parts";
  if (const json* p = in.field(spec, "parts", kRoot, true)) {
    if (p->is_string()) {
      std::filesystem::path path = p->get<std::string>();
      if (path.is_relative()) path = std::filesystem::path(base_dir) / path;
      try {
        parts = read_json_file(path.string(), fmt::format("experiment.parts ({})", path.string()));
      } catch (const Error& e) {
        throw std::invalid_argument(e.what());
      }
      where = fmt::format("experiment.parts ({})", printable(path.string()));
    } else {
      parts = *p;
    }
  }
  double figures[std::size(kParts)] = {};
  if (in.object(parts, where)) {
    for (auto it = parts.begin(); it != parts.end(); ++it) {
      if (std::find_if(std::begin(kParts), std::end(kParts), [&](const char* k) { return it.key() == k; }) ==
          std::end(kParts))
        in.fail(Input::path_of(where, it.key()), "unknown part");
    }
    for (size_t k = 0; k < std::size(kParts); ++k) {
      const std::string w = Input::path_of(where, kParts[k]);
      const json* part = in.field(parts, kParts[k], where, true);
      if (!part || !in.object(*part, w)) continue;
      in.known(*part, w, {"value", "unit", "source", "derivation", "status"});
      for (const char* text : {"unit", "source", "derivation", "status"}) {
        std::string ignored;
        in.read_string(*part, text, w, ignored);
      }
      const json* v = in.field(*part, "value", w, true);
      if (!v) continue;
      const std::string vw = w + ".value";
      const std::string name = kParts[k];
      if (name == "eps_switch_radix") {
        // The x0.5 row halves it; a folded Clos needs switches of 4 ports.
        if (auto x = in.integer(*v, vw, 8, kMaxGpus)) figures[k] = double(*x);
      } else if (name == "ocs_w_per_port" || name == "ocs_usd_per_port") {
        // Divides the ratios.
        if (auto x = in.number(*v, vw, 0, kMaxFigure, true)) figures[k] = *x;
      } else if (auto x = in.number(*v, vw, 0, kMaxFigure)) {
        figures[k] = *x;
      }
    }
  }
  in.check();
  struct Figures {
    double switch_w, xcvr_switch_w, xcvr_nic_w, ocs_w, switch_usd, xcvr_switch_usd, ocs_usd, radix;
  } base{figures[0], figures[1], figures[2], figures[3], figures[4], figures[5], figures[6], figures[7]};
  // Each GPU has one rail port. An electrical rail of radix-R switches is a
  // non-blocking folded Clos: k tiers serve 2 (R/2)^k hosts, and each host
  // costs 2k - 1 switch ports, each with a switch-side transceiver. A
  // photonic rail gives each host one OCS port the light passes through.
  // NIC-side optics are the same in both.
  const double per_rail = double(gpus) / rails;
  auto tiers = [&](double radix) {
    int k = 1;
    for (double served = radix; served < per_rail; served *= radix / 2) ++k;
    return k;
  };
  auto ratios = [&](const Figures& f) {
    const int k = tiers(f.radix);
    const double ports = gpus * (2.0 * k - 1);
    const double ep = ports * (f.switch_w + f.xcvr_switch_w), op = gpus * f.ocs_w, nic = gpus * f.xcvr_nic_w;
    const double ec = ports * (f.switch_usd + f.xcvr_switch_usd), oc = gpus * f.ocs_usd;
    return std::array<double, 8>{double(k), ep, op, ep / op, (ep + nic) / (op + nic), ec, oc, ec / oc};
  };
  json rows = json::array();
  auto add = [&](const std::string& label, const Figures& f) {
    const auto r = ratios(f);
    rows.push_back({label, int(r[0]), r[1] / 1e3, r[2] / 1e3, r[3], r[4], r[5] / 1e6, r[6] / 1e6, r[7]});
  };
  add("baseline", base);
  const std::pair<const char*, double Figures::*> knobs[] = {
      {"eps_switch_w_per_port", &Figures::switch_w},
      {"eps_transceiver_w_per_port", &Figures::xcvr_switch_w},
      {"nic_transceiver_w", &Figures::xcvr_nic_w},
      {"ocs_w_per_port", &Figures::ocs_w},
      {"eps_switch_usd_per_port", &Figures::switch_usd},
      {"eps_transceiver_usd_per_port", &Figures::xcvr_switch_usd},
      {"ocs_usd_per_port", &Figures::ocs_usd},
      {"eps_switch_radix", &Figures::radix}};
  for (const auto& [name, member] : knobs) {
    for (double k : {0.5, 2.0}) {
      Figures f = base;
      f.*member *= k;
      add(fmt::format("{} x{}", name, k), f);
    }
  }
  return {{"columns",
           {"case", "eps_tiers", "eps_switch_kw", "ocs_kw", "switch_power_ratio",
            "power_ratio_with_nic_optics", "eps_switch_musd", "ocs_musd", "switch_cost_ratio"}},
          {"rows", rows},
          {"notes", fmt::format("{} GPUs on {} rails, one 400G rail port each; an electrical rail of k tiers "
                                "uses 2k-1 switch ports and switch-side optics per GPU; figures and sources "
                                "in the parts table",
                                gpus, rails)}};
}

}  // namespace

json run_experiment(const json& spec, const std::string& base_dir) {
  Input in;
  if (!in.object(spec, kRoot)) in.check();
  std::string kind;
  in.read_string(spec, "kind", kRoot, kind, true);
  in.check();
  json out;
  if (kind == "opus") {
    out = opus(in, spec);
  } else if (kind == "pas") {
    out = pas(in, spec);
  } else if (kind == "fastconv") {
    out = fastconv(in, spec);
  } else if (kind == "power_cost") {
    out = power_cost(in, spec, base_dir);
  } else {
    fail("kind",
         fmt::format("unknown kind \"{}\" (one of: opus, pas, fastconv, power_cost)", printable(kind)));
  }
  out["kind"] = kind;
  return out;
}

std::string render_table(const json& result) {
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> header;
  for (const auto& c : result.at("columns")) header.push_back(c.get<std::string>());
  cells.push_back(header);
  for (const auto& row : result.at("rows")) {
    std::vector<std::string> line;
    for (const auto& v : row) {
      if (v.is_string()) {
        line.push_back(printable(v.get<std::string>()));  // job names come from the input
      } else if (v.is_null()) {
        line.push_back("-");
      } else if (v.is_number_integer()) {
        line.push_back(std::to_string(v.get<int64_t>()));
      } else {
        line.push_back(fmt::format("{:.4g}", v.get<double>()));
      }
    }
    cells.push_back(line);
  }
  std::vector<size_t> width(header.size(), 0);
  for (const auto& line : cells)
    for (size_t i = 0; i < line.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], line[i].size());
  std::string out;
  for (const auto& line : cells) {
    for (size_t i = 0; i < line.size(); ++i) out += fmt::format("{:>{}}  ", line[i], width[i]);
    out += '\n';
  }
  if (result.contains("notes")) out += result["notes"].get<std::string>() + '\n';
  return out;
}

}  // namespace lightrail::planner
