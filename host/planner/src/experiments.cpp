#include "lightrail/planner/experiments.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <stdexcept>

#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/fastconv.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/job.hpp"
#include "lightrail/planner/opus.hpp"

namespace lightrail::planner {
namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw std::invalid_argument("experiment." + field + ": " + message);
}
template <typename T>
T get(const json& j, const char* key, T fallback) {
  if (!j.contains(key)) return fallback;
  try {
    return j.at(key).get<T>();
  } catch (const json::exception&) {
    fail(key, fmt::format("has the wrong type ({})", j.at(key).dump()));
  }
}
Fabric fabric_of(const json& spec) { return fabric_from_json(spec.value("fabric", json::object())); }
double pct(int64_t a, int64_t b) { return 100.0 * (double(a) - double(b)) / double(b); }

json opus(const json& spec) {
  Fabric fabric = fabric_of(spec);
  const auto sizes = get<std::vector<int>>(spec, "gpus", {256, 1024, 2048});
  const auto latencies =
      get<std::vector<double>>(spec, "reconfiguration_us", {0.01, 1, 10, 100, 1000, 10000, 25000});
  const std::string preset_name = get<std::string>(spec, "preset", "gpt");
  json rows = json::array();
  for (int g : sizes) {
    const Job job = preset(preset_name, g);
    fabric.ocs_radix = std::max(fabric.ocs_radix, job.nodes() * fabric.ports_per_nic);
    for (double us : latencies) {
      if (us < 0) fail("reconfiguration_us", fmt::format("negative latency {}", us));
      fabric.reconfiguration_ps = static_cast<int64_t>(us * 1e6);
      const OpusPlan plan = plan_opus(job, fabric);
      const IterationTime el = electrical_iteration(plan);
      const IterationTime no = photonic_iteration(plan, false);
      const IterationTime ov = photonic_iteration(plan, true);
      rows.push_back({g, us, el.total_ps() / 1e9, no.reconfigurations, pct(no.total_ps(), el.total_ps()),
                      pct(ov.total_ps(), el.total_ps())});
    }
  }
  return {{"columns",
           {"gpus", "reconfiguration_us", "electrical_iteration_ms", "reconfigurations_per_iteration",
            "overhead_pct_no_overlap", "overhead_pct_overlap"}},
          {"rows", rows},
          {"notes",
           fmt::format("preset {}; overhead = photonic / ideal electrical rail iteration - 1", preset_name)}};
}

json pas(const json& spec) {
  const Fabric fabric = fabric_of(spec);
  const auto nodes = get<std::vector<int>>(spec, "nodes_per_job", {4, 16});
  const auto densities = get<std::vector<int>>(spec, "densities", {1, 2, 4, 8, 16});
  const auto sizes = get<std::vector<double>>(spec, "megabytes", {1, 10, 100, 1000});
  const auto patterns = get<std::vector<std::string>>(spec, "patterns", {"ring", "recursive_doubling"});
  const double duty = get<double>(spec, "duty", 0.5);
  const double compute_ms = get<double>(spec, "compute_ms", 0.0);
  json rows = json::array();
  for (const std::string& pattern : patterns) {
    Algorithm a;
    try {
      a = algorithm_from_string(pattern);
    } catch (const std::invalid_argument& e) {
      fail("patterns", e.what());
    }
    for (int n : nodes) {
      for (double mb : sizes) {
        if (mb < 0) fail("megabytes", fmt::format("negative size {}", mb));
        Job job = cnn_preset(n, 1);
        job.phases[0].algorithm = a;
        job.phases[0].bytes = static_cast<int64_t>(mb * 1e6);
        job.phases[0].compute_ps = static_cast<int64_t>(compute_ms * 1e9);
        Fabric f = fabric;
        f.ocs_radix = std::max(f.ocs_radix, n);
        const OpusPlan plan = plan_opus(job, f);
        const int64_t t_pas = photonic_iteration(plan, true).total_ps();
        for (int d : densities) {
          if (d < 1) fail("densities", fmt::format("density {} below 1", d));
          const int64_t t_eps = shared_eps_iteration(plan, {d, duty}).total_ps();
          rows.push_back({pattern, n, mb, d, t_eps / 1e9, t_pas / 1e9, double(t_eps) / double(t_pas)});
        }
      }
    }
  }
  return {
      {"columns", {"pattern", "nodes_per_job", "megabytes", "density", "eps_ms", "pas_ms", "acceleration"}},
      {"rows", rows},
      {"notes", "acceleration = iteration time on the shared EPS / on PAS circuits (overlap on)"}};
}

