// N simulated boards under one SystemC kernel at 1 fs resolution, each
// clocked by its own process, with the board server in front of them.
// Under mpirun the boards are split over the job's processes, each with its
// SystemC kernel, and run in windows (docs/cosim.md, "Partitioned over
// processes"); rank 0 serves every board.
#pragma once

#include <chrono>
#include <cstdint>
#include <future>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "board/board.hpp"
#include "host_link.hpp"
#include "link/partition.hpp"
#include "link/sync.hpp"
#include "server/server.hpp"

namespace lightrail::sim {

struct CosimOptions {
  int boards = 1;
  uint16_t port = 0;  // 0: any free loopback port
  BoardOptions board;
  std::string waveform_prefix;  // FST per board: <prefix><board>.fst; empty: none
  SyncOptions sync;             // clock distribution; off: ideal 250 MHz clocks
  ServerOptions server;         // limits and token of the board server
  // How long the run will be (fs; 0: not known, taken as an hour): how far
  // a partitioned run must look ahead for fibre delays that drift.
  uint64_t horizon_fs = 0;
};

double thread_cpu_s();  // CPU time of the calling thread, in s
long max_rss_kib();     // the process's peak resident memory, KiB (-1: unknown)

class Cosim {
 public:
  // Elaborates (once per process: a SystemC rule) and starts serving.
  explicit Cosim(const CosimOptions& options);
  ~Cosim();

  // The board server's port (rank 0 only: the other ranks serve nothing).
  uint16_t port() const { return server_ ? server_->port() : 0; }
  bool serves() const { return bool(server_); }
  HostLink& link() { return link_; }
  // Runs until `until_fs` of simulated time, or until a SHUTDOWN request.
  void run(std::optional<uint64_t> until_fs);
  uint64_t sim_fs() const;
  double wall_s() const { return wall_s_; }
  // The simulation thread's CPU time in run(), less its waits for the host.
  double cpu_s() const { return cpu_s_; }

  // The report's common part: per-board figures and their totals. Every
  // rank calls it; rank 0 gets the whole report, the others null.
  nlohmann::json report() const;

 private:
  struct Clock;
  void calibrate();
  void advance(std::optional<uint64_t> fs);  // sc_start for `fs` (none: until stopped)
  bool correct() const;                      // this process's boards
  nlohmann::json sync_report(const std::vector<nlohmann::json>& parts) const;
  // Partitioned: one window boundary. Clock history and host answers go
  // round; rank 0 waits for the host if it must and hands out its requests.
  // False: the run stops here.
  bool boundary(bool host, bool at_end);
  void end_requests();
  Board* local(int id) const;

  const Partition& part_;
  uint64_t window_fs_ = 0;                            // partitioned: each window's length, at most
  uint64_t next_window_fs_ = 0;                       // the next one's, as rank 0 said at the boundary
  std::vector<std::unique_ptr<BusQueue>> mailboxes_;  // partitioned, rank 0: the server's queue per board
  std::map<uint64_t, BusRequest*> forwarded_;         // rank 0: handed out, not answered yet
  uint64_t next_request_ = 0;
  struct Incoming {
    uint64_t id;
    std::unique_ptr<BusRequest> req;
    std::future<BusRequest::Result> done;
  };
  std::vector<Incoming> incoming_;  // from rank 0 to this process's boards, not answered yet
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
