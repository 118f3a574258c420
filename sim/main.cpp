// lightrail-cosim: simulated lightrail boards for the driver, the CLI and CI.
//   serve  N boards on a loopback port until told to stop
//   run    a scenario file to its end, with a JSON report
//   bench  speed figures
//   stop   ask a serving simulation to finish and write its report
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <systemc>
#include <utility>

#include "bench.hpp"
#include "cosim.hpp"
#include "lightrail/schedule_json.hpp"
#include "scenario.hpp"

namespace {

using nlohmann::json;
using namespace lightrail::sim;

lightrail::sim::HostLink* g_link = nullptr;
void on_signal(int) {
  if (g_link) g_link->stop = true;
}

void write_report(const json& report, const std::string& path) {
  if (path.empty()) return;
  std::ofstream out(path);
  out << report.dump(2) << "\n";
  if (!out) throw std::runtime_error("cannot write report " + path);
}

void print_summary(const json& r) {
  std::cout << fmt::format(
      "{}: {} switch events, timing error max {} ps, {} missed steps, {} unexpected edges, {} of {} packets "
      "delivered, {} misdelivered, {} dark violations; {:.3g} board cycles/s\n",
      r["ok"].get<bool>() ? "PASS" : "FAIL", r["switch_events"].get<uint64_t>(),
      r["timing_error_ps_max"].get<double>(), r["missed_steps"].get<uint64_t>(),
      r["unexpected_edges"].get<uint64_t>(), r["packets_delivered"].get<uint64_t>(),
      r["packets_sent"].get<uint64_t>(), r["misdelivered_packets"].get<uint64_t>(),
      r["dark_violations"].get<uint64_t>(), r["board_cycles_per_s"].get<double>());
  if (r["sync"].is_object()) {
    // The truth (PPS edges against the grandmaster's), not the servos' view.
    const json& sy = r["sync"];
    const json& off = sy["offset_ps"];
    auto num = [](const json& j, const char* k) {
      return j.contains(k) && j[k].is_number() ? j[k].get<double>() : -1.0;
    };
    std::cout << fmt::format(
        "clock sync ({}): {} in {:.0f} us; |offset| to the grandmaster p99 {:.1f} ps, RMS {:.1f} ps over {} "
        "PPS edges",
        sy["topology"].get<std::string>(),
        num(sy, "lock_time_us") >= 0 ? "every follower locked" : "NOT all locked", num(sy, "lock_time_us"),
        num(off, "p99"), num(off, "rms"), off.value("samples", 0));
    if (num(sy, "slot_skew_ps_p99") >= 0)
      std::cout << fmt::format("; step-boundary skew across boards p99 {:.1f} ps",
                               num(sy, "slot_skew_ps_p99"));
    std::cout << "\n";
  }
  for (const auto& u : r.value("unmet_expectations", json::array()))
    std::cout << "  expected: " << u.get<std::string>() << "\n";
  if (r.contains("host"))
    for (const auto& e : r["host"]["errors"]) std::cout << "  host: " << e.get<std::string>() << "\n";
  for (const auto& b : r["boards"])
    for (const auto& s : b["swaps"])
      if (!s["ok"].get<bool>())
        std::cout << fmt::format("  board {}: swap {}\n", b["board"].get<int>(), s.dump());
}

int serve(int boards, int port, const std::string& port_file, const std::string& report,
          const std::string& wave, const std::string& sync) {
  CosimOptions o;
  o.boards = boards;
  o.port = uint16_t(port);
  o.waveform_prefix = wave;
  if (!sync.empty()) {
    // Board 0 is the grandmaster; the servos run under the reference
    // impairment profile, with no PTP-only copies.
    o.sync.enabled = true;
    o.sync.topology = sync;
    o.sync.baseline = false;
  }
  Cosim cosim(o);
  g_link = &cosim.link();
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::cout << fmt::format("lightrail-cosim: {} board(s) on sim://127.0.0.1:{}/0..{}\n", boards, cosim.port(),
                           boards - 1)
            << std::flush;
  if (!port_file.empty()) std::ofstream(port_file) << cosim.port() << "\n";
  cosim.run(std::nullopt);
  json r = cosim.report();
  write_report(r, report);
  print_summary(r);
  return r["ok"].get<bool>() ? 0 : 1;
}

int stop(int port) {
  using boost::asio::ip::tcp;
  boost::asio::io_context io;
  tcp::socket sock(io);
  boost::system::error_code ec;
  sock.connect({boost::asio::ip::address_v4::loopback(), uint16_t(port)}, ec);
  if (ec) {
    std::cerr << fmt::format("lightrail-cosim stop: nothing serves 127.0.0.1:{} ({})\n", port, ec.message());
    return 3;
  }
  boost::asio::write(sock, boost::asio::buffer(std::string("SHUTDOWN\n")), ec);
  boost::asio::streambuf reply;
  boost::asio::read_until(sock, reply, '\n', ec);
  return ec ? 3 : 0;
}

}  // namespace

