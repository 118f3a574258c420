// lightrail-cosim: simulated lightrail boards for the driver, the CLI and CI.
//   serve  N boards on a loopback port until told to stop
//   run    a scenario file to its end, with a JSON report
//   bench  speed figures
//   stop   ask a serving simulation to finish and write its report
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <systemc>
#include <utility>

#include "bench.hpp"
#include "cli_doc.hpp"
#include "cosim.hpp"
#include "lightrail/json_document.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/schedule_json_value.hpp"
#include "lightrail/token_file.hpp"
#include "lightrail/version.hpp"
#include "link/partition.hpp"
#include "plot_program.hpp"
#include "scenario/scenario.hpp"

namespace {

using nlohmann::json;
using namespace lightrail::sim;

// Exit codes (docs/cosim.md): a FAIL verdict is not an error, and an error
// says whether anything ran.
enum Exit : int {
  kPass = 0,
  kFail = 1,      // a check failed; the summary and the report say which
  kRefused = 2,   // bad command line or input; nothing ran
  kNoServer = 3,  // stop: no board server answered in time, or it refused
  kOutput = 4,    // an output file (report, port file, schedule, pictures) could not be written
  kError = 5,     // anything else: the run did not complete
};

// Bad input, caught before anything ran.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// An output file that could not be written (or cleared).
struct OutputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

lightrail::sim::HostLink* g_link = nullptr;
void on_signal(int) {
  if (g_link) g_link->stop = true;
}

// Clears what an earlier run left at `path`, so a run that dies before its
// end leaves no stale file, and learns now, not after the run, that the
// directory takes files.
void clear_output(const std::string& path, const char* what) {
  if (path.empty()) return;
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (ec) throw OutputError(fmt::format("cannot remove the old {} {}: {}", what, path, ec.message()));
  const std::string probe = fmt::format("{}.tmp.{}", path, ::getpid());
  if (!std::ofstream(probe))
    throw OutputError(fmt::format("cannot write the {} {} (cannot create a file there)", what, path));
  std::filesystem::remove(probe, ec);
}

// Written whole or not at all: a temporary file beside it, then renamed.
void write_output(const std::string& path, const std::string& text, const char* what) {
  if (path.empty()) return;
  const std::string tmp = fmt::format("{}.tmp.{}", path, ::getpid());
  std::error_code ec;
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << text;
    out.close();
    if (!out) {
      std::filesystem::remove(tmp, ec);
      throw OutputError(fmt::format("cannot write the {} {}", what, path));
    }
  }
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw OutputError(fmt::format("cannot write the {} {}: {}", what, path, ec.message()));
  }
}

// Verilator opens a waveform it cannot write without a word: learn it first.
void check_waveform(const std::string& prefix) {
  if (prefix.empty()) return;
  const std::string first = prefix + "0.fst";
  if (!std::ofstream(first)) throw OutputError("cannot write the waveform " + first);
}

// CLI11 reads integers in any base ("0x50" is 80, "010" is 8, "+5" 5):
// plain decimal digits only, leading zeros dropped so none reads as octal.
const CLI::Validator kDecimal(
    [](std::string& s) -> std::string {
      if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
        return "'" + lightrail::printable(s) + "' is not a decimal number";
      s.erase(0, std::min(s.find_first_not_of('0'), s.size() - 1));
      return "";
    },
    "DECIMAL");

