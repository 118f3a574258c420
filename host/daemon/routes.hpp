// The daemon's routes: a request target and method to the Service call it
// asks for, or why it names none. Pure (no sockets), so it can be tested and
// fuzzed on its own.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace lightrail::daemon {

// Job ids in paths: 1..kMaxJobIdBytes characters of A-Z a-z 0-9 - . _ ~
// (URL-unreserved, so an id never needs percent-encoding).
inline constexpr size_t kMaxJobIdBytes = 128;

enum class Route {
  kJobs,
  kJob,
  kJobPhase,
  kJobPhases,
  kJobProgress,
  kFabric,
  kMetrics,
  kHealthz,
  kReadyz,
  kVersion
};
enum class Call {
  kSubmit,
  kPhase,
  kReplacePhases,
  kProgress,
  kList,
  kGet,
  kRemove,
  kFabric,
  kMetrics,
  kHealthz,
  kReadyz,
  kVersion
};

struct Target {
  // 0: a route; else 404 (no such path) or 400 (not a path this server
  // takes: a query, an absolute URI, a malformed id), with field and why.
  int status = 0;
  Route route = Route::kJobs;
  std::string id;       // kJob, kJobPhase, kJobPhases, kJobProgress
  std::string field;    // "target" or "id", when status is 400
  std::string message;  // when status is not 0
};

Target parse_target(std::string_view target);

// "" when `id` may be a job id, else why not.
std::string job_id_problem(std::string_view id);

// The route's pattern for logs and metrics labels: "/v1/jobs/{id}/phase".
const char* route_label(Route route);
// Its methods, for 405's Allow header: "GET, POST".
const char* allowed_methods(Route route);
// The call a method asks of a route; nullopt: not allowed (405).
std::optional<Call> call_of(Route route, std::string_view method);
// POST and DELETE: they need the bearer token.
bool changes_state(Call call);
// POST: the body is a JSON document the call takes.
bool takes_body(Call call);
// Answered by the HTTP layer at once, never queued behind the worker.
bool answered_at_once(Call call);

}  // namespace lightrail::daemon
