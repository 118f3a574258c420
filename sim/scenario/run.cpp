// A scenario run: the co-simulation with the host program beside it, its
// report, and the judge's verdict on the scenario's expectations.
#include <thread>

#include "cosim.hpp"
#include "lightrail/hwdef.hpp"
#include "scenario/host.hpp"
#include "scenario/judge.hpp"
#include "scenario/scenario.hpp"

namespace lightrail::sim {

using nlohmann::json;

json run_scenario(const Scenario& sc) {
  CosimOptions o;
  o.boards = sc.boards;
  o.board.margin_ticks = (sc.margin_ps + hwdef::TICK_PS - 1) / hwdef::TICK_PS;
  o.board.packet_ticks = (sc.packet_ps + hwdef::TICK_PS - 1) / hwdef::TICK_PS;
  o.waveform_prefix = sc.waveform_prefix;
  o.board.fault = sc.fault;
  if (sc.kernel_latency >= 0) o.board.kernel_latency = unsigned(sc.kernel_latency);
  for (const Action& a : sc.actions)
    if (a.what == "board_reset") o.board.resets.push_back({a.at_ps * 1000, a.reset_cycles, a.board});
  o.sync = sc.sync;
  o.horizon_fs = sc.duration_ps * 1000;
  Cosim cosim(o);
  if (!cosim.serves()) {  // a partitioned run's other ranks: rank 0 hosts and reports
    cosim.run(sc.duration_ps * 1000);
    cosim.report();
    return nullptr;
  }
  cosim.link().barrier_fs = 0;  // the host acts first; see Host::run
  Host host(sc, cosim.port(), cosim.link());
  std::thread host_thread([&] { host.run(); });
  cosim.run(sc.duration_ps * 1000);
  cosim.link().stop = true;
  host_thread.join();
  json report = cosim.report();
  report["scenario"] = sc.path;
  report["host"] = host.report();
  json unmet = unmet_expectations(sc, report);
  report["unmet_expectations"] = unmet;
  report["ok"] = report["ok"].get<bool>() && host.ok() && unmet.empty();
  return report;
}

}  // namespace lightrail::sim
