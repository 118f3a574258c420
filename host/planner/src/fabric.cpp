#include "lightrail/planner/fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace lightrail::planner {
namespace {
[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw std::invalid_argument("fabric." + field + ": " + message);
}
template <typename T>
void read(const nlohmann::json& j, const char* key, T& out) {
  if (!j.contains(key)) return;
  try {
    out = j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    fail(key, fmt::format("has the wrong type ({})", j.at(key).dump()));
  }
}
}  // namespace

void validate(const Fabric& f) {
  if (f.rails <= 0) fail("rails", fmt::format("must be positive, is {}", f.rails));
  if (f.ocs_radix < 2) fail("ocs_radix", fmt::format("must be at least 2, is {}", f.ocs_radix));
  if (f.ports_per_nic <= 0) fail("ports_per_nic", fmt::format("must be positive, is {}", f.ports_per_nic));
  const std::pair<const char*, double> positive[] = {{"link_gbps", f.link_gbps},
                                                     {"eps_gbps", f.eps_gbps},
                                                     {"scale_up_gbps", f.scale_up_gbps},
                                                     {"eps_oversubscription", f.eps_oversubscription}};
  for (const auto& [name, v] : positive)
    if (!(v > 0)) fail(name, fmt::format("must be positive, is {}", v));
  const std::pair<const char*, int64_t> times[] = {{"reconfiguration_ps", f.reconfiguration_ps},
                                                   {"circuit_latency_ps", f.circuit_latency_ps},
                                                   {"eps_latency_ps", f.eps_latency_ps},
                                                   {"eps_queue_bytes", f.eps_queue_bytes}};
  for (const auto& [name, v] : times)
    if (v < 0) fail(name, fmt::format("must not be negative, is {}", v));
}

Fabric fabric_from_json(const nlohmann::json& j) {
  if (!j.is_object()) fail("(root)", "must be a JSON object");
  Fabric f;
  read(j, "name", f.name);
  std::string mode = "ocs";
  read(j, "mode", mode);
  if (mode == "ocs") {
    f.mode = SwitchMode::kOcs;
  } else if (mode == "awgr") {
    f.mode = SwitchMode::kAwgr;
  } else {
    fail("mode", fmt::format("unknown mode \"{}\" (one of: ocs, awgr)", mode));
  }
  read(j, "rails", f.rails);
  read(j, "ocs_radix", f.ocs_radix);
  read(j, "ports_per_nic", f.ports_per_nic);
  read(j, "link_gbps", f.link_gbps);
  if (j.contains("reconfiguration_us")) {
    double us = 0;
    read(j, "reconfiguration_us", us);
    if (us < 0) fail("reconfiguration_us", fmt::format("must not be negative, is {}", us));
    f.reconfiguration_ps = static_cast<int64_t>(us * 1e6);
  }
  read(j, "reconfiguration_ps", f.reconfiguration_ps);
  read(j, "circuit_latency_ps", f.circuit_latency_ps);
  read(j, "scale_up_gbps", f.scale_up_gbps);
  read(j, "eps_gbps", f.eps_gbps);
  read(j, "eps_oversubscription", f.eps_oversubscription);
  read(j, "eps_latency_ps", f.eps_latency_ps);
  read(j, "eps_queue_bytes", f.eps_queue_bytes);
  validate(f);
  return f;
}

nlohmann::json to_json(const Fabric& f) {
  return {{"name", f.name},
          {"mode", f.mode == SwitchMode::kOcs ? "ocs" : "awgr"},
          {"rails", f.rails},
          {"ocs_radix", f.ocs_radix},
          {"ports_per_nic", f.ports_per_nic},
          {"link_gbps", f.link_gbps},
          {"reconfiguration_ps", f.reconfiguration_ps},
          {"circuit_latency_ps", f.circuit_latency_ps},
          {"scale_up_gbps", f.scale_up_gbps},
          {"eps_gbps", f.eps_gbps},
          {"eps_oversubscription", f.eps_oversubscription},
          {"eps_latency_ps", f.eps_latency_ps},
          {"eps_queue_bytes", f.eps_queue_bytes}};
}

void check_fits(const Fabric& f, const Job& job) {
  validate(f);
  int max_rail = 0;
  for (int g = 0; g < job.gpus_per_node; ++g) max_rail = std::max(max_rail, job.rail_of(g));
  if (max_rail >= f.rails) {
    fail("rails", fmt::format("{} rails, but job \"{}\" puts GPUs on rail {}", f.rails, job.name, max_rail));
  }
  const int64_t ports = int64_t{job.nodes()} * f.ports_per_nic;
  if (ports > f.ocs_radix) {
    fail("ocs_radix",
         fmt::format("{} ports per rail switch, but job \"{}\" needs {} ({} nodes x {} ports per NIC)",
                     f.ocs_radix, job.name, ports, job.nodes(), f.ports_per_nic));
  }
}

}  // namespace lightrail::planner
