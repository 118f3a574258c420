// The board server: each simulated board's registers and memories on a
// loopback TCP port, in the line protocol of docs/cosim.md, with simulated-
// time semantics (a request completes when its bus cycles have run).
#pragma once

#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "board.hpp"
#include "host_link.hpp"

namespace lightrail::sim {

class BoardServer {
 public:
  // Binds 127.0.0.1:port (0: any free port) at once; serves from start().
  BoardServer(std::vector<Board*> boards, uint16_t port, HostLink& link);
  ~BoardServer();
  uint16_t port() const;
  void start();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lightrail::sim
