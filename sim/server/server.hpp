// The board server: each simulated board's registers and memories on a
// loopback TCP port, in the line protocol of docs/cosim.md, with simulated-
// time semantics (a request completes when its bus cycles have run).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board/bus_request.hpp"
#include "host_link.hpp"

namespace lightrail::sim {

struct ServerOptions {
  // 0: no cap (in-process hosts). Either way lowered to what the descriptor
  // limit (RLIMIT_NOFILE) leaves beyond those open at start() and a reserve
  // (the report, `stop`'s connection). At the cap a new connection takes
  // the place of the oldest one that has sent nothing yet; refused only
  // when every open one has spoken.
  size_t max_connections = 0;
  std::chrono::milliseconds idle_timeout{0};  // 0: never
  std::string token;                          // non-empty: WR and SHUTDOWN need AUTH <token>
};

class BoardServer {
 public:
  // Binds 127.0.0.1:port (0: any free port) at once; serves from start(),
  // on one thread of its own, every connection asynchronously. Board b's
  // requests go to buses[b].
  BoardServer(std::vector<BusQueue*> buses, uint16_t port, HostLink& link, ServerOptions options = {});
  ~BoardServer();
  uint16_t port() const;
  void start();
  size_t max_connections() const;  // the cap in force (0: none), once started
  // Stops serving; call it while the simulation is not running.
  void stop();

  struct Impl;  // opaque; shared with the sessions in server.cpp

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace lightrail::sim
