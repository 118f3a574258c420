#include "strategy.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "idempotency.hpp"
#include "journal_records.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "placement.hpp"
#include "state_files.hpp"

namespace lightrail::daemon {

namespace lp = lightrail::planner;
using nlohmann::json;

namespace {

enum class JobState {
  kRunning,  // on circuits: its boards run its schedules
  kWaiting,  // admitted, on the EPS until boards are free (wait_for_circuits)
  kEps,      // gave its circuits up (FastConv) and trains on on the EPS
};

const char* to_string(JobState s) {
  switch (s) {
    case JobState::kRunning:
      return "running";
    case JobState::kWaiting:
      return "waiting";
    case JobState::kEps:
      return "eps";
  }
  return "?";
}

struct Job {
  std::string id;
  json spec;  // the job file as accepted
  lp::Job job;
  std::optional<double> target;
  bool wait = false;
  JobState state = JobState::kWaiting;
  double accuracy = 0;
  std::optional<Placement> placement;
  int64_t commit_ps = 0;
  size_t next_phase = 0;
  uint64_t phase_events = 0;
  std::optional<int64_t> last_boundary_ps;
  std::string owner;         // the name of the token that submitted it ("": not recorded)
  std::string key;           // its Idempotency-Key ("": none)
  int64_t submitted_ms = 0;  // when it was submitted (Unix time, ms)
  // TRIGGERS of each placed board once its phase events so far resolved.
  std::map<size_t, uint32_t> triggers;
};

// Field path named by a planner or driver message ("job.gpus: ...").
std::string field_of(const std::string& message) {
  const auto colon = message.find(':');
  if (colon == std::string::npos || message.find(' ') < colon) return "";
  return message.substr(0, colon);
}

int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::optional<double> number_in(const json& j, double lo, double hi) {
  if (!j.is_number()) return std::nullopt;
  const double x = j.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) return std::nullopt;
  return x;
}

}  // namespace

struct Strategy::Impl {
  Fabric& fabric;
  Journal& journal;
  StrategyOptions options;
  DeviceCapabilities caps;
  std::map<std::string, Job> jobs;
  uint64_t next_job = 1;
  uint32_t next_generation = 1;
  std::set<uint32_t> issued;         // generations this daemon committed
  std::vector<std::string> owner;    // per board: the job running on it
  std::vector<std::string> blocked;  // per board: why no job may be placed there
  std::chrono::steady_clock::time_point last_keepalive{};
  IdempotencyKeys keys;
  uint64_t replays = 0;  // submissions answered from their Idempotency-Key
  // Counters for /metrics.
  uint64_t commits_ok = 0, commits_failed = 0, phase_events = 0, phase_errors = 0, moves = 0,
           recovered_cancelled = 0, recovered_stopped = 0;
  double boundary_lead_sum_s = 0;        // simulated request-to-boundary time, summed
  uint64_t state_restored = 0;           // times the state directory was written back from memory
  std::string state_problem;             // why the state directory cannot be written back (changes refused)
  std::vector<std::string> unreachable;  // per board: why the last keepalive could not reach it
  bool recovered = false;
  // What GET /readyz says, published for the I/O thread.
  mutable std::mutex ready_mutex;
  std::string ready_problem = "recovery has not finished";

  Impl(Fabric& f, Journal& j, StrategyOptions o)
      : fabric(f),
        journal(j),
        options(std::move(o)),
        owner(f.size()),
        blocked(f.size()),
        keys(options.idempotency_ttl_ms, options.idempotency_max_keys),
        unreachable(f.size()) {
    const auto all = fabric.capabilities();
    caps = all.empty() ? DeviceCapabilities::reference() : all.front();
  }

  const std::string& name(size_t b) const { return fabric.spec().boards[b].name; }

  std::vector<bool> free_mask() const {
    std::vector<bool> m(owner.size());
    for (size_t b = 0; b < m.size(); ++b) m[b] = owner[b].empty() && blocked[b].empty();
    return m;
  }

  Job& find(const std::string& id) {
    auto it = jobs.find(id);
    if (it == jobs.end()) throw ApiError(404, "", fmt::format("no job {}", printable(id)));
    return it->second;
  }

  // The job, if the caller may change it (403 naming its owner otherwise).
  Job& find_to_change(const std::string& id, const Caller& caller) {
    Job& j = find(id);
    if (const std::string why = may_change(caller, j.owner); !why.empty())
      throw ApiError(403, "", fmt::format("job {}: {}; nothing was done", j.id, why));
    return j;
  }

  // What a job's creating records carry beside the job: its owner and key.
  json with_origin(json record, const Job& j) const {
    record["owner"] = j.owner;
    if (!j.key.empty()) {
      record["idempotency_key"] = j.key;
      record["submitted_ms"] = j.submitted_ms;
    }
    return record;
  }

  std::vector<size_t> boards_of(const Job& j) const {
    std::vector<size_t> out;
    if (j.placement)
      for (const PlacedBoard& pb : j.placement->boards) out.push_back(pb.board);
    return out;
  }

  json board_names(const std::vector<size_t>& boards) const {
    json out = json::array();
    for (size_t b : boards) out.push_back(name(b));
    return out;
  }

  json job_json(const Job& j) const {
    json out{{"id", j.id},
             {"name", j.job.name},
             {"state", to_string(j.state)},
             {"gpus", j.job.gpus},
             {"accuracy", j.accuracy},
             {"boards", board_names(boards_of(j))},
             {"phase_events", j.phase_events}};
    out["target_accuracy"] = j.target ? json(*j.target) : json(nullptr);
    out["owner"] = j.owner.empty() ? json(nullptr) : json(j.owner);
    out["next_phase"] = j.job.phases.empty() ? json(nullptr) : json(j.job.phases[j.next_phase].name);
    // Every field of the documented shape, null when it does not apply (a
    // job waiting or on the EPS has no plan on the boards).
    out["plan"] = j.placement ? j.placement->summary : json(nullptr);
    out["generation"] = j.placement ? j.placement->summary["generation"] : json(nullptr);
    out["commit_ps"] = j.placement ? json(j.commit_ps) : json(nullptr);
    out["last_boundary_ps"] = j.last_boundary_ps ? json(*j.last_boundary_ps) : json(nullptr);
    return out;
  }