std::string token_of(const std::string& file) {
  if (file.empty()) return "";
  try {
    return lightrail::read_token_file(file);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
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
    const double lock_us = num(sy, "lock_time_us");
    std::cout << fmt::format(
        "clock sync ({}): {}; |offset| to the grandmaster p99 {:.1f} ps, RMS {:.1f} ps over {} PPS edges",
        sy["topology"].get<std::string>(),
        lock_us < 0 ? std::string("NOT every follower ever locked")
        : sy.value("every_follower_locked_over_window", false)
            ? fmt::format("every follower locked over the window, the last first in {:.0f} us", lock_us)
            : fmt::format("NOT every follower locked over the window; the last first locked in {:.0f} us",
                          lock_us),
        num(off, "p99"), num(off, "rms"), off.value("samples", 0));
    if (num(sy, "slot_skew_ps_p99") >= 0)
      std::cout << fmt::format("; step-boundary skew across boards p99 {:.1f} ps",
                               num(sy, "slot_skew_ps_p99"));
    std::cout << "\n";
    if (sy.contains("hops")) {
      std::cout << "  per hop p99 / std ps (" << sy.value("hops_window", std::string("whole window")) << "):";
      for (const auto& h : sy["hops"])
        std::cout << fmt::format(" {}: {:.1f}/{:.1f}", h["hop"].get<int>(), h["p99"].get<double>(),
                                 h["std"].get<double>());
      if (sy.contains("std_growth_per_hop"))
        std::cout << fmt::format("; spread grows {:.3f}x per hop", sy["std_growth_per_hop"].get<double>());
      std::cout << "\n";
    }
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

// --plot DIR: learnt before the run that pictures can be made (the program
// is there, matplotlib too, the directory can be made), so a long run does
// not end without them; made from the report once it is written (without
// --report, it goes to DIR/report.json).
void check_plot(const std::string& dir, std::string& report) {
  if (dir.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw OutputError(fmt::format("--plot {}: {}", dir, ec.message()));
  if (report.empty()) report = (std::filesystem::path(dir) / "report.json").string();
  try {
    lightrail::plots::run_plot_program({"check"});
  } catch (const std::runtime_error& e) {
    throw OutputError(fmt::format("--plot {}: {}", dir, e.what()));
  }
}
void plot(const std::string& dir, const std::string& report) {
  if (dir.empty()) return;
  try {
    lightrail::plots::run_plot_program({"cosim", report, "--out", dir});
  } catch (const std::runtime_error& e) {
    throw OutputError(fmt::format("--plot {}: {}", dir, e.what()));
  }
}

// What `run` and `serve` write with --report (docs/json.md).
constexpr const char* kReportSchema = "lightrail.cosim-report/1";

struct ServeArgs {
  int boards = 1, port = 0;
  std::string port_file, report, wave, sync, token_file, plot_dir;
  std::string sync_link = "rtl";
  size_t max_connections = 128;
  int idle_timeout_ms = 30000;
};

int serve(ServeArgs a) {
  CosimOptions o;
  o.boards = a.boards;
  o.port = uint16_t(a.port);
  o.waveform_prefix = a.wave;
  o.server.max_connections = a.max_connections;
  o.server.idle_timeout = std::chrono::milliseconds(a.idle_timeout_ms);
  o.server.token = token_of(a.token_file);
  if (!a.sync.empty()) {
    // Board 0 is the grandmaster; the servos run under the reference
    // impairment profile, with no PTP-only copies.
    o.sync.enabled = true;
    o.sync.topology = a.sync;
    o.sync.baseline = false;
    o.sync.link = a.sync_link;
  }
  check_plot(a.plot_dir, a.report);
  clear_output(a.report, "report");
  clear_output(a.port_file, "port file");
  check_waveform(a.wave);
  std::optional<Cosim> cosim;
  try {
    cosim.emplace(o);
  } catch (const boost::system::system_error& e) {
    throw InputError(fmt::format("cannot listen on 127.0.0.1:{}: {}", a.port, e.code().message()));
  }
  g_link = &cosim->link();
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  if (!cosim->serves()) {  // a partitioned run's other ranks: rank 0 serves and reports
    cosim->run(std::nullopt);
    cosim->report();
    return kPass;
  }
  std::cout << fmt::format("lightrail-cosim: {} board(s) on sim://127.0.0.1:{}/0..{}\n", a.boards,
                           cosim->port(), a.boards - 1)
            << std::flush;
  write_output(a.port_file, fmt::format("{}\n", cosim->port()), "port file");
  cosim->run(std::nullopt);
  json r = cosim->report();
  print_summary(r);
  lightrail::stamp_schema(r, kReportSchema);
  write_output(a.report, lightrail::json_text(r) + "\n", "report");
  plot(a.plot_dir, a.report);
  return r["ok"].get<bool>() ? kPass : kFail;
}

// SHUTDOWN (after AUTH, with a token) within one deadline for the whole
// exchange: a listener that never answers is an error, not a hang.
int stop(int port, int timeout_ms, const std::string& token_file) {
  namespace asio = boost::asio;
  using asio::ip::tcp;
  using boost::system::error_code;
  const std::string token = token_of(token_file);
  const std::string where = fmt::format("lightrail-cosim stop: 127.0.0.1:{}", port);
  asio::io_context io;
  tcp::socket sock(io);
  asio::streambuf in(4096);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  error_code ec;
  auto wait = [&](const char* doing) {
    io.restart();
    io.run_until(deadline);
    if (ec == asio::error::would_block) {
      error_code ignored;
      sock.close(ignored);
      io.restart();
      io.run();  // let the cancelled handler finish
      std::cerr << fmt::format("{}: no answer within {} ms ({})\n", where, timeout_ms, doing);
      return false;
    }
    if (ec) {
      std::cerr << fmt::format("{}: {} ({})\n", where,
                               ec == asio::error::eof ? "the server closed the connection" : ec.message(),
                               doing);
      return false;
    }
    return true;
  };
  ec = asio::error::would_block;
  sock.async_connect({asio::ip::address_v4::loopback(), uint16_t(port)},
                     [&](const error_code& e) { ec = e; });
  if (!wait("connecting")) return kNoServer;
  auto say = [&](const std::string& request, const char* verb) {
    const std::string line = request + "\n";
    ec = asio::error::would_block;
    asio::async_write(sock, asio::buffer(line), [&](const error_code& e, size_t) { ec = e; });
    if (!wait("sending")) return false;
    ec = asio::error::would_block;
    asio::async_read_until(sock, in, '\n', [&](const error_code& e, size_t) { ec = e; });
    if (!wait("waiting for the reply")) return false;
    std::istream is(&in);
    std::string reply;
    std::getline(is, reply);
    if (!reply.empty() && reply.back() == '\r') reply.pop_back();
    if (reply == "OK") return true;
    std::cerr << fmt::format("{}: {} refused: {}\n", where, verb, lightrail::printable(reply));
    return false;
  };
  if (!token.empty() && !say("AUTH " + token, "AUTH")) return kNoServer;
  if (!say("SHUTDOWN", "SHUTDOWN")) return kNoServer;
  // The serving process prints the summary and verdict and writes the
  // report; this one only asked it to.
  std::cout << fmt::format(
      "lightrail-cosim stop: 127.0.0.1:{} is finishing: its summary and verdict "
      "follow on its own output, its report in its --report file\n",
      port);
  return kPass;
}

}  // namespace

// Our own main, ahead of libsystemc's, only to keep SystemC's banner out of
// reports and summaries.
// Under mpirun each rank joins the job first (docs/cosim.md, "Partitioned
// over processes").
int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  lightrail::sim::Partition::init(&argc, &argv);
  const int rc = sc_core::sc_elab_and_sim(argc, argv);
  lightrail::sim::Partition::finalize();
  return rc;
}

namespace {
// One rank's error ends the whole job: the others would wait for it at the
// next window boundary for ever.
int failed(int code) {
  const Partition& p = Partition::world();
  if (p.active() && p.ranks() > 1) {
    std::cerr << std::flush;
    Partition::abort(code);
  }
  return code;
}
}  // namespace

int sc_main(int argc, char** argv) {
  CLI::App app{"lightrail-cosim: co-simulated lightrail boards (Verilator + SystemC)"};
  app.set_version_flag("--version", lightrail::version_line("lightrail-cosim"));
  app.require_subcommand(1);

  ServeArgs sa;
  std::string report, scenario;
  auto* s = app.add_subcommand("serve", "Serve N simulated boards on 127.0.0.1 until `stop`");
  s->add_option("--boards", sa.boards, "number of boards")
      ->transform(kDecimal)
      ->check(CLI::Range(1, int(kMaxBoards)));
  s->add_option("--port", sa.port, "TCP port (0: any free one)")
      ->transform(kDecimal)
      ->check(CLI::Range(0, 65535));
  s->add_option("--port-file", sa.port_file, "write the port here once listening");
  s->add_option("--report", sa.report,
                "write the JSON report here at the end (an old one is removed at start)");
  s->add_option("--waveform", sa.wave, "FST waveform per board: PREFIX<board>.fst");
  s->add_option(
       "--sync", sa.sync,
       "clock distribution from board 0: star, chain or tree (each board serving as many as its ports "
       "take; default: ideal clocks)")
      ->check(CLI::IsMember({"star", "chain", "tree"}));
  s->add_option(
       "--sync-link", sa.sync_link,
       "with --sync: the timing link, rtl (the boards' own ports, the default) or model (the fast mode: "
       "stars beyond a board's ports)")
      ->capture_default_str()
      ->check(CLI::IsMember({"model", "rtl"}));
  s->add_option("--max-connections", sa.max_connections,
                "connections served at once; more get ERR and are closed")
      ->capture_default_str()
      ->transform(kDecimal)
      ->check(CLI::Range(1, 4096));
  s->add_option("--idle-timeout-ms", sa.idle_timeout_ms,
                "close a connection that sends no request (or takes no reply) for this long")
      ->capture_default_str()
      ->transform(kDecimal)
      ->check(CLI::Range(1, 86400000));
  s->add_option("--token-file", sa.token_file,
                "WR and SHUTDOWN need AUTH <token>, the token read from this file (mode 0600, yours)");
  s->add_option("--plot", sa.plot_dir, "draw the report's pictures into DIR at the end (docs/plots.md)");

  auto* r = app.add_subcommand("run", "Run a scenario file to its end");
  r->add_option("scenario", scenario, "scenario JSON (docs/cosim.md)")->required()->check(CLI::ExistingFile);
  r->add_option("--report", report, "write the JSON report here");
  std::string plot_dir;
  r->add_option("--plot", plot_dir,
                "draw the report's pictures into DIR (PNG and SVG; docs/plots.md); the report goes to "
                "DIR/report.json unless --report says otherwise");
  int kernel_latency = -1;
  r->add_option("--kernel-latency", kernel_latency,
                "run the sequencer kernel with this pipeline latency, cycles (overrides the scenario's)")
      ->check(CLI::Range(0, int(lightrail::sim::kMaxKernelLatency)));

  bool as_json = false;
  BenchOptions bo;
  auto* b = app.add_subcommand(
      "bench", "Co-simulation vs Icarus speed, full-bank upload time, clock-distribution scaling");
  b->add_flag("--json", as_json, "print JSON");
  b->add_option("--cycles", bo.cycles, "board cycles per speed figure")
      ->transform(kDecimal)
      ->check(CLI::Range(1000, 100000000));
  b->add_option("--sync-us", bo.sync_us, "simulated time of each clock-distribution figure")
      ->transform(kDecimal)
      ->check(CLI::Range(10, 2000000));
  b->add_option("--rounds", bo.rounds,
                "alternating rounds of the board and the bare top; the harness cost is their median")
      ->capture_default_str()
      ->transform(kDecimal)
      ->check(CLI::Range(1, 21));
  // What the bench runs for each board round after the first, in a process of
  // its own.
  b->add_flag("--board-only", bo.board_only, "only one board's speed (JSON)")->group("");
  b->add_option("--sync-boards", bo.sync_boards, "only the clock-distribution figure for this many boards")
      ->transform(kDecimal)
      ->check(CLI::Range(2, 64));
  b->add_option(
       "--sync-link", bo.sync_link,
       "with --sync-boards: the timing link, model or rtl (default: rtl where a star fits the ports)")
      ->check(CLI::IsMember({"model", "rtl"}));

  std::string recipe, out_file;
  auto* g = app.add_subcommand("generate", "Write a schedule made from a recipe (docs/cosim.md)");
  g->add_option("recipe", recipe, R"(JSON, e.g. '{"steps": 1000, "step_ps": 20000}')")->required();
  g->add_option("-o,--output", out_file, "schedule file to write")->required();

  int stop_port = 0, stop_timeout_ms = 10000;
  std::string stop_token_file;
  auto* st = app.add_subcommand("stop", "Tell a serving simulation to finish and write its report");
  st->add_option("--port", stop_port, "its TCP port")
      ->required()
      ->transform(kDecimal)
      ->check(CLI::Range(1, 65535));
  st->add_option("--timeout-ms", stop_timeout_ms, "give up when it has not answered in this long")
      ->capture_default_str()
      ->transform(kDecimal)
      ->check(CLI::Range(1, 3600000));
  st->add_option("--token-file", stop_token_file, "send AUTH with the token in this file first");

  // Last: the man page and completion read every command defined above.
  lightrail::clidoc::add_doc_option(
      app, {"lightrail-cosim",
            LIGHTRAIL_VERSION_STRING,
            {{kPass, "pass", "every check held (serve, run); the command did what it was asked"},
             {kFail, "fail", "a check failed: the summary line and the report say which"},
             {kRefused, "refused", "bad command line or input; nothing ran"},
             {kNoServer, "no server", "stop: no board server answered in time, or it refused"},
             {kOutput, "output", "an output file could not be written; the verdict is still on stdout"},
             {kError, "error", "any other error: the run did not complete"}},
            {"lightrail(1)", "lightraild(1)"}});
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kPass : kRefused;
  }
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // "stopped by user"

  const Partition& part = Partition::world();
  if (part.active() && (*b || *g || *st)) {
    std::cerr << "lightrail-cosim: under mpirun only `run` and `serve` split boards over ranks\n";
    return failed(kRefused);
  }
  try {
    if (*s) return serve(sa);
    if (*st) return stop(stop_port, stop_timeout_ms, stop_token_file);
    if (*g) {
      std::string text;
      try {
        text = lightrail::to_json(generate_schedule(lightrail::parse_json_text(recipe, "recipe"), "recipe"))
                   .dump(1);
      } catch (const std::exception& e) {
        throw InputError(e.what());
      }
      write_output(out_file, text + "\n", "schedule");
      return kPass;
    }
    if (*r) {
      Scenario sc;
      try {
        sc = load_scenario(scenario);
      } catch (const std::exception& e) {
        throw InputError(e.what());
      }
      check_plot(plot_dir, report);
      if (kernel_latency >= 0) sc.kernel_latency = kernel_latency;
      clear_output(report, "report");
      check_waveform(sc.waveform_prefix);
      json rep = run_scenario(sc);
      if (rep.is_null()) return kPass;  // not rank 0: rank 0 reports
      print_summary(rep);
      lightrail::stamp_schema(rep, kReportSchema);
      write_output(report, lightrail::json_text(rep) + "\n", "report");
      plot(plot_dir, report);
      return rep["ok"].get<bool>() ? kPass : kFail;
    }
    if (bo.sync_boards > 0) {
      const json res = run_sync_bench(bo.sync_boards, bo.sync_us, bo.sync_link);
      if (as_json) {
        std::cout << lightrail::json_text(res) << "\n";
      } else {
        const json& st = res["offset_ps"];
        std::cout << fmt::format(
            "clock distribution, {} boards ({} link), {:.0f} us simulated in {:.1f} s wall ({:.0f} us/s); "
            "lock {:.0f} "
            "us, "
            "locked over the window: {}\n",
            res["boards"].get<int>(), res["link"].get<std::string>(), res["sim_us"].get<double>(),
            res["wall_s"].get<double>(), res["sim_us_per_wall_s"].get<double>(),
            res["lock_time_us"].is_number() ? res["lock_time_us"].get<double>() : -1.0,
            res["locked_over_window"].get<bool>() ? "yes" : "NO");
        if (st.value("samples", 0) > 0)
          std::cout << fmt::format(
              "  |offset| to the grandmaster from {:.0f} us on, {} PPS edges: mean {:.2f} ps, std {:.2f} ps, "
              "RMS "
              "{:.2f} ps, p99 {:.2f} ps, max {:.2f} ps\n",
              res["measure_from_us"].get<double>(), st["samples"].get<uint64_t>(), st["mean"].get<double>(),
              st["std"].get<double>(), st["rms"].get<double>(), st["p99"].get<double>(),
              st["max_abs"].get<double>());
      }
      return 0;
    }
    if (bo.board_only) {
      std::cout << lightrail::json_text(run_board_bench(bo.cycles)) << "\n";
      return kPass;
    }
    const json res = run_bench(bo);
    if (as_json) {
      std::cout << lightrail::json_text(res) << "\n";
    } else {
      std::cout << fmt::format(
          "co-simulation: {:.3g} board cycles/s (RTL + kernel + probes); bare verilated top: {:.3g} "
          "cycles/s; the harness costs {:.2f}x (on each one's thread CPU time, the median of {} alternating "
          "rounds, {:.2f}-{:.2f}x; {:.2f}x on wall time)\n",
          res["cosim"]["board_cycles_per_s"].get<double>(),
          res["bare_top"]["board_cycles_per_s"].get<double>(), res["bare_over_cosim"].get<double>(),
          res["rounds"].size(), res["bare_over_cosim_rounds"]["min"].get<double>(),
          res["bare_over_cosim_rounds"]["max"].get<double>(), res["bare_over_cosim_wall"].get<double>());
      if (res.contains("bare_rising_only_over_cosim"))
        std::cout << fmt::format(
            "bare top on rising edges only: {:.3g} cycles/s; the harness costs {:.2f}x against it (median)\n",
            res["bare_top_rising_only"]["board_cycles_per_cpu_s"].get<double>(),
            res["bare_rising_only_over_cosim"].get<double>());
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
              "clock distribution, {:2} boards ({} link): {:.0f} us simulated per wall second ({:.3g} board "
              "cycles/s, {:.3g} per CPU s)\n",
              s["boards"].get<int>(), s["link"].get<std::string>(), s["sim_us_per_wall_s"].get<double>(),
              s["board_cycles_per_s"].get<double>(), s["board_cycles_per_cpu_s"].get<double>());
      for (const auto& r : res["sync_link"]["rounds"])
        if (r.contains("error"))
          std::cout << "timing link as words: " << r["error"].get<std::string>() << "\n";
        else
          std::cout << fmt::format(
              "timing link, 2 boards: modelled exchange {:.3g} board cycles per CPU s, the boards' ports "
              "{:.3g}: {:.2f}x the cost ({:.2f}x by the wall clock)\n",
              r["model_board_cycles_per_cpu_s"].get<double>(), r["rtl_board_cycles_per_cpu_s"].get<double>(),
              r["rtl_cost"].get<double>(), r["rtl_cost_wall"].get<double>());
      if (res["sync_link"].contains("rtl_cost"))
        std::cout << fmt::format("timing link as words costs {:.2f}x per board cycle (median of {} rounds)\n",
                                 res["sync_link"]["rtl_cost"].get<double>(),
                                 res["sync_link"]["rounds"].size());
    }
    return kPass;
  } catch (const InputError& e) {
    std::cerr << "lightrail-cosim: " << e.what() << "\n";
    return failed(kRefused);
  } catch (const PartitionError& e) {
    std::cerr << "lightrail-cosim: " << e.what() << "\n";
    return failed(kRefused);
  } catch (const OutputError& e) {
    std::cerr << "lightrail-cosim: " << e.what() << "\n";
    return failed(kOutput);
  } catch (const std::exception& e) {
    std::cerr << "lightrail-cosim: " << e.what() << "\n";
    return failed(kError);
  }
}
