#include "lightrail/planner/fabric.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "json_input.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {
namespace {
[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw std::invalid_argument("fabric." + field + ": " + message);
}
constexpr int kMaxInt = std::numeric_limits<int>::max();
}  // namespace

void validate(const Fabric& f) {
  std::vector<Problem> problems;
  auto check = [&](const char* name, bool ok, const std::string& range, const std::string& value) {
    if (!ok)
      problems.push_back(
          {fmt::format("fabric.{}", name), fmt::format("{} is out of range ({})", value, range)});
  };
  check("rails", f.rails >= 1, fmt::format("1..{}", kMaxInt), std::to_string(f.rails));
  check("ocs_radix", f.ocs_radix >= 2, fmt::format("2..{}", kMaxInt), std::to_string(f.ocs_radix));
  check("ports_per_nic", f.ports_per_nic >= 1 && f.ports_per_nic <= kMaxPortsPerNic,
        fmt::format("1..{}", kMaxPortsPerNic), std::to_string(f.ports_per_nic));
  // An unset eps_gbps is link_gbps, checked as such.
  const std::pair<const char*, double> rates[] = {{"link_gbps", f.link_gbps},
                                                  {"eps_gbps", f.eps_gbps.value_or(kMinGbps)},
                                                  {"scale_up_gbps", f.scale_up_gbps}};
  for (const auto& [name, v] : rates)
    check(name, v >= kMinGbps && v <= kMaxGbps, fmt::format("{}..{} Gb/s", kMinGbps, kMaxGbps),
          fmt::format("{}", v));
  check("eps_oversubscription", f.eps_oversubscription >= 1 && f.eps_oversubscription <= kMaxOversubscription,
        fmt::format("1..{}", kMaxOversubscription), fmt::format("{}", f.eps_oversubscription));
  const std::pair<const char*, int64_t> times[] = {{"reconfiguration_ps", f.reconfiguration_ps},
                                                   {"circuit_latency_ps", f.circuit_latency_ps},
                                                   {"eps_latency_ps", f.eps_latency_ps}};
  for (const auto& [name, v] : times)
    check(name, v >= 0 && v <= kMaxPs, fmt::format("0..{} ps", kMaxPs), std::to_string(v));
  check("eps_switch_radix",
        f.eps_switch_radix == 0 || (f.eps_switch_radix >= 4 && f.eps_switch_radix <= 65536),
        "0 (one ideal switch) or 4..65536", std::to_string(f.eps_switch_radix));
  check("eps_hop_latency_ps", f.eps_hop_latency_ps >= 0 && f.eps_hop_latency_ps <= kMaxPs,
        fmt::format("0..{} ps", kMaxPs), std::to_string(f.eps_hop_latency_ps));
  check("eps_queue_bytes", f.eps_queue_bytes >= 0 && f.eps_queue_bytes <= kMaxBytes,
        fmt::format("0..{}", kMaxBytes), std::to_string(f.eps_queue_bytes));
  if (!problems.empty()) throw std::invalid_argument(to_string(problems));
}