  // Gates low on the boards and wait until they are idle, so the next
  // commit there starts at its time (a STOP drops a pending commit).
  void stop_boards(const std::vector<size_t>& boards) {
    for (size_t b : boards) {
      try {
        fabric.device(b).stop();
      } catch (const Error& e) {
        blocked[b] = fmt::format("stop failed: {}", e.what());
      }
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    for (size_t b : boards) {
      if (!blocked[b].empty()) continue;
      try {
        while (fabric.device(b).status().running) {
          if (std::chrono::steady_clock::now() > deadline) {
            blocked[b] = "still running 10 s after a stop";
            break;
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
      } catch (const Error& e) {
        blocked[b] = fmt::format("status after stop failed: {}", e.what());
      }
    }
  }

  // Places the job on free boards and commits it on all of them at one
  // time. PlacementError when it does not fit; ApiError when the commit did
  // not happen (then no board of it runs the job).
  void commit_job(Job& j) {
    const uint32_t gen = next_generation;
    Placement pl = place_job(j.job, fabric.spec(), caps, options.model, free_mask(), gen);
    ++next_generation;
    issued.insert(gen);
    std::vector<size_t> boards;
    for (const PlacedBoard& pb : pl.boards) boards.push_back(pb.board);
    journal.append(with_origin({{"type", "commit_intent"},
                                {"id", j.id},
                                {"job", j.spec},
                                {"target_accuracy", j.target ? json(*j.target) : json(nullptr)},
                                {"wait_for_circuits", j.wait},
                                {"generation", gen},
                                {"boards", boards}},
                               j));
    if (boards.empty()) {
      // The planner keeps every phase electrical (circuits pay for none):
      // the job runs with no board, and no circuit moves.
      journal.append(
          {{"type", "commit_done"}, {"id", j.id}, {"generation", gen}, {"ok", true}, {"commit_ps", 0}});
      j.commit_ps = 0;
      j.placement = std::move(pl);
      j.state = JobState::kRunning;
      j.next_phase = 0;
      return;
    }
    FabricCommitOptions o;
    o.allow_unlocked = options.allow_unlocked;
    o.wait_for_swap = !options.crash_after_arm;
    FabricCommitReport report;
    try {
      report = fabric.commit(pl.assignments(), o);
      if (options.crash_after_arm && report.committed) ::raise(SIGKILL);
    } catch (const ValidationError& e) {
      journal.append({{"type", "commit_done"}, {"id", j.id}, {"generation", gen}, {"ok", false}});
      ++commits_failed;
      throw ApiError(409, "", fmt::format("the plan does not pass the fabric's checks:\n{}", e.what()));
    } catch (const Error& e) {  // refused before anything was written (clocks not locked)
      journal.append({{"type", "commit_done"}, {"id", j.id}, {"generation", gen}, {"ok", false}});
      ++commits_failed;
      throw ApiError(409, "", e.what());
    }
    if (report.committed) {
      journal.append({{"type", "commit_done"},
                      {"id", j.id},
                      {"generation", gen},
                      {"ok", true},
                      {"commit_ps", to_ps(report.commit_time)}});
      ++commits_ok;
      j.commit_ps = to_ps(report.commit_time);
      j.placement = std::move(pl);
      j.state = JobState::kRunning;
      j.next_phase = 0;
      for (size_t b : boards) {
        owner[b] = j.id;
        try {
          j.triggers[b] = fabric.device(b).status().triggers;
        } catch (const Error&) {
          j.triggers[b] = 0;
        }
      }
      return;
    }
    // Nothing of the job may run on part of its boards: what switched is
    // stopped; what the board could not tell is kept off limits.
    std::vector<size_t> switched;
    std::string unknown;
    for (const BoardCommitReport& r : report.boards) {
      if (r.outcome == BoardOutcome::kSwitched || r.outcome == BoardOutcome::kArmed)
        switched.push_back(r.board);
      if (r.outcome == BoardOutcome::kUnknown) {
        blocked[r.board] = "its state after a failed commit is unknown: " + r.error;
        unknown += " " + name(r.board);
      }
    }
    stop_boards(switched);
    journal.append(
        {{"type", "commit_done"}, {"id", j.id}, {"generation", gen}, {"ok", false}, {"stopped", switched}});
    ++commits_failed;
    std::string msg = fmt::format("the commit failed and no board runs the job: {}", report.error);
    if (!switched.empty())
      msg += fmt::format(" (T had passed on {} board(s), which switched and were stopped)", switched.size());
    if (!unknown.empty()) msg += "; state unknown, kept out of use:" + unknown;
    throw ApiError(502, "", msg);
  }

  // FastConv: free boards go to the waiting jobs furthest from their target.
  json allocate() {
    std::vector<Job*> waiting;
    for (auto& [id, j] : jobs)
      if (j.state == JobState::kWaiting) waiting.push_back(&j);
    auto progress = [](const Job* j) { return j->accuracy / j->target.value_or(1.0); };
    std::stable_sort(waiting.begin(), waiting.end(),
                     [&](const Job* a, const Job* b) { return progress(a) < progress(b); });
    json placed = json::array();
    for (Job* j : waiting) {
      try {
        commit_job(*j);
        placed.push_back(j->id);
        ++moves;
      } catch (const PlacementError&) {
        // stays on the EPS until more boards are free
      } catch (const ApiError&) {
        // the commit failed and changed nothing: it keeps waiting
      }
    }
    return placed;
  }

  void release(Job& j) {
    journal.append({{"type", "release"}, {"id", j.id}});
    const std::vector<size_t> boards = boards_of(j);
    stop_boards(boards);
    for (size_t b : boards) owner[b].clear();
    j.placement.reset();
    j.triggers.clear();
  }

  // Whether the job is near its target (FastConv's release rule).
  bool converged(const Job& j) const {
    return j.target && j.accuracy >= options.release_fraction * *j.target;
  }

  Submitted submit(const json& body, const Caller& caller) {
    if (!body.is_object()) throw ApiError(400, "", "the body must be a JSON object (a job file)");
    json spec = body;
    Job j;
    if (body.contains("job")) {
      for (const auto& [k, v] : body.items()) {
        if (k != "job" && k != "target_accuracy" && k != "wait_for_circuits")
          throw ApiError(
              400, k,
              fmt::format("unknown field {} (job, target_accuracy, wait_for_circuits)", printable(k)));
      }
      spec = body["job"];
      if (body.contains("target_accuracy")) {
        j.target = number_in(body["target_accuracy"], 0, 1);
        if (!j.target || *j.target <= 0) throw ApiError(400, "target_accuracy", "a number in (0, 1]");
      }
      if (body.contains("wait_for_circuits")) {
        if (!body["wait_for_circuits"].is_boolean())
          throw ApiError(400, "wait_for_circuits", "true or false");
        j.wait = body["wait_for_circuits"].get<bool>();
      }
    }
    const int64_t now = unix_ms();
    if (!caller.idempotency_key.empty())
      if (const auto k = keys.find(caller.name, caller.idempotency_key, now)) return replay(*k, spec, j);
    ensure_state();
    try {
      j.job = lp::job_from_json(spec);
    } catch (const std::invalid_argument& e) {
      throw ApiError(400, field_of(e.what()), e.what());
    }
    j.spec = spec;
    j.owner = caller.name;
    j.key = caller.idempotency_key;
    j.submitted_ms = now;
    j.id = fmt::format("j{}", next_job++);
    try {
      commit_job(j);
    } catch (const PlacementError& e) {
      if (!(e.fits_later && j.wait)) throw ApiError(409, e.field, e.what());
      j.state = JobState::kWaiting;
      journal.append(with_origin({{"type", "admit"},
                                  {"id", j.id},
                                  {"job", j.spec},
                                  {"target_accuracy", j.target ? json(*j.target) : json(nullptr)},
                                  {"wait_for_circuits", j.wait}},
                                 j));
    }
    if (!j.key.empty()) keys.remember({j.owner, j.key, j.id, now}, now);
    const std::string id = j.id;
    jobs.emplace(id, std::move(j));
    return {job_json(jobs.at(id)), false};
  }

  // A submission whose key was used before: the job it made, if the request
  // is the same (the job file, target and waiting); nothing is done.
  Submitted replay(const RememberedKey& k, const json& spec, const Job& asked) {
    const auto it = jobs.find(k.id);
    if (it == jobs.end())
      throw ApiError(409, "Idempotency-Key",
                     fmt::format("key {} made job {}, which has been deleted since; nothing was done (a new "
                                 "submission needs a new key)",
                                 printable(k.key), k.id));
    const Job& j = it->second;
    if (j.spec != spec || j.target != asked.target || j.wait != asked.wait)
      throw ApiError(422, "Idempotency-Key",
                     fmt::format("key {} made job {} from another request body; nothing was done (another "
                                 "job needs another key)",
                                 printable(k.key), k.id));
    ++replays;
    return {job_json(j), true};
  }

  size_t phase_index(const Job& j, const json& body) const {
    if (!body.is_object() || !body.contains("phase"))
      throw ApiError(400, "phase", "missing ({\"phase\": NAME or INDEX})");
    for (const auto& [k, v] : body.items())
      if (k != "phase") throw ApiError(400, k, fmt::format("unknown field {} (phase)", printable(k)));
    const json& p = body["phase"];
    if (p.is_number_integer()) {
      // Unsigned first: a huge index must not wrap into range.
      const bool in_range = p.is_number_unsigned()
                                ? p.get<uint64_t>() < j.job.phases.size()
                                : p.get<int64_t>() >= 0 && size_t(p.get<int64_t>()) < j.job.phases.size();
      if (in_range) return p.is_number_unsigned() ? size_t(p.get<uint64_t>()) : size_t(p.get<int64_t>());
      throw ApiError(
          400, "phase",
          fmt::format("index {} out of range, the job has {} phases", p.dump(), j.job.phases.size()));
    }
    if (p.is_string()) {
      for (size_t i = 0; i < j.job.phases.size(); ++i)
        if (j.job.phases[i].name == p.get<std::string>()) return i;
      throw ApiError(400, "phase",
                     fmt::format("the job has no phase \"{}\"", printable(p.get<std::string>())));
    }
    throw ApiError(400, "phase", fmt::format("a name or an index, not {}", json_type_name(p)));
  }

  // One boundary on every board given, at one board time: a plain trigger
  // that ends the event step each board waits at (`targets` empty), or a
  // jump to targets[i] on boards[i]. Waits (bounded) until every board
  // waits at an event step (`at_step`: that one) so all take the told time
  // exactly; one still in a phase's rounds latches it instead. Checks that
  // every board took it, at one time, into the step it was to take (a
  // jump's target). Throws ApiError (502) otherwise.
  struct Taken {
    int64_t boundary_ps = 0;
    FabricTriggerReport report;
  };
  Taken take_boundary(Job& j, size_t p, const std::vector<size_t>& boards,
                      const std::vector<std::optional<uint32_t>>& at_step,
                      const std::vector<std::optional<uint32_t>>& targets) {
    const auto wait_deadline =
        std::chrono::steady_clock::now() + std::chrono::milliseconds(options.phase_wait_ms);
    for (size_t i = 0; i < boards.size(); ++i) {
      for (;;) {
        Status s;
        try {
          s = fabric.device(boards[i]).status();
        } catch (const Error& e) {
          ++phase_errors;
          throw ApiError(502, "", fmt::format("board {}: {}", name(boards[i]), e.what()));
        }
        if (s.waiting_trigger && (!at_step[i] || s.cur_step == *at_step[i])) break;
        if (!s.running) {
          ++phase_errors;
          throw ApiError(502, "", fmt::format("board {} no longer runs the job's schedule", name(boards[i])));
        }
        if (std::chrono::steady_clock::now() > wait_deadline) break;  // latch it: it resolves at the step
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }
    const FabricTriggerReport r = fabric.trigger(boards, std::nullopt, targets);
    bool board_failed = r.board_boundary.size() != boards.size();
    for (const std::string& e : r.board_errors) board_failed |= !e.empty();
    if (board_failed || (!r.error.empty() && r.board_boundary.empty())) {
      ++phase_errors;
      throw ApiError(502, "", fmt::format("the phase trigger failed: {}", r.error));
    }
    // A latched trigger resolves when the board reaches an event step (it
    // was still in the previous phase's rounds).
    std::vector<int64_t> at(boards.size());
    std::vector<std::string> counts(boards.size());
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.phase_wait_ms);
    for (size_t i = 0; i < boards.size(); ++i) {
      const size_t b = boards[i];
      const uint32_t expect = j.triggers[b] + 1;
      const bool direct = i < r.board_boundary.size() && r.board_boundary[i];
      for (;;) {
        Status s;
        try {
          s = fabric.device(b).status();
        } catch (const Error& e) {
          ++phase_errors;
          throw ApiError(502, "", fmt::format("board {}: {}", name(b), e.what()));
        }
        if (s.triggers >= expect) {
          at[i] = to_ps(s.last_trigger);
          counts[i] = fmt::format("{}->{}", expect - 1, s.triggers);
          if (direct && to_ps(*r.board_boundary[i]) != at[i])
            counts[i] += fmt::format(" direct {}", to_ps(*r.board_boundary[i]));
          j.triggers[b] = s.triggers;
          if (!targets.empty() && s.triggers == expect && s.last_trigger_step != *targets[i]) {
            ++phase_errors;
            throw ApiError(502, "",
                           fmt::format("board {} went into step {}, not step {} (phase \"{}\")", name(b),
                                       s.last_trigger_step, *targets[i], printable(j.job.phases[p].name)));
          }
          break;
        }
        if (std::chrono::steady_clock::now() > deadline) {
          ++phase_errors;
          throw ApiError(
              502, "",
              fmt::format("board {} latched the trigger but did not reach phase \"{}\" within {} ms", name(b),
                          printable(j.job.phases[p].name), options.phase_wait_ms));
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    }
    for (size_t i = 1; i < at.size(); ++i) {
      if (at[i] != at[0]) {
        ++phase_errors;
        std::string each;
        for (size_t k = 0; k < boards.size(); ++k) {
          const bool direct = k < r.board_boundary.size() && r.board_boundary[k];
          each += fmt::format("; {} at {} ps ({}, triggers {})", name(boards[k]), at[k],
                              direct ? "resolved at once" : "latched", counts[k]);
        }
        if (r.window && *r.window >= r.margin)
          each += fmt::format("; telling them took {} ps of board time against a {} ps margin",
                              to_ps(*r.window), to_ps(r.margin));
        throw ApiError(502, "",
                       fmt::format("boards took different boundaries for phase \"{}\" (told {} ps){}",
                                   printable(j.job.phases[p].name), to_ps(r.at), each));
      }
    }
    return {at[0], r};
  }

  json phase(const std::string& id, const json& body, const Caller& caller) {
    Job& j = find_to_change(id, caller);
    const size_t p = phase_index(j, body);
    json out{{"id", j.id}, {"phase", j.job.phases[p].name}, {"index", p}};
    if (j.state != JobState::kRunning) {
      // Nothing to switch: the job runs on the EPS.
      out["circuits"] = false;
      out["boundary_ps"] = nullptr;
      return out;
    }
    // The phase the boards wait for, or any other: then they jump to it.
    const bool declared = p == j.next_phase;
    out["order"] = declared ? "declared" : "jump";
    out["waiting_for"] = j.job.phases[j.next_phase].name;
    std::vector<size_t> boards;
    std::vector<std::optional<uint32_t>> steps;
    for (const PlacedBoard& pb : j.placement->boards) {
      if (!pb.phase_step[p]) continue;
      boards.push_back(pb.board);
      steps.push_back(pb.phase_step[p]);
    }
    // What the planner chose for this phase: an electrical one moves no
    // circuits (its boards hold the previous phase's).
    const json& chosen = j.placement->summary["phases"][p];
    out["network"] = chosen["network"];
    out["algorithm"] = chosen["algorithm"];
    out["circuits"] = !boards.empty();
    out["boards"] = board_names(boards);
    if (boards.empty()) {  // no rail carries this phase: no boundary to take
      j.next_phase = (p + 1) % j.job.phases.size();
      out["boundary_ps"] = nullptr;
      return out;
    }
    // Out of order, the boards first jump from the event step they wait at
    // to the phase's own event step, which sets up its circuits (its
    // minimum duration covers the reconfiguration); the phase's rounds then
    // start at a second boundary, as in the declared order, so boundary_ps
    // always means: this phase's circuits are up.
    out["jump_boundary_ps"] = nullptr;
    if (!declared) {
      const std::vector<std::optional<uint32_t>> any(boards.size());
      const Taken jumped = take_boundary(j, p, boards, any, steps);
      out["jump_boundary_ps"] = jumped.boundary_ps;
    }
    const Taken taken = take_boundary(j, p, boards, steps, {});
    const FabricTriggerReport& r = taken.report;
    j.next_phase = (p + 1) % j.job.phases.size();
    ++j.phase_events;
    ++phase_events;
    j.last_boundary_ps = taken.boundary_ps;
    const int64_t requested = to_ps(r.at - r.margin);
    boundary_lead_sum_s += double(taken.boundary_ps - requested) * 1e-12;
    out["boundary_ps"] = taken.boundary_ps;
    out["requested_board_ps"] = requested;
    out["trigger_margin_ps"] = to_ps(r.margin);
    out["trigger_window_ps"] = r.window ? json(to_ps(*r.window)) : json(nullptr);
    out["latched"] = !(r.boundary.has_value());
    return out;
  }

  // The job with other phases, all or nothing: validated in full, planned
  // on the job's boards and the free ones, then committed as at submission
  // (journalled by that commit, or a `phases` record for a job with no
  // boards). Refused (400 naming the field, 409 when it does not fit):
  // nothing changes and the old phases run on.
  json replace_phases(const std::string& id, const json& body, const Caller& caller) {
    Job& j = find_to_change(id, caller);
    ensure_state();
    if (!body.is_object() || !body.contains("phases"))
      throw ApiError(400, "phases", "missing ({\"phases\": [...]}, as in a job file)");
    for (const auto& [k, v] : body.items())
      if (k != "phases") throw ApiError(400, k, fmt::format("unknown field {} (phases)", printable(k)));
    json spec = j.spec;
    spec["phases"] = body["phases"];
    lp::Job replaced;
    try {
      replaced = lp::job_from_json(spec);
    } catch (const std::invalid_argument& e) {
      // The planner names job.phases[...]: in this body that is phases[...].
      std::string msg = e.what(), field = field_of(msg);
      if (field.rfind("job.phases", 0) == 0) field = field.substr(4);
      throw ApiError(400, field, msg);
    }
    if (j.state != JobState::kRunning) {
      journal.append({{"type", "phases"}, {"id", j.id}, {"job", spec}});
      j.spec = std::move(spec);
      j.job = std::move(replaced);
      j.next_phase = 0;
      allocate();  // a waiting job may fit now
      return job_json(j);
    }
    // Planned before any board is touched: a plan that does not fit the
    // job's boards and the free ones changes nothing.
    std::vector<bool> usable = free_mask();
    for (size_t b : boards_of(j)) usable[b] = blocked[b].empty();
    try {
      place_job(replaced, fabric.spec(), caps, options.model, usable, next_generation);
    } catch (const PlacementError& e) {
      throw ApiError(409, e.field,
                     fmt::format("the new phases do not fit: {}; the old phases run on", e.what()));
    }
    json old_spec = j.spec;
    lp::Job old_job = j.job;
    const std::vector<size_t> old_boards = boards_of(j);
    stop_boards(old_boards);
    for (size_t b : old_boards) owner[b].clear();
    j.placement.reset();
    j.triggers.clear();
    j.spec = std::move(spec);
    j.job = std::move(replaced);
    auto restore = [&](int status, const std::string& field, const std::string& why) {
      // The old phases back on the boards, so the job is as it was.
      j.spec = std::move(old_spec);
      j.job = std::move(old_job);
      std::string back = "the old phases were committed again";
      try {
        commit_job(j);
      } catch (const std::exception& e) {
        journal.append({{"type", "release"}, {"id", j.id}});
        j.state = JobState::kEps;
        back = fmt::format("the old phases could not be committed again ({}): the job trains on the EPS",
                           e.what());
      }
      return ApiError(status, field, fmt::format("{}; {}", why, back));
    };
    try {
      commit_job(j);
    } catch (const ApiError& e) {
      throw restore(e.status, e.field, e.what());
    } catch (const PlacementError& e) {  // a board its stop left blocked
      throw restore(409, e.field, e.what());
    }
    allocate();  // boards the new plan left free
    return job_json(j);
  }

  json progress(const std::string& id, const json& body, const Caller& caller) {
    Job& j = find_to_change(id, caller);
    ensure_state();
    if (!body.is_object() || !body.contains("accuracy"))
      throw ApiError(400, "accuracy", "missing ({\"accuracy\": x}, x in 0..1)");
    for (const auto& [k, v] : body.items())
      if (k != "accuracy") throw ApiError(400, k, fmt::format("unknown field {} (accuracy)", printable(k)));
    const auto x = number_in(body["accuracy"], 0, 1);
    if (!x) throw ApiError(400, "accuracy", fmt::format("a number in 0..1, not {}", body["accuracy"].dump()));
    j.accuracy = *x;
    journal.append({{"type", "progress"}, {"id", j.id}, {"accuracy", j.accuracy}});
    json moved = json::array();
    bool someone_waits = false;
    for (const auto& [k, o] : jobs) someone_waits |= o.state == JobState::kWaiting;
    if (j.state == JobState::kRunning && converged(j) && someone_waits) {
      release(j);
      j.state = JobState::kEps;
      moved = allocate();
    }
    json out = job_json(j);
    out["circuits_to"] = moved;
    return out;
  }

  json remove(const std::string& id, const Caller& caller) {
    Job& j = find_to_change(id, caller);
    ensure_state();
    journal.append({{"type", "delete"}, {"id", id}});
    if (j.placement) release(j);
    jobs.erase(id);
    return {{"deleted", id}, {"circuits_to", allocate()}};
  }

  json list() const {
    json out = json::array();
    for (const auto& [id, j] : jobs) out.push_back(job_json(j));
    return {{"jobs", out}};
  }

  json fabric_state() {
    json boards = json::array();
    for (const FabricBoardState& s : fabric.status()) {
      const FabricBoard& fb = fabric.spec().boards[s.board];
      json b{{"name", fb.name}, {"uri", fb.uri}, {"rail", fb.rail}, {"reachable", s.reachable}};
      b["job"] = owner[s.board].empty() ? json(nullptr) : json(owner[s.board]);
      if (!blocked[s.board].empty()) b["blocked"] = blocked[s.board];
      if (!s.reachable) {
        b["error"] = s.error;
      } else {
        b["running"] = s.status.running;
        b["generation"] = s.status.generation;
        b["commit_pending"] = s.status.commit_pending || s.status.verify_busy;
        b["errors"] = s.status.errors;
        b["missed"] = s.status.missed;
        b["board_time_ps"] = to_ps(s.status.board_time);
        b["sync"] = {{"state", s.sync.state}, {"locked", s.sync.locked}, {"offset_ps", s.sync.offset_ps}};
        b["lease"] = {{"owner", s.lease.owner}, {"mine", s.lease.mine}};
      }
      boards.push_back(b);
    }
    size_t free = 0;
    for (bool f : free_mask()) free += f;
    return {{"name", fabric.spec().name}, {"boards", boards}, {"free_boards", free}};
  }

  std::string metrics() const {
    std::map<std::string, int> states{{"running", 0}, {"waiting", 0}, {"eps", 0}};
    for (const auto& [id, j] : jobs) ++states[to_string(j.state)];
    size_t free = 0, blocked_n = 0;
    for (bool f : free_mask()) free += f;
    for (const auto& b : blocked) blocked_n += !b.empty();
    std::string m;
    m += "# HELP lightraild_jobs Jobs by state.\n# TYPE lightraild_jobs gauge\n";
    for (const auto& [s, n] : states) m += fmt::format("lightraild_jobs{{state=\"{}\"}} {}\n", s, n);
    m += fmt::format(
        "# HELP lightraild_boards Boards of the fabric by use.\n# TYPE lightraild_boards gauge\n"
        "lightraild_boards{{use=\"free\"}} {}\nlightraild_boards{{use=\"blocked\"}} {}\n"
        "lightraild_boards{{use=\"job\"}} {}\n",
        free, blocked_n, owner.size() - free - blocked_n);
    m += fmt::format(
        "# HELP lightraild_commits_total Fabric commits by result.\n# TYPE lightraild_commits_total counter\n"
        "lightraild_commits_total{{result=\"ok\"}} {}\nlightraild_commits_total{{result=\"failed\"}} {}\n",
        commits_ok, commits_failed);
    m += fmt::format(
        "# HELP lightraild_phase_events_total Phase boundaries taken by every board of the job.\n"
        "# TYPE lightraild_phase_events_total counter\nlightraild_phase_events_total {}\n",
        phase_events);
    m += fmt::format(
        "# HELP lightraild_phase_errors_total Phase events refused or failed.\n"
        "# TYPE lightraild_phase_errors_total counter\nlightraild_phase_errors_total {}\n",
        phase_errors);
    m += fmt::format(
        "# HELP lightraild_phase_boundary_lead_seconds Board time from a phase request to its "
        "boundary.\n# TYPE lightraild_phase_boundary_lead_seconds summary\n"
        "lightraild_phase_boundary_lead_seconds_sum {:.12g}\nlightraild_phase_boundary_lead_seconds_count "
        "{}\n",
        boundary_lead_sum_s, phase_events);
    m += fmt::format(
        "# HELP lightraild_fastconv_moves_total Jobs given circuits freed by another.\n"
        "# TYPE lightraild_fastconv_moves_total counter\nlightraild_fastconv_moves_total {}\n",
        moves);
    m += fmt::format(
        "# HELP lightraild_recovered_total What recovery did to boards.\n"
        "# TYPE lightraild_recovered_total counter\nlightraild_recovered_total{{action=\"cancelled\"}} {}\n"
        "lightraild_recovered_total{{action=\"stopped\"}} {}\n",
        recovered_cancelled, recovered_stopped);
    m += fmt::format(
        "# HELP lightraild_state_ok Whether the journal can take changes (0: its directory is gone and "
        "cannot be written back; changes get 503).\n# TYPE lightraild_state_ok gauge\nlightraild_state_ok "
        "{}\n"
        "# HELP lightraild_state_restored_total Times the deleted state directory was written back from "
        "memory.\n# TYPE lightraild_state_restored_total counter\nlightraild_state_restored_total {}\n",
        state_problem.empty() ? 1 : 0, state_restored);
    m += fmt::format(
        "# HELP lightraild_idempotency_keys Idempotency keys remembered (bounded by count and age).\n"
        "# TYPE lightraild_idempotency_keys gauge\nlightraild_idempotency_keys {}\n"
        "# HELP lightraild_idempotent_replays_total Submissions answered with the job an earlier request "
        "with the same key made.\n# TYPE lightraild_idempotent_replays_total counter\n"
        "lightraild_idempotent_replays_total {}\n",
        keys.size(), replays);
    // Every board in every state, 1 for the one it is in (Prometheus'
    // enum shape), so a dashboard can alert on "blocked" by board.
    m += "# HELP lightraild_board_state The use of each board: free, job, blocked or unreachable.\n"
         "# TYPE lightraild_board_state gauge\n";
    for (size_t b = 0; b < owner.size(); ++b) {
      const char* now = !unreachable[b].empty() ? "unreachable"
                        : !blocked[b].empty()   ? "blocked"
                        : !owner[b].empty()     ? "job"
                                                : "free";
      for (const char* st : {"free", "job", "blocked", "unreachable"})
        m += fmt::format("lightraild_board_state{{board=\"{}\",state=\"{}\"}} {}\n", name(b), st,
                         std::string(st) == now ? 1 : 0);
    }
    m += "# HELP lightraild_journal_fsync_seconds How long each journal record's fsync took.\n"
         "# TYPE lightraild_journal_fsync_seconds histogram\n";
    m += journal.fsync_latency().lines("lightraild_journal_fsync_seconds");
    return m;
  }

  void keepalive() {
    try {
      ensure_state();  // noticed within a keepalive even when no change comes
    } catch (const ApiError&) {
      // logged once; changes are refused until it can be written back
    }
    publish_readiness();
    const auto now = std::chrono::steady_clock::now();
    // A third of the lease's lifetime: renewed well before it runs out.
    if (now - last_keepalive < Device::kDefaultLeaseTtl / 3) return;
    last_keepalive = now;
    for (size_t b = 0; b < fabric.size(); ++b) {
      try {
        fabric.device(b).claim();
        unreachable[b].clear();
        if (blocked[b].rfind("lease:", 0) == 0) blocked[b].clear();
      } catch (const LeaseError& e) {
        unreachable[b].clear();
        if (owner[b].empty()) blocked[b] = fmt::format("lease: held by another writer ({})", e.what());
      } catch (const Error& e) {
        // fabric_state() says so too; the next keepalive retries
        unreachable[b] = e.what();
      }
    }
    publish_readiness();
  }

  json recover();
  std::vector<json> snapshot() const;

  // Ready: recovery done, the journal takes changes, every board answered
  // the last keepalive.
  void publish_readiness() {
    std::string why;
    if (!recovered) why = "recovery has not finished";
    if (why.empty() && !state_problem.empty()) why = "the journal cannot take changes: " + state_problem;
    for (size_t b = 0; why.empty() && b < unreachable.size(); ++b)
      if (!unreachable[b].empty()) why = fmt::format("board {} is unreachable: {}", name(b), unreachable[b]);
    std::lock_guard<std::mutex> lock(ready_mutex);
    ready_problem = why;
  }

  void log(const std::string& line) const {
    if (options.log) options.log(line);
  }

  // Every change is journalled first. With the journal's file deleted (the
  // state directory removed under the daemon) a change would be lost at the
  // next start, with every job and the boards' lease token. The daemon
  // still holds both: it writes them back, or refuses the change.
  void ensure_state() {
    if (journal.linked()) {
      state_problem.clear();
      return;
    }
    const std::string dir = journal.path().substr(0, journal.path().rfind('/') + 1);
    try {
      struct stat st {};
      if (::stat(journal.path().c_str(), &st) == 0)
        throw std::runtime_error(journal.path() + " is another file now (another daemon's?)");
      ensure_state_dir(dir);
      const std::string lease_file = dir + "lease-token";
      if (::stat(lease_file.c_str(), &st) == 0) {
        if (load_or_create_lease_token(lease_file) != options.lease_token)
          throw std::runtime_error(lease_file + " holds another lease token now");
      } else {
        write_lease_token(lease_file, options.lease_token);
      }
      journal.rewrite(snapshot());
    } catch (const std::exception& e) {
      if (state_problem.empty())
        log(fmt::format("the journal {} is gone and cannot be written back: {}; changes are refused",
                        journal.path(), e.what()));
      state_problem = e.what();
      throw ApiError(503, "",
                     fmt::format("the daemon's journal {} is gone and cannot be written back ({}); nothing "
                                 "was done",
                                 journal.path(), state_problem));
    }
    ++state_restored;
    state_problem.clear();
    log(
        fmt::format("the journal {} was deleted under the daemon; wrote it back from memory ({} jobs) "
                    "with the lease token",
                    journal.path(), jobs.size()));
  }
};

// The journal's records for the state as it stands: the generations and
// job ids already used, then one per job.
std::vector<json> Strategy::Impl::snapshot() const {
  // The generations and job ids already used stay used: the only record of
  // the deleted jobs' ids. First, so that it is never the last line (which
  // the journal drops when torn) once anything is appended.
  std::vector<json> snapshot{{{"type", "generation"}, {"next", next_generation}, {"next_job", next_job}}};
  // Keys of deleted jobs (a live job's key is in its own record).
  for (const RememberedKey& k : keys.all())
    if (!jobs.count(k.id)) snapshot.push_back(IdempotencyKeys::record(k));
  for (const auto& [id, j] : jobs) {
    const json base = with_origin({{"id", id},
                                   {"job", j.spec},
                                   {"target_accuracy", j.target ? json(*j.target) : json(nullptr)},
                                   {"wait_for_circuits", j.wait}},
                                  j);
    if (j.state == JobState::kRunning) {
      json in = base;
      in["type"] = "commit_intent";
      in["generation"] = j.placement->summary["generation"];
      in["boards"] = boards_of(j);
      snapshot.push_back(in);
      snapshot.push_back(
          {{"type", "commit_done"}, {"id", id}, {"generation", in["generation"]}, {"ok", true}});
    } else {
      json ad = base;
      ad["type"] = "admit";
      snapshot.push_back(ad);
      if (j.state == JobState::kEps) snapshot.push_back({{"type", "release"}, {"id", id}});
    }
    if (j.accuracy > 0) snapshot.push_back({{"type", "progress"}, {"id", id}, {"accuracy", j.accuracy}});
  }
  return snapshot;
}

json Strategy::Impl::recover() {
  // Replay: the jobs and the last commit of each.
  struct Intent {
    uint32_t generation = 0;
    std::vector<size_t> boards;
    std::optional<bool> ok;  // commit_done seen
  };
  std::map<std::string, Intent> intents;
  std::map<std::string, json> admitted;  // id -> the record that admitted it
  std::map<std::string, size_t> admitted_line;
  std::set<std::string> deleted, released;
  std::map<std::string, double> accuracy;
  std::vector<RememberedKey> gone_keys;  // idempotency_key records
  // Every complete line is one record: record i is line i + 1.
  auto damaged = [&](size_t line, const std::string& why) {
    return std::runtime_error(fmt::format("journal {}: line {} is not a record this daemon writes ({}): {}",
                                          journal.path(), line, why,
                                          printable(journal.records()[line - 1].dump().substr(0, 300))));
  };
  for (size_t line = 1; line <= journal.records().size(); ++line) {
    const json& r = journal.records()[line - 1];
    if (const std::string why = record_problem(r, fabric.size()); !why.empty()) throw damaged(line, why);
    const std::string type = r.value("type", "");
    const std::string id = r.value("id", "");
    if (id.size() > 1 && id[0] == 'j' && id.find_first_not_of("0123456789", 1) == std::string::npos &&
        id.size() < 18)
      next_job = std::max<uint64_t>(next_job, std::stoull(id.substr(1)) + 1);
    if (type == "commit_intent") {
      Intent in;
      in.generation = r.at("generation").get<uint32_t>();
      in.boards = r.at("boards").get<std::vector<size_t>>();
      intents[id] = in;
      issued.insert(in.generation);
      next_generation = std::max(next_generation, in.generation + 1);
      if (!admitted.count(id)) {
        admitted[id] = r;
        admitted_line[id] = line;
      }
      admitted[id]["job"] = r.at("job");  // the phases of its last commit (replace_phases)
      released.erase(id);
    } else if (type == "commit_done") {
      if (intents.count(id)) intents[id].ok = r.at("ok").get<bool>();
    } else if (type == "admit") {
      admitted[id] = r;
      admitted_line[id] = line;
    } else if (type == "release") {
      released.insert(id);
    } else if (type == "delete") {
      deleted.insert(id);
    } else if (type == "progress") {
      accuracy[id] = r.at("accuracy").get<double>();
    } else if (type == "phases") {
      if (admitted.count(id)) admitted[id]["job"] = r.at("job");
    } else if (type == "idempotency_key") {
      gone_keys.push_back(*IdempotencyKeys::from_record(r));
    } else if (type == "generation") {
      next_generation = std::max(next_generation, r.at("next").get<uint32_t>());
      next_job = std::max(next_job, r.at("next_job").get<uint64_t>());
    }
  }
  json actions = json::array();
  std::vector<FabricBoardState> state = fabric.status();
  std::vector<bool> accounted(fabric.size(), false);
  auto board_gen = [&](size_t b) -> std::optional<uint32_t> {
    if (!state[b].reachable) return std::nullopt;
    return state[b].status.generation;
  };
  for (auto& [id, rec] : admitted) {
    if (deleted.count(id)) continue;
    Job j;
    j.id = id;
    j.spec = rec.at("job");
    try {
      j.job = lp::job_from_json(j.spec);
    } catch (const std::exception& e) {
      throw damaged(admitted_line[id], std::string("its job: ") + e.what());
    }
    if (rec.contains("target_accuracy") && rec["target_accuracy"].is_number())
      j.target = rec["target_accuracy"].get<double>();
    j.wait = rec.value("wait_for_circuits", false);
    j.owner = rec.value("owner", "");
    j.key = rec.value("idempotency_key", "");
    j.submitted_ms = rec.value("submitted_ms", int64_t(0));
    j.accuracy = accuracy.count(id) ? accuracy[id] : 0;
    j.state = JobState::kWaiting;
    auto in = intents.find(id);
    const bool had_commit = in != intents.end();
    if (had_commit && in->second.ok == false) {
      std::vector<size_t> stop;
      for (size_t b : in->second.boards)
        if (board_gen(b) == in->second.generation && state[b].status.running) stop.push_back(b);
      stop_boards(stop);
      recovered_stopped += stop.size();
      if (!j.wait) continue;
    } else if (had_commit && !released.count(id)) {
      Intent& it = in->second;
      // Cancel what is still armed: a commit not journalled as done is not
      // known to have reached every board.
      bool all_switched = true, any_switched = false;
      for (size_t b : it.boards) {
        accounted[b] = true;
        const bool mine = board_gen(b) == it.generation && state[b].status.running;
        if (!it.ok.value_or(false) && (state[b].status.commit_pending || state[b].status.verify_busy)) {
          const auto c = fabric.cancel({b});
          ++recovered_cancelled;
          actions.push_back({{"board", name(b)}, {"action", "cancelled"}, {"job", id}});
          const bool swapped = !c.empty() && c.front().outcome == BoardOutcome::kSwitched;
          all_switched &= swapped;
          any_switched |= swapped;
          continue;
        }
        all_switched &= mine;
        any_switched |= mine;
      }
      if (all_switched && it.ok.value_or(true)) {
        // Runs as journalled (or its commit reached every board before the crash).
        std::vector<bool> only(fabric.size(), false);
        for (size_t b : it.boards) only[b] = true;
        Placement pl = place_job(j.job, fabric.spec(), caps, options.model, only, it.generation);
        j.placement = std::move(pl);
        j.state = JobState::kRunning;
        for (size_t b : it.boards) {
          owner[b] = id;
          j.triggers[b] = state[b].status.triggers;
        }
        // The next phase: after the one whose event step the boards are at
        // (a job the planner keeps electrical has no board: it starts over).
        const PlacedBoard* first = j.placement->boards.empty() ? nullptr : &j.placement->boards.front();
        const uint32_t cur = first ? state[first->board].status.cur_step : 0;
        size_t last = j.job.phases.size();
        for (size_t p = 0; first && p < first->phase_step.size(); ++p)
          if (first->phase_step[p] && *first->phase_step[p] <= cur) last = p;
        if (last == j.job.phases.size()) {
          j.next_phase = 0;
        } else {
          const bool waiting = state[first->board].status.waiting_trigger && *first->phase_step[last] == cur;
          j.next_phase = waiting ? last : (last + 1) % j.job.phases.size();
        }
        if (!it.ok) {
          journal.append({{"type", "commit_done"}, {"id", id}, {"generation", it.generation}, {"ok", true}});
        }
        actions.push_back({{"job", id}, {"action", "runs"}, {"generation", it.generation}});
      } else {
        std::vector<size_t> stop;
        for (size_t b : it.boards)
          if (board_gen(b) == it.generation) stop.push_back(b);
        stop_boards(stop);
        recovered_stopped += stop.size();
        journal.append({{"type", "commit_done"}, {"id", id}, {"generation", it.generation}, {"ok", false}});
        actions.push_back({{"job", id},
                           {"action", any_switched ? "stopped a partial commit" : "commit undone"},
                           {"stopped", board_names(stop)}});
        if (!j.wait) {  // the submitter was told nothing or a failure: not admitted
          continue;
        }
      }
    } else if (released.count(id)) {
      j.state = JobState::kEps;
      if (had_commit) {
        std::vector<size_t> stop;
        for (size_t b : in->second.boards)
          if (board_gen(b) == in->second.generation && state[b].status.running) stop.push_back(b);
        stop_boards(stop);
        recovered_stopped += stop.size();
      }
    }
    jobs.emplace(id, std::move(j));
  }
  // Boards no job accounts for: an armed commit is cancelled; one of our
  // own generations still running is stopped; anything else is another
  // writer's and stays off limits.
  for (size_t b = 0; b < fabric.size(); ++b) {
    if (!owner[b].empty()) continue;
    if (!state[b].reachable) {
      blocked[b] = "unreachable at start: " + state[b].error;
      continue;
    }
    const Status& s = state[b].status;
    if (s.commit_pending || s.verify_busy) {
      fabric.cancel({b});
      ++recovered_cancelled;
      actions.push_back({{"board", name(b)}, {"action", "cancelled"}});
    }
    if (s.running && issued.count(s.generation)) {
      stop_boards({b});
      ++recovered_stopped;
      actions.push_back({{"board", name(b)}, {"action", "stopped"}, {"generation", s.generation}});
    } else if (s.running) {
      blocked[b] = fmt::format("runs generation {}, not committed by this daemon", s.generation);
    }
  }
  // Keys: those of the jobs kept and of the jobs deleted by a request (a
  // retry of theirs must not make them again). A job recovery dropped was
  // never answered 201, so its key is free for the retry.
  const int64_t now = unix_ms();
  for (const RememberedKey& k : gone_keys) keys.remember(k, now);
  for (const auto& [id, rec] : admitted)
    if (rec.contains("idempotency_key") && (jobs.count(id) || deleted.count(id)))
      keys.remember({rec.value("owner", ""), rec["idempotency_key"].get<std::string>(), id,
                     rec.value("submitted_ms", int64_t(0))},
                    now);
  // The journal from here on: one record per job as it stands.
  journal.rewrite(snapshot());
  json placed = allocate();
  for (size_t b = 0; b < fabric.size(); ++b)
    if (!state[b].reachable) unreachable[b] = state[b].error;
  recovered = true;
  publish_readiness();
  return {{"jobs", jobs.size()}, {"actions", actions}, {"placed", placed}};
}

Strategy::Strategy(Fabric& fabric, Journal& journal, StrategyOptions options)
    : impl_(std::make_unique<Impl>(fabric, journal, std::move(options))) {}
Strategy::~Strategy() = default;

json Strategy::recover() { return impl_->recover(); }
Submitted Strategy::submit(const json& body, const Caller& caller) { return impl_->submit(body, caller); }
json Strategy::phase(const std::string& id, const json& body, const Caller& caller) {
  return impl_->phase(id, body, caller);
}
json Strategy::replace_phases(const std::string& id, const json& body, const Caller& caller) {
  return impl_->replace_phases(id, body, caller);
}
json Strategy::progress(const std::string& id, const json& body, const Caller& caller) {
  return impl_->progress(id, body, caller);
}
json Strategy::list() { return impl_->list(); }
json Strategy::get(const std::string& id) { return impl_->job_json(impl_->find(id)); }
json Strategy::remove(const std::string& id, const Caller& caller) { return impl_->remove(id, caller); }
json Strategy::fabric_state() { return impl_->fabric_state(); }
std::string Strategy::metrics() { return impl_->metrics(); }
void Strategy::keepalive() { impl_->keepalive(); }
std::string Strategy::not_ready() const {
  std::lock_guard<std::mutex> lock(impl_->ready_mutex);
  return impl_->ready_problem;
}

}  // namespace lightrail::daemon