json fastconv(const json& spec) {
  const Fabric fabric = fabric_of(spec);
  FastConvConfig cfg;
  cfg.ocs_slots = get<int>(spec, "ocs_slots", 1);
  cfg.release_fraction = get<double>(spec, "release_fraction", 0.85);
  cfg.epoch_s = get<double>(spec, "epoch_s", 1.0);
  if (cfg.ocs_slots < 0) fail("ocs_slots", "must not be negative");
  if (!spec.contains("jobs") || !spec["jobs"].is_array()) fail("jobs", "is required (an array)");
  std::vector<LearningJob> jobs;
  for (size_t i = 0; i < spec["jobs"].size(); ++i) {
    const json& j = spec["jobs"][i];
    const std::string where = fmt::format("jobs[{}]", i);
    LearningJob lj;
    lj.name = j.value("name", where);
    lj.arrival_s = j.value("arrival_s", 0.0);
    lj.iterations = j.value("iterations", int64_t{1000});
    lj.tau = j.value("tau", 300.0);
    lj.peak = j.value("peak", 0.9);
    lj.curve = j.value("curve", std::vector<double>{});
    if (lj.iterations <= 0) fail(where + ".iterations", "must be positive");
    if (lj.tau <= 0) fail(where + ".tau", "must be positive");
    Job job = cnn_preset(j.value("nodes", 4), 1);
    job.phases[0].algorithm = algorithm_from_string(j.value("pattern", std::string("ring")));
    job.phases[0].bytes = static_cast<int64_t>(j.value("megabytes", 100.0) * 1e6);
    job.phases[0].compute_ps = static_cast<int64_t>(j.value("compute_ms", 50.0) * 1e9);
    if (job.phases[0].bytes < 0) fail(where + ".megabytes", "negative size");
    Fabric f = fabric;
    f.ocs_radix = std::max(f.ocs_radix, job.nodes());
    const OpusPlan plan = plan_opus(job, f);
    lj.iteration_ocs_s = photonic_iteration(plan, true).total_ps() / 1e12;
    lj.iteration_eps_s = shared_eps_iteration(plan, {1, 1.0}).total_ps() / 1e12;
    lj.eps_slowdown_per_job = shared_eps_iteration(plan, {2, 1.0}).total_ps() / 1e12 / lj.iteration_eps_s - 1;
    jobs.push_back(lj);
  }
  const auto eps = simulate(jobs, cfg, Policy::kEpsOnly);
  const auto pas = simulate(jobs, cfg, Policy::kPas);
  const auto fc = simulate(jobs, cfg, Policy::kFastConv);
  json rows = json::array();
  double sum[3] = {0, 0, 0};
  for (size_t i = 0; i < jobs.size(); ++i) {
    rows.push_back({jobs[i].name, eps[i].time_to_90_s, pas[i].time_to_90_s, fc[i].time_to_90_s});
    sum[0] += eps[i].time_to_90_s;
    sum[1] += pas[i].time_to_90_s;
    sum[2] += fc[i].time_to_90_s;
  }
  const double n = std::max<size_t>(1, jobs.size());
  rows.push_back({"mean", sum[0] / n, sum[1] / n, sum[2] / n});
  return {{"columns", {"job", "eps_only_s", "pas_s", "pas_fastconv_s"}},
          {"rows", rows},
          {"notes", "seconds from arrival to 90% of peak accuracy"}};
}

json power_cost(const json& spec, const std::string& base_dir) {
  json parts = spec.value("parts", json::object());
  if (parts.is_string()) {
    const std::string path = base_dir + "/" + parts.get<std::string>();
    std::ifstream in(path);
    if (!in) fail("parts", fmt::format("cannot open {}", path));
    try {
      parts = json::parse(in);
    } catch (const json::exception& e) {
      fail("parts", fmt::format("{}: malformed JSON: {}", path, e.what()));
    }
  }
  const int gpus = get<int>(spec, "gpus", 2048);
  const int rails = get<int>(spec, "rails", 8);
  if (gpus <= 0) fail("gpus", fmt::format("must be positive (got {})", gpus));
  if (rails <= 0 || gpus % rails != 0)
    fail("rails", fmt::format("must be positive and divide gpus {} (got {})", gpus, rails));
  auto figure = [&](const char* key) {
    if (!parts.contains(key) || !parts[key].contains("value"))
      fail(std::string("parts.") + key, "is required");
    const double v = parts[key]["value"].get<double>();
    if (v < 0) fail(std::string("parts.") + key, "must not be negative");
    return v;
  };
  struct Figures {
    double switch_w, xcvr_switch_w, xcvr_nic_w, ocs_w, switch_usd, xcvr_switch_usd, ocs_usd, radix;
  } base{figure("eps_switch_w_per_port"),   figure("eps_transceiver_w_per_port"),
         figure("nic_transceiver_w"),       figure("ocs_w_per_port"),
         figure("eps_switch_usd_per_port"), figure("eps_transceiver_usd_per_port"),
         figure("ocs_usd_per_port"),        figure("eps_switch_radix")};
  if (base.radix < 4) fail("parts.eps_switch_radix", fmt::format("must be at least 4 (got {})", base.radix));
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
  if (!spec.is_object()) fail("(root)", "must be a JSON object");
  const std::string kind = get<std::string>(spec, "kind", "");
  json out;
  if (kind == "opus") {
    out = opus(spec);
  } else if (kind == "pas") {
    out = pas(spec);
  } else if (kind == "fastconv") {
    out = fastconv(spec);
  } else if (kind == "power_cost") {
    out = power_cost(spec, base_dir);
  } else {
    fail("kind", fmt::format("unknown kind \"{}\" (one of: opus, pas, fastconv, power_cost)", kind));
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
        line.push_back(v.get<std::string>());
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