Fabric parse_fabric(Input& in, const nlohmann::json& j, const std::string& path) {
  Fabric f;
  if (!in.object(j, path)) return f;
  in.known(j, path,
           {"name", "mode", "rails", "ocs_radix", "ports_per_nic", "link_gbps", "reconfiguration_us",
            "reconfiguration_ps", "circuit_latency_ps", "scale_up_gbps", "eps_gbps", "eps_oversubscription",
            "eps_latency_ps", "eps_queue_bytes", "eps_switch_radix", "eps_hop_latency_ps", "eps_routing"});
  in.read_string(j, "name", path, f.name);
  std::string mode = "ocs";
  in.read_string(j, "mode", path, mode);
  if (mode == "ocs") {
    f.mode = SwitchMode::kOcs;
  } else if (mode == "awgr") {
    f.mode = SwitchMode::kAwgr;
  } else {
    in.fail(Input::path_of(path, "mode"),
            fmt::format("unknown mode \"{}\" (one of: ocs, awgr)", printable(mode)));
  }
  in.read_integer(j, "rails", path, f.rails, 1, kMaxInt);
  in.read_integer(j, "ocs_radix", path, f.ocs_radix, 2, kMaxInt);
  in.read_integer(j, "ports_per_nic", path, f.ports_per_nic, 1, kMaxPortsPerNic);
  in.read_number(j, "link_gbps", path, f.link_gbps, kMinGbps, kMaxGbps);
  in.one_of(j, path, "reconfiguration_us", "reconfiguration_ps");
  if (j.contains("reconfiguration_us")) {
    double us = 0;
    in.read_number(j, "reconfiguration_us", path, us, 0, kMaxPs / 1e6);
    f.reconfiguration_ps = static_cast<int64_t>(us * 1e6);
  }
  in.read_integer(j, "reconfiguration_ps", path, f.reconfiguration_ps, 0, kMaxPs);
  in.read_integer(j, "circuit_latency_ps", path, f.circuit_latency_ps, 0, kMaxPs);
  in.read_number(j, "scale_up_gbps", path, f.scale_up_gbps, kMinGbps, kMaxGbps);
  if (j.contains("eps_gbps")) {
    double eps = 0;
    in.read_number(j, "eps_gbps", path, eps, kMinGbps, kMaxGbps);
    f.eps_gbps = eps;
  }
  in.read_number(j, "eps_oversubscription", path, f.eps_oversubscription, 1, kMaxOversubscription);
  in.read_integer(j, "eps_latency_ps", path, f.eps_latency_ps, 0, kMaxPs);
  in.read_integer(j, "eps_queue_bytes", path, f.eps_queue_bytes, 0, kMaxBytes);
  in.read_integer(j, "eps_switch_radix", path, f.eps_switch_radix, 0, 65536);
  in.read_integer(j, "eps_hop_latency_ps", path, f.eps_hop_latency_ps, 0, kMaxPs);
  std::string routing = "adaptive";
  in.read_string(j, "eps_routing", path, routing);
  if (routing == "ecmp" || routing == "adaptive") {
    f.eps_ecmp = routing == "ecmp";
  } else {
    in.fail(Input::path_of(path, "eps_routing"),
            fmt::format("unknown routing \"{}\" (one of: adaptive, ecmp)", printable(routing)));
  }
  return f;
}

Fabric fabric_from_json(const nlohmann::json& j) {
  Input in;
  const Fabric f = parse_fabric(in, j, "fabric");
  in.check();
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
          {"eps_gbps", f.eps_gbps.value_or(f.link_gbps)},
          {"eps_oversubscription", f.eps_oversubscription},
          {"eps_latency_ps", f.eps_latency_ps},
          {"eps_queue_bytes", f.eps_queue_bytes},
          {"eps_switch_radix", f.eps_switch_radix},
          {"eps_hop_latency_ps", f.eps_hop_latency_ps},
          {"eps_routing", f.eps_ecmp ? "ecmp" : "adaptive"}};
}

void check_fits(const Fabric& f, const Job& job) {
  validate(f);
  int max_rail = 0;
  for (int g = 0; g < job.gpus_per_node; ++g) max_rail = std::max(max_rail, job.rail_of(g));
  if (max_rail >= f.rails) {
    fail("rails", fmt::format("{} rails, but job \"{}\" puts GPUs on rail {}", f.rails, printable(job.name),
                              max_rail));
  }
  const int64_t ports = int64_t{job.nodes()} * f.ports_per_nic;
  if (ports > f.ocs_radix) {
    fail("ocs_radix",
         fmt::format("{} ports per rail switch, but job \"{}\" needs {} ({} nodes x {} ports per NIC)",
                     f.ocs_radix, printable(job.name), ports, job.nodes(), f.ports_per_nic));
  }
}

}  // namespace lightrail::planner
