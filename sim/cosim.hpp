// N simulated boards under one SystemC kernel at 1 fs resolution, each
// clocked by its own process, with the board server in front of them.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "board.hpp"
#include "host_link.hpp"
#include "server/server.hpp"
#include "sync.hpp"

namespace lightrail::sim {

struct CosimOptions {
  int boards = 1;
  uint16_t port = 0;  // 0: any free loopback port
  BoardOptions board;
  std::string waveform_prefix;  // FST per board: <prefix><board>.fst; empty: none
  SyncOptions sync;             // clock distribution; off: ideal 250 MHz clocks
  ServerOptions server;         // limits and token of the board server
};

double thread_cpu_s();  // CPU time of the calling thread, in s

class Cosim {
 public:
  // Elaborates (once per process: a SystemC rule) and starts serving.
  explicit Cosim(const CosimOptions& options);
  ~Cosim();

  uint16_t port() const { return server_->port(); }
  HostLink& link() { return link_; }
  // Runs until `until_fs` of simulated time, or until a SHUTDOWN request.
  void run(std::optional<uint64_t> until_fs);
  uint64_t sim_fs() const;
  double wall_s() const { return wall_s_; }
  // The simulation thread's CPU time in run(), less its waits for the host.
  double cpu_s() const { return cpu_s_; }

  // The report's common part: per-board figures and their totals.
  nlohmann::json report() const;
  bool correct() const;

 private:
  struct Clock;
  void calibrate();
  void advance(std::optional<uint64_t> fs);  // sc_start for `fs` (none: until stopped)
  nlohmann::json sync_report() const;
  HostLink link_;
  std::unique_ptr<SyncEngine> sync_;
  std::vector<std::unique_ptr<Board>> boards_;
  std::vector<std::unique_ptr<Clock>> clocks_;
  std::unique_ptr<BoardServer> server_;
  double wall_s_ = 0, cpu_s_ = 0, wait_cpu_s_ = 0, free_cpu_s_ = 0;
  uint64_t free_cycles_ = 0;
  std::pair<double, uint64_t> free_from_{0, 0};  // see Clock::tick
  uint64_t end_fs_ = 0;  // where the running sc_start ends: board clocks batch cycles up to it
};

}  // namespace lightrail::sim
