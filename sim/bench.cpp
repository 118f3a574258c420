#include "bench.hpp"

#include <Vlightrail_board_core.h>
#include <Vlightrail_board_core___024root.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "board/board.hpp"
#include "board/model_clock.hpp"
#include "board/port_model.hpp"
#include "cosim.hpp"
#include "lightrail/hwdef.hpp"
#include "scenario/scenario.hpp"

namespace lightrail::sim {

using nlohmann::json;

namespace {

// The hw/ test bench under Icarus: compiled once, then timed around vvp.
json icarus_speed(uint64_t cycles) {
#ifdef LIGHTRAIL_IVERILOG
  const auto dir = std::filesystem::temp_directory_path() / fmt::format("lightrail-bench-{}", ::getpid());
  std::filesystem::create_directories(dir);
  const std::string vvp_file = (dir / "board_tb.vvp").string();
  const std::string compile =
      fmt::format("{} -g2012 -o {} {} 2>&1", LIGHTRAIL_IVERILOG, vvp_file, LIGHTRAIL_HW_TB_SOURCES);
  if (std::system(compile.c_str()) != 0) return {{"error", "iverilog failed: " + compile}};
  const auto t0 = std::chrono::steady_clock::now();
  const std::string run = fmt::format("{} -n {} +cycles={}", LIGHTRAIL_VVP, vvp_file, cycles);
  FILE* p = popen(run.c_str(), "r");
  std::string out;
  char buf[256];
  while (p && fgets(buf, sizeof buf, p)) out += buf;
  const int rc = p ? pclose(p) : -1;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::filesystem::remove_all(dir);
  if (rc != 0 || out.find("TB_DONE") == std::string::npos) return {{"error", "vvp failed: " + out}};
  return {{"cycles", cycles}, {"wall_s", wall}, {"board_cycles_per_s", double(cycles) / wall}};
#else
  (void)cycles;
  return {{"skipped", "iverilog was not found when this was built"}};
#endif
}

// The same verilated top (its core and its own link's port, as the board
// clocks them) with nothing around it: reset, then both clock phases per
// cycle from a bare loop, as any Verilator bench clocks it (`rising_only`:
// the low phase not evaluated, as the board does while its bus is idle,
// sim/board/model_clock.hpp). What the harness costs is the rest.
json bare_top_speed(uint64_t cycles, bool rising_only) {
  Vlightrail_board_core m;
  const std::unique_ptr<PortModel> port = PortModel::make(false);
  m.rst_ni = 0;
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = thread_cpu_s();
  for (uint64_t c = 0; c < cycles; ++c) {
    if (c == 4) m.rst_ni = 1;
    if (!rising_only || c == 0 || !model_clock::Clocks<Vlightrail_board_core___024root>::clk_low(*m.rootp)) {
      m.clk_i = 0;
      m.eval();
    }
    const PortInputs in = port_inputs(m);
    m.clk_i = 1;
    m.eval();
    port->edge(in);
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = thread_cpu_s() - cpu0;
  m.final();
  return {{"cycles", cycles},
          {"wall_s", wall},
          {"cpu_s", cpu},
          {"board_cycles_per_s", double(cycles) / wall},
          {"board_cycles_per_cpu_s", double(cycles) / cpu}};
}

// Runs this program again with `args`, from an argument vector rather than a
// shell command (its path may hold spaces), and parses the JSON it prints.
json run_self(const std::vector<std::string>& args) {
  static const char kSelf[] = "/proc/self/exe";
  std::string cmd = "lightrail-cosim";
  std::vector<char*> argv{const_cast<char*>(kSelf)};
  for (const std::string& a : args) {
    argv.push_back(const_cast<char*>(a.c_str()));
    cmd += " " + a;
  }
  argv.push_back(nullptr);
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("bench: " + cmd + ": no pipe");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, kSelf, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(out[1]);
  if (spawned != 0) {
    ::close(out[0]);
    throw std::runtime_error(fmt::format("bench: {}: could not start: {}", cmd, std::strerror(spawned)));
  }
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(out[0], buf, sizeof buf);
    if (n > 0)
      text.append(buf, size_t(n));
    else if (n == 0 || errno != EINTR)
      break;
  }
  ::close(out[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(fmt::format("bench: {} failed ({} {})", cmd,
                                         WIFEXITED(status) ? "exit status" : "signal",
                                         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status)));
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    throw std::runtime_error(fmt::format("bench: {} printed no JSON ({})", cmd, e.what()));
  }
}

// A board round's figure: a finite number above 0, or the round is refused.
double positive_figure(const json& round, const char* key, const std::string& which) {
  const json* v = round.contains(key) ? &round[key] : nullptr;
  if (v == nullptr || !v->is_number() || !std::isfinite(v->get<double>()) || !(v->get<double>() > 0))
    throw std::runtime_error(fmt::format("bench: {}: {} is not a positive number: {}", which, key,
                                         v == nullptr ? "missing" : v->dump()));
  return v->get<double>();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

json spread(const std::vector<double>& v) {
  return {{"min", *std::min_element(v.begin(), v.end())},
          {"median", median(v)},
          {"max", *std::max_element(v.begin(), v.end())}};
}

}  // namespace

json run_board_bench(uint64_t cycles) {
  // One board, a full bank of 16 ns steps uploaded through the driver, then
  // free running: the upload's wall time, then the speed without the host.
  Scenario sc;
  sc.path = "(bench)";
  sc.boards = 1;
  sc.schedules.emplace_back(
      "full", generate_schedule({{"steps", hwdef::MAX_STEPS}, {"step_ps", 16000}, {"configs", 64}}, "bench"));
  constexpr uint64_t kUploadAtPs = 100000000;  // after the host has opened the board
  Action upload;
  upload.at_ps = kUploadAtPs;
  upload.what = "upload";
  upload.schedule = "full";
  upload.commit = {{"in_ps", 20000000}};  // verifying a full bank takes ~8.5 us
  upload.where = "bench";
  sc.actions.push_back(upload);
  // The upload (~212 us of bus time) and its commit are done within this;
  // `cycles` of free running follow at least.
  constexpr uint64_t kUploadDonePs = kUploadAtPs + 250000000;
  sc.duration_ps = kUploadDonePs + cycles * hwdef::CLK_PERIOD_PS;
  const json r = run_scenario(sc);
  if (!r["host"]["errors"].empty())
    throw std::runtime_error("bench: the host failed: " + r["host"]["errors"].dump());

  // Host work (opening the board, the upload) is timed on its own; the
  // speed figure is the rest, where the board runs by itself.
  double host_wall = 0;
  uint64_t host_cycles = 0;
  for (const json& a : r["host"]["actions"]) {
    host_wall += a["wall_s"].get<double>();
    host_cycles += a["cycles"].get<uint64_t>();
  }
  const json& act = r["host"]["actions"].back();
  const uint64_t free_cycles = r["board_cycles"].get<uint64_t>() - host_cycles;
  const double wall = r["wall_s"].get<double>() - host_wall;
  // On CPU time: the simulation thread's, from the host's last action on,
  // like the wall figure.
  return {{"board_cycles_per_s", double(free_cycles) / wall},
          {"board_cycles_per_cpu_s",
           r["free_running"]["cycles"].get<double>() / r["free_running"]["cpu_s"].get<double>()},
          {"cycles", free_cycles},
          {"wall_s", wall},
          {"checks_ok", r["ok"]},
          {"switch_events", r["switch_events"]},
          {"upload_full_bank",
           {{"steps", hwdef::MAX_STEPS},
            {"wall_s", act["wall_s"]},
            {"sim_time_us", act["sim_ps"].get<double>() / 1e6},
            {"bus_cycles", act["cycles"]}}}};
}

json run_bench(const BenchOptions& o) {
  // The board and the bare top in alternating rounds, each board round in a
  // process of its own (SystemC elaborates once per process; the first runs
  // here): a shared machine's load comes and goes, and the median of the
  // rounds' ratios is what one load spike does not move.
  json cosim = run_board_bench(o.cycles);
  const json icarus = icarus_speed(o.cycles);
  json rounds = json::array(), bare, bare_rising;
  std::vector<double> cost, cost_rising, cost_wall;
  for (int k = 0; k < o.rounds; ++k) {
    const json board =
        k == 0 ? cosim : run_self({"bench", "--json", "--board-only", "--cycles", std::to_string(o.cycles)});
    const std::string which = fmt::format("board round {}", k + 1);
    if (!board.contains("checks_ok") || board["checks_ok"] != true)
      throw std::runtime_error(fmt::format("bench: {}: its checks failed", which));
    const double board_cpu = positive_figure(board, "board_cycles_per_cpu_s", which);
    const double board_wall = positive_figure(board, "board_cycles_per_s", which);
    bare = bare_top_speed(o.cycles, false);
    bare_rising = bare_top_speed(o.cycles, true);
    cost.push_back(bare["board_cycles_per_cpu_s"].get<double>() / board_cpu);
    cost_rising.push_back(bare_rising["board_cycles_per_cpu_s"].get<double>() / board_cpu);
    cost_wall.push_back(bare["board_cycles_per_s"].get<double>() / board_wall);
    rounds.push_back({{"board_cycles_per_cpu_s", board_cpu},
                      {"bare_top_cycles_per_cpu_s", bare["board_cycles_per_cpu_s"]},
                      {"bare_top_rising_only_cycles_per_cpu_s", bare_rising["board_cycles_per_cpu_s"]},
                      {"bare_over_cosim", cost.back()},
                      {"bare_rising_only_over_cosim", cost_rising.back()}});
  }
  const json upload = cosim["upload_full_bank"];
  cosim.erase("upload_full_bank");
  json out = {// The harness's cost, on the CPU time of the thread that ran each (a
              // shared machine's load cancels out), the median of the rounds; and
              // on wall time.
              {"bare_over_cosim", median(cost)},
              {"bare_over_cosim_rounds", spread(cost)},
              {"bare_over_cosim_wall", median(cost_wall)},
              // Against a bare loop that skips the low phase too (CPU time).
              {"bare_rising_only_over_cosim", median(cost_rising)},
              {"bare_rising_only_over_cosim_rounds", spread(cost_rising)},
              {"rounds", rounds},
              // The first round's figures in full, and the last round's bare tops.
              {"cosim", cosim},
              {"bare_top", bare},
              {"bare_top_rising_only", bare_rising},
              {"icarus", icarus},
              {"upload_full_bank", upload}};
  if (icarus.contains("board_cycles_per_s"))
    out["cosim_over_icarus"] =
        cosim["board_cycles_per_s"].get<double>() / icarus["board_cycles_per_s"].get<double>();

  // Clock distribution: a star of 2, 4, 8, 16 boards, each in its own
  // process (SystemC elaborates once per process); on the boards' ports up
  // to 8, the fast mode for 16 (more followers than a board has ports).
  json sync = json::array();
  for (int boards : {2, 4, 8, 16}) {
    try {
      sync.push_back(run_self({"bench", "--json", "--sync-boards", std::to_string(boards), "--sync-us",
                               std::to_string(o.sync_us)}));
    } catch (const std::exception& e) {
      sync.push_back({{"boards", boards}, {"error", e.what()}});
    }
  }
  out["sync"] = sync;

  // The timing link carried as words (issue 28): the same 2-board star with
  // the modelled exchange and with the boards' timing-link ports, in
  // alternating rounds, each in a process of its own; the cost is the
  // median of the rounds' ratios of simulated board cycles per CPU second
  // (the wall clock's ratio beside it).
  json link_rounds = json::array();
  std::vector<double> link_cost;
  for (int k = 0; k < std::max(1, o.rounds / 2); ++k) {
    try {
      json pair;
      for (const char* link : {"model", "rtl"})
        pair[link] = run_self({"bench", "--json", "--sync-boards", "2", "--sync-us",
                               std::to_string(o.sync_us), "--sync-link", link});
      link_cost.push_back(pair["model"]["board_cycles_per_cpu_s"].get<double>() /
                          pair["rtl"]["board_cycles_per_cpu_s"].get<double>());
      link_rounds.push_back({{"model_board_cycles_per_cpu_s", pair["model"]["board_cycles_per_cpu_s"]},
                             {"rtl_board_cycles_per_cpu_s", pair["rtl"]["board_cycles_per_cpu_s"]},
                             {"rtl_cost", link_cost.back()},
                             {"rtl_cost_wall", pair["model"]["board_cycles_per_s"].get<double>() /
                                                   pair["rtl"]["board_cycles_per_s"].get<double>()}});
    } catch (const std::exception& e) {
      link_rounds.push_back({{"error", e.what()}});
    }
  }
  out["sync_link"] = {{"boards", 2}, {"sim_us", o.sync_us}, {"rounds", link_rounds}};
  if (!link_cost.empty()) out["sync_link"]["rtl_cost"] = median(link_cost);
  return out;
}

json run_sync_bench(int boards, uint64_t us, const std::string& link) {
  Scenario sc;
  sc.path = "(sync bench)";
  sc.boards = boards;
  sc.duration_ps = us * 1000000;
  sc.sync.enabled = true;
  sc.sync.baseline = false;
  // The boards' ports where a star fits them (1 + SYNC_DOWN_PORTS followers),
  // else the fast mode, as a scenario must be told.
  sc.sync.link = !link.empty() ? link : boards <= int(hwdef::SYNC_DOWN_PORTS) + 2 ? "rtl" : "model";
  // Statistics from the 2 ms lock deadline on (a short run: its second half).
  sc.sync.measure_from_ps = std::min<int64_t>(int64_t(sc.duration_ps / 2), 2000000000);
  // CPU time of the whole process as well as wall time: on a shared
  // machine the wall clock counts other programs' time too.
  timespec c0{}, c1{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
  const json r = run_scenario(sc);
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
  const double cpu = double(c1.tv_sec - c0.tv_sec) + double(c1.tv_nsec - c0.tv_nsec) * 1e-9;
  const double wall = r["wall_s"].get<double>();
  const double cycles = r["board_cycles_per_s"].get<double>() * wall;
  return {{"boards", boards},
          {"link", sc.sync.link},
          {"sim_us", us},
          {"measure_from_us", double(sc.sync.measure_from_ps) * 1e-6},
          {"wall_s", wall},
          {"sim_us_per_wall_s", double(us) / wall},
          {"board_cycles_per_s", r["board_cycles_per_s"]},
          {"cpu_s", cpu},
          {"board_cycles_per_cpu_s", cycles / cpu},
          {"locked", r["sync"]["lock_time_us"].is_number()},
          {"lock_time_us", r["sync"]["lock_time_us"]},
          {"locked_over_window", r["sync"]["every_follower_locked_over_window"]},
          {"offset_ps", r["sync"]["offset_ps"]}};
}

}  // namespace lightrail::sim
