// The strategy daemon's state: jobs on the fabric, their plans, commits,
// phase boundaries and FastConv allocation (docs/lightraild.md).
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "journal.hpp"
#include "lightrail/fabric.hpp"
#include "lightrail/planner/fabric.hpp"
#include "service.hpp"

namespace lightrail::daemon {

struct StrategyOptions {
  // The planner's model of the fabric (link rate, reconfiguration time,
  // EPS); mode, rails and radix are taken from the fabric file.
  planner::Fabric model;
  bool allow_unlocked = false;     // commit on boards whose clock is not locked (warns)
  double release_fraction = 0.85;  // FastConv: a job at this share of its target gives its circuits up
  int phase_wait_ms = 2000;        // how long a phase event waits for a latched boundary to resolve
  // Test hook (lightraild: LIGHTRAILD_TEST_CRASH=after_arm): the process
  // kills itself (SIGKILL) once every board of a commit is armed, before
  // the commit is journalled done, as a crash there would.
  bool crash_after_arm = false;
  // The daemon's board lease token: written back, with the journal, if the
  // state directory (the journal's) disappears under the daemon.
  uint32_t lease_token = 0;
  // Idempotency keys of submissions (docs/lightraild.md, "Safe retries"):
  // kept this long after their first use, and at most this many.
  int64_t idempotency_ttl_ms = 24LL * 3600 * 1000;
  size_t idempotency_max_keys = 10000;
  // Notable events (a warning line each); empty: silent.
  std::function<void(const std::string&)> log;
};

// Request bodies: POST /v1/jobs takes a job file as `lightrail plan` takes
// it, or {"job": {...}, "target_accuracy": x, "wait_for_circuits": bool};
// phase {"phase": NAME or INDEX}; progress {"accuracy": x}.
class Strategy : public Service {
 public:
  Strategy(Fabric& fabric, Journal& journal, StrategyOptions options);
  ~Strategy() override;

  nlohmann::json recover() override;
  Submitted submit(const nlohmann::json& body, const Caller& caller) override;
  nlohmann::json phase(const std::string& id, const nlohmann::json& body, const Caller& caller) override;
  nlohmann::json replace_phases(const std::string& id, const nlohmann::json& body,
                                const Caller& caller) override;
  nlohmann::json progress(const std::string& id, const nlohmann::json& body, const Caller& caller) override;
  nlohmann::json list() override;
  nlohmann::json get(const std::string& id) override;
  nlohmann::json remove(const std::string& id, const Caller& caller) override;
  nlohmann::json fabric_state() override;
  std::string metrics() override;
  void keepalive() override;
  std::string not_ready() const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lightrail::daemon
