// The strategy daemon's state: jobs on the fabric, their plans, commits,
// phase boundaries and FastConv allocation (docs/lightraild.md). The HTTP
// layer turns requests into these calls and ApiError into error replies.
// Not thread-safe: the daemon calls it from one worker thread only.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "journal.hpp"
#include "lightrail/fabric.hpp"
#include "lightrail/planner/fabric.hpp"

namespace lightrail::daemon {

// A request the strategy refuses: the HTTP status, the offending field (a
// JSON path into the request body, or "" when not about one field) and why.
struct ApiError : std::runtime_error {
  ApiError(int status, std::string field, const std::string& message)
      : std::runtime_error(message), status(status), field(std::move(field)) {}
  int status;  // 400 bad field, 404 no such job, 409 conflict, 502 a board failed
  std::string field;
};

struct StrategyOptions {
  // The planner's model of the fabric (link rate, reconfiguration time,
  // EPS); mode, rails and radix are taken from the fabric file.
  planner::Fabric model;
  bool allow_unlocked = false;     // commit on boards whose clock is not locked (warns)
  double release_fraction = 0.85;  // FastConv: a job at this share of its target gives its circuits up
  int phase_wait_ms = 2000;        // how long a phase event waits for a latched boundary to resolve
};

class Strategy {
 public:
  Strategy(Fabric& fabric, Journal& journal, StrategyOptions options);

  // Replays the journal against the boards (their generations, pending
  // commits and leases) and reaches one consistent state: jobs whose commit
  // was confirmed run on; a commit journalled but not confirmed is
  // completed if every board swapped, else cancelled (or its boards
  // stopped, if some had swapped and others not). Returns what it did.
  nlohmann::json recover();

  // POST /v1/jobs: body = a job file as `lightrail plan` takes it, or
  // {"job": {...}, "target_accuracy": x, "wait_for_circuits": bool}.
  // Returns the job (as get()) with its plan summary and commit time.
  nlohmann::json submit(const nlohmann::json& body);
  // POST /v1/jobs/{id}/phase: {"phase": NAME or INDEX}.
  nlohmann::json phase(const std::string& id, const nlohmann::json& body);
  // POST /v1/jobs/{id}/progress: {"accuracy": x}.
  nlohmann::json progress(const std::string& id, const nlohmann::json& body);
  nlohmann::json list() const;                      // GET /v1/jobs
  nlohmann::json get(const std::string& id) const;  // GET /v1/jobs/{id}
  nlohmann::json remove(const std::string& id);     // DELETE /v1/jobs/{id}
  nlohmann::json fabric_state();                    // GET /v1/fabric
  // Prometheus text exposition of the strategy's counters and gauges.
  std::string metrics() const;
  // Renews the leases on every board (the server calls it about once a
  // second, so no other writer can take a board the daemon runs).
  void keepalive();

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

}  // namespace lightrail::daemon
