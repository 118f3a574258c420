// Shared between the simulation thread and the board server's thread:
// how many bus requests are in flight, when to stop, and (in `run` mode)
// the simulated time the host has allowed the simulation to reach.
#pragma once

#include <atomic>
#include <cstdint>
#include <limits>

namespace lightrail::sim {

struct HostLink {
  std::atomic<int> outstanding{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> ended{false};  // the simulation has returned; no cycle will run
  // The simulation does not pass this time while no bus request is in
  // flight: the host acts at a simulated instant, and time then advances only
  // by the bus cycles its requests take (deterministic runs).
  std::atomic<uint64_t> barrier_fs{std::numeric_limits<uint64_t>::max()};
  std::atomic<uint64_t> now_fs{0};  // simulated time, for threads outside SystemC

  bool must_wait(uint64_t now_fs) const {
    return now_fs >= barrier_fs.load(std::memory_order_acquire) &&
           outstanding.load(std::memory_order_acquire) == 0 && !stop.load(std::memory_order_relaxed);
  }
};

}  // namespace lightrail::sim
