// What the daemon's HTTP layer serves (docs/lightraild.md): one method per
// route. The HTTP layer calls it from one worker thread only, so an
// implementation needs no locking; ApiError becomes an error reply.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>

#include "caller.hpp"

namespace lightrail::daemon {

// A request refused: the HTTP status, the offending field (a JSON path into
// the request body such as "job.phases[2].bytes", or "" when the refusal is
// not about one field) and why.
struct ApiError : std::runtime_error {
  ApiError(int status, std::string field, const std::string& message)
      : std::runtime_error(message), status(status), field(std::move(field)) {}
  int status;  // 400 bad field, 403 not the caller's job, 404 no such job, 409 conflict, 422 a key reused,
               // 502 a board failed
  std::string field;
};

// What POST /v1/jobs answered: the job, and whether it is the one an
// earlier request with the same Idempotency-Key made (a replay: nothing new
// was done).
struct Submitted {
  nlohmann::json job;
  bool replayed = false;
};

class Service {
 public:
  virtual ~Service() = default;
  // At start-up, before serving: replays the journal against the boards;
  // returns what it did (logged).
  virtual nlohmann::json recover() = 0;
  // The calls that change state get the caller (a token's name and role,
  // its Idempotency-Key): the job records its owner, and a caller may change
  // only what its role allows (ApiError 403 naming the owner otherwise).
  virtual Submitted submit(const nlohmann::json& body, const Caller& caller) = 0;  // POST /v1/jobs
  virtual nlohmann::json phase(const std::string& id, const nlohmann::json& body,
                               const Caller& caller) = 0;  // POST .../phase
  // Replaces a job's phases ({"phases": [...]}), all or nothing.
  virtual nlohmann::json replace_phases(const std::string& id, const nlohmann::json& body,
                                        const Caller& caller) = 0;  // POST .../phases
  virtual nlohmann::json progress(const std::string& id, const nlohmann::json& body,
                                  const Caller& caller) = 0;                       // POST .../progress
  virtual nlohmann::json list() = 0;                                               // GET /v1/jobs
  virtual nlohmann::json get(const std::string& id) = 0;                           // GET /v1/jobs/{id}
  virtual nlohmann::json remove(const std::string& id, const Caller& caller) = 0;  // DELETE /v1/jobs/{id}
  virtual nlohmann::json fabric_state() = 0;                                       // GET /v1/fabric
  // Prometheus text exposition lines of the service's own counters and
  // gauges (the HTTP layer adds its own).
  virtual std::string metrics() = 0;
  // Called about once a second between requests: renew board leases.
  virtual void keepalive() = 0;
  // Why the service is not ready to serve changes ("" when it is): for GET
  // /readyz. Called from the I/O thread at any time, beside the worker's
  // calls: it must be thread-safe and must not block on a board.
  virtual std::string not_ready() const { return ""; }
};

}  // namespace lightrail::daemon
