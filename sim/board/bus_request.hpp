// A host request to one board's AXI4-Lite bus, handed from the server thread
// to the simulation thread and answered when its last beat completes in
// simulated time.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <future>
#include <mutex>
#include <string>
#include <vector>

namespace lightrail::sim {

struct BusRequest {
  enum class Kind { kRead, kWrite, kTime, kReport };
  Kind kind = Kind::kRead;
  uint32_t addr = 0;           // AXI byte address of the first word
  uint32_t count = 0;          // words to read
  std::vector<uint32_t> data;  // words to write
  struct Result {
    bool ok = true;
    std::string error;
    std::vector<uint32_t> data;  // words read; for kTime: {ticks lo, ticks hi}
    std::string text;            // kReport: the board's figures as JSON
    uint64_t sim_fs = 0;         // simulated time of the answer
    uint32_t axi_resp = 0;       // on a refused beat: its AXI response (2 SLVERR, 3 DECERR)
    uint32_t failed_word = 0;    // and its index: words before it were done, none after
  };
  std::promise<Result> done;
  // Called (in the simulation thread) once the answer is in `done`, so a
  // server can learn of it without a thread waiting per request.
  std::function<void()> notify;
  // Requests in flight, counted down by whoever answers (in the simulation
  // thread), so no cycle runs between the answer and the count.
  std::atomic<int>* in_flight = nullptr;
};

inline void answer(BusRequest* r, BusRequest::Result result) {
  // Taken first: once the answer is set, its owner may free the request.
  std::function<void()> notify = std::move(r->notify);
  if (r->in_flight) r->in_flight->fetch_sub(1, std::memory_order_acq_rel);
  r->done.set_value(std::move(result));
  if (notify) notify();
}

// Filled by the server thread, drained once per cycle by the board; the
// `pending` flag keeps the per-cycle cost of an idle queue to one load.
class BusQueue {
 public:
  // Counts the request in flight in the same step that makes it visible, so
  // a simulation waiting for host work never runs a cycle before it can see
  // the request (runs stay deterministic).
  void push(BusRequest* r) {
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(r);
    pending_.store(true, std::memory_order_release);
    if (r->in_flight) r->in_flight->fetch_add(1, std::memory_order_acq_rel);
  }
  // Takes a request back that no cycle has started yet.
  bool remove(BusRequest* r) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = items_.begin(); it != items_.end(); ++it) {
      if (*it != r) continue;
      items_.erase(it);
      if (r->in_flight) r->in_flight->fetch_sub(1, std::memory_order_acq_rel);
      pending_.store(!items_.empty(), std::memory_order_release);
      return true;
    }
    return false;
  }
  BusRequest* pop() {
    if (!pending_.load(std::memory_order_acquire)) return nullptr;
    std::lock_guard<std::mutex> lock(mu_);
    if (items_.empty()) return nullptr;
    BusRequest* r = items_.front();
    items_.erase(items_.begin());
    pending_.store(!items_.empty(), std::memory_order_release);
    return r;
  }

 private:
  std::mutex mu_;
  std::vector<BusRequest*> items_;
  std::atomic<bool> pending_{false};
};

}  // namespace lightrail::sim
