// An in-memory Service for the HTTP layer's tests, the fake daemon and the
// bench: jobs in a map, every call counted, optional hooks to block a call
// (queue tests) or do some work (bench). Shapes of its replies are its own;
// the real ones are Strategy's.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "http_server.hpp"
#include "service.hpp"

namespace lightrail::test {

class FakeService : public daemon::Service {
 public:
  using json = nlohmann::json;

  // Calls that change state (and did), and all calls.
  std::atomic<int> changes{0};
  std::atomic<int> submits{0}, phases{0}, replacements{0}, progresses{0}, lists{0}, gets{0}, removes{0},
      fabrics{0}, metrics_calls{0}, keepalives{0};
  // Called at the start of phase(), e.g. to block the worker.
  std::function<void()> on_phase;
  // Extra work per submit / phase (the bench).
  std::function<void(const json&)> submit_work;
  std::function<void(const json&)> phase_work;

  json recover() override { return {{"replayed", 0}}; }

  daemon::Submitted submit(const json& body, const daemon::Caller& caller) override {
    ++submits;
    seen(caller);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      submit_request_id_ = daemon::current_request_id();
    }
    if (!body.is_object() || !body.contains("job"))
      throw daemon::ApiError(400, "job", "the body must be {\"job\": {...}}");
    if (body["job"].is_object() && body["job"].value("name", "") == "conflict")
      throw daemon::ApiError(409, "job.name", "a job of that name holds the circuits");
    if (submit_work) submit_work(body);
    std::lock_guard<std::mutex> lock(mutex_);
    const std::string id = "job-" + std::to_string(++next_id_);
    jobs_[id] = {
        {"id", id}, {"state", "running"}, {"job", body["job"]}, {"phase", nullptr}, {"accuracy", 0.0}};
    if (body.contains("target_accuracy")) jobs_[id]["target_accuracy"] = body["target_accuracy"];
    if (body.contains("wait_for_circuits")) jobs_[id]["wait_for_circuits"] = body["wait_for_circuits"];
    ++changes;
    return {jobs_[id], false};
  }

  json phase(const std::string& id, const json& body, const daemon::Caller& caller) override {
    ++phases;
    seen(caller);
    if (on_phase) on_phase();
    std::lock_guard<std::mutex> lock(mutex_);
    auto& job = find(id);
    if (!body.is_object() || !body.contains("phase") ||
        !(body["phase"].is_string() || body["phase"].is_number_integer()))
      throw daemon::ApiError(400, "phase", "phase must be a phase name or index");
    if (phase_work) phase_work(body);
    job["phase"] = body["phase"];
    boundary_ps_ += 1'000'000;
    ++changes;
    return {{"id", id}, {"phase", body["phase"]}, {"boundary_ps", boundary_ps_}};
  }

  json replace_phases(const std::string& id, const json& body, const daemon::Caller& caller) override {
    ++replacements;
    seen(caller);
    std::lock_guard<std::mutex> lock(mutex_);
    auto& job = find(id);
    if (!body.is_object() || !body.contains("phases") || !body["phases"].is_array())
      throw daemon::ApiError(400, "phases", "phases must be an array");
    job["phases"] = body["phases"];
    ++changes;
    return job;
  }

  json progress(const std::string& id, const json& body, const daemon::Caller& caller) override {
    ++progresses;
    seen(caller);
    std::lock_guard<std::mutex> lock(mutex_);
    auto& job = find(id);
    if (!body.is_object() || !body.contains("accuracy") || !body["accuracy"].is_number())
      throw daemon::ApiError(400, "accuracy", "accuracy must be a number");
    job["accuracy"] = body["accuracy"];
    ++changes;
    return {{"id", id}, {"accuracy", body["accuracy"]}, {"circuits", "kept"}};
  }

  json list() override {
    ++lists;
    std::lock_guard<std::mutex> lock(mutex_);
    json out = json::array();
    for (const auto& [id, j] : jobs_)
      out.push_back({{"id", id}, {"state", j["state"]}, {"phase", j["phase"]}});
    return {{"jobs", out}};
  }

  json get(const std::string& id) override {
    ++gets;
    if (id == "explode") throw std::runtime_error("fake failure");
    std::lock_guard<std::mutex> lock(mutex_);
    return find(id);
  }

  json remove(const std::string& id, const daemon::Caller& caller) override {
    ++removes;
    seen(caller);
    std::lock_guard<std::mutex> lock(mutex_);
    find(id);
    jobs_.erase(id);
    ++changes;
    return {{"id", id}, {"removed", true}};
  }

  json fabric_state() override {
    ++fabrics;
    return {{"name", "fake"}, {"boards", json::array()}};
  }

  std::string metrics() override {
    ++metrics_calls;
    std::lock_guard<std::mutex> lock(mutex_);
    return "# TYPE fake_jobs gauge\nfake_jobs " + std::to_string(jobs_.size()) + "\n";
  }

  void keepalive() override { ++keepalives; }
  // What not_ready() says (GET /readyz).
  std::string not_ready_why;
  mutable std::mutex ready_mutex;
  std::string not_ready() const override {
    std::lock_guard<std::mutex> lock(ready_mutex);
    return not_ready_why;
  }
  void set_not_ready(std::string why) {
    std::lock_guard<std::mutex> lock(ready_mutex);
    not_ready_why = std::move(why);
  }

  // The caller of the last call that changes state, as the HTTP layer gave it.
  daemon::Caller last_caller() {
    std::lock_guard<std::mutex> lock(mutex_);
    return last_caller_;
  }

  // The request id the last submit() ran under (current_request_id()).
  std::string submit_request_id() {
    std::lock_guard<std::mutex> lock(mutex_);
    return submit_request_id_;
  }

  // The whole state, for before/after comparisons.
  json snapshot() {
    std::lock_guard<std::mutex> lock(mutex_);
    return {{"jobs", jobs_}, {"next", next_id_}, {"boundary_ps", boundary_ps_}};
  }

 private:
  json& find(const std::string& id) {
    auto it = jobs_.find(id);
    if (it == jobs_.end()) throw daemon::ApiError(404, "id", "no job " + id);
    return it->second;
  }

  void seen(const daemon::Caller& caller) {
    std::lock_guard<std::mutex> lock(mutex_);
    last_caller_ = caller;
  }

  std::mutex mutex_;  // the tests read snapshot() from their own thread
  daemon::Caller last_caller_;
  std::string submit_request_id_;
  std::map<std::string, json> jobs_;
  uint64_t next_id_ = 0;
  int64_t boundary_ps_ = 0;
};

}  // namespace lightrail::test