// Our own main, ahead of libsystemc's, only to keep SystemC's banner out of
// reports and summaries.
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char** argv) {
  CLI::App app{"lightrail-cosim: co-simulated lightrail boards (Verilator + SystemC)"};
  app.require_subcommand(1);

  int boards = 1, port = 0;
  std::string port_file, report, wave, scenario;
  auto* s = app.add_subcommand("serve", "Serve N simulated boards on 127.0.0.1 until `stop`");
  s->add_option("--boards", boards, "number of boards")->check(CLI::Range(1, 64));
  s->add_option("--port", port, "TCP port (0: any free one)")->check(CLI::Range(0, 65535));
  s->add_option("--port-file", port_file, "write the port here once listening");
  s->add_option("--report", report, "write the JSON report here at the end");
  s->add_option("--waveform", wave, "FST waveform per board: PREFIX<board>.fst");
  std::string sync;
  s->add_option("--sync", sync, "clock distribution from board 0: star or chain (default: ideal clocks)")
      ->check(CLI::IsMember({"star", "chain"}));

  auto* r = app.add_subcommand("run", "Run a scenario file to its end");
  r->add_option("scenario", scenario, "scenario JSON (docs/cosim.md)")->required()->check(CLI::ExistingFile);
  r->add_option("--report", report, "write the JSON report here");

  bool as_json = false;
  BenchOptions bo;
  auto* b = app.add_subcommand(
      "bench", "Co-simulation vs Icarus speed, full-bank upload time, clock-distribution scaling");
  b->add_flag("--json", as_json, "print JSON");
  b->add_option("--cycles", bo.cycles, "board cycles per speed figure")->check(CLI::Range(1000, 100000000));
  b->add_option("--sync-us", bo.sync_us, "simulated time of each clock-distribution figure")
      ->check(CLI::Range(10, 100000));
  b->add_option("--sync-boards", bo.sync_boards, "only the clock-distribution figure for this many boards")
      ->check(CLI::Range(2, 64));

  std::string recipe, out_file;
  auto* g = app.add_subcommand("generate", "Write a schedule made from a recipe (docs/cosim.md)");
  g->add_option("recipe", recipe, R"(JSON, e.g. '{"steps": 1000, "step_ps": 20000}')")->required();
  g->add_option("-o,--output", out_file, "schedule file to write")->required();

  auto* st = app.add_subcommand("stop", "Tell a serving simulation to finish and write its report");
  st->add_option("--port", port, "its TCP port")->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // "stopped by user"

  try {
    if (*s) return serve(boards, port, port_file, report, wave, sync);
    if (*st) return stop(port);
    if (*g) {
      json doc;
      try {
        doc = json::parse(recipe);
      } catch (const json::parse_error& e) {
        throw std::runtime_error(std::string("recipe: malformed JSON: ") + e.what());
      }
      std::ofstream(out_file) << lightrail::to_json(generate_schedule(doc, "recipe")).dump(1) << "\n";
      return 0;
    }
    if (*r) {
      const json rep = run_scenario(load_scenario(scenario));
      write_report(rep, report);
      print_summary(rep);
      return rep["ok"].get<bool>() ? 0 : 1;
    }
    if (bo.sync_boards > 0) {
      std::cout << run_sync_bench(bo.sync_boards, bo.sync_us).dump() << "\n";
      return 0;
    }
    bo.self = argv[0];
    const json res = run_bench(bo);
    if (as_json) {
      std::cout << res.dump(2) << "\n";
    } else {
      std::cout << fmt::format("co-simulation: {:.3g} board cycles/s\n",
                               res["cosim"]["board_cycles_per_s"].get<double>());
      if (res["icarus"].contains("board_cycles_per_s"))
        std::cout << fmt::format("icarus (same RTL test bench): {:.3g} cycles/s; ratio {:.1f}x\n",
                                 res["icarus"]["board_cycles_per_s"].get<double>(),
                                 res["cosim_over_icarus"].get<double>());
      std::cout << fmt::format("full bank upload ({} steps): {:.3f} s wall, {:.1f} us simulated\n",
                               res["upload_full_bank"]["steps"].get<int>(),
                               res["upload_full_bank"]["wall_s"].get<double>(),
                               res["upload_full_bank"]["sim_time_us"].get<double>());
      for (const auto& s : res["sync"])
        if (s.contains("error"))
          std::cout << fmt::format("clock distribution, {} boards: {}\n", s["boards"].get<int>(),
                                   s["error"].get<std::string>());
        else
          std::cout << fmt::format(
              "clock distribution, {:2} boards: {:.0f} us simulated per wall second ({:.3g} board "
              "cycles/s)\n",
              s["boards"].get<int>(), s["sim_us_per_wall_s"].get<double>(),
              s["board_cycles_per_s"].get<double>());
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "lightrail-cosim: " << e.what() << "\n";
    return 1;
  }
}
