#include "routes.hpp"

#include <fmt/format.h>

#include "lightrail/json_text.hpp"

namespace lightrail::daemon {

namespace {

bool id_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
         c == '_' || c == '~';
}

// For messages: what the client sent, escaped and cut short.
std::string shown(std::string_view s) {
  const std::string text(s.substr(0, 80));
  return printable(text) + (s.size() > 80 ? "..." : "");
}

}  // namespace

std::string job_id_problem(std::string_view id) {
  if (id.empty() || id.size() > kMaxJobIdBytes)
    return fmt::format("a job id has 1..{} characters (this one {})", kMaxJobIdBytes, id.size());
  for (char c : id)
    if (!id_char(c)) return fmt::format("\"{}\" is not a job id (A-Z a-z 0-9 - . _ ~ only)", shown(id));
  return "";
}

Target parse_target(std::string_view target) {
  Target t;
  auto refuse = [&](int status, std::string field, std::string message) {
    t.status = status;
    t.field = std::move(field);
    t.message = std::move(message);
    return t;
  };
  if (target.empty() || target.front() != '/')
    return refuse(400, "target",
                  fmt::format("\"{}\" is not a path (origin-form \"/v1/...\" only)", shown(target)));
  if (target.find('?') != std::string_view::npos || target.find('#') != std::string_view::npos)
    return refuse(400, "target", "query strings are not taken");
  if (target == "/v1/jobs") {
    t.route = Route::kJobs;
    return t;
  }
  if (target == "/v1/fabric") {
    t.route = Route::kFabric;
    return t;
  }
  if (target == "/metrics") {
    t.route = Route::kMetrics;
    return t;
  }
  if (target == "/healthz" || target == "/readyz" || target == "/v1/version") {
    t.route = target == "/healthz" ? Route::kHealthz : target == "/readyz" ? Route::kReadyz : Route::kVersion;
    return t;
  }
  constexpr std::string_view kJobs = "/v1/jobs/";
  if (target.substr(0, kJobs.size()) == kJobs) {
    std::string_view rest = target.substr(kJobs.size());
    const auto slash = rest.find('/');
    const std::string_view id = rest.substr(0, slash);
    const std::string_view tail = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
    if (tail.empty()) {
      t.route = Route::kJob;
    } else if (tail == "/phase") {
      t.route = Route::kJobPhase;
    } else if (tail == "/phases") {
      t.route = Route::kJobPhases;
    } else if (tail == "/progress") {
      t.route = Route::kJobProgress;
    } else {
      return refuse(404, "", fmt::format("no such path: {}", shown(target)));
    }
    if (id.empty()) return refuse(404, "", fmt::format("no such path: {}", shown(target)));
    if (std::string why = job_id_problem(id); !why.empty()) return refuse(400, "id", why);
    t.id = std::string(id);
    return t;
  }
  return refuse(404, "", fmt::format("no such path: {}", shown(target)));
}

const char* route_label(Route route) {
  switch (route) {
    case Route::kJobs:
      return "/v1/jobs";
    case Route::kJob:
      return "/v1/jobs/{id}";
    case Route::kJobPhase:
      return "/v1/jobs/{id}/phase";
    case Route::kJobPhases:
      return "/v1/jobs/{id}/phases";
    case Route::kJobProgress:
      return "/v1/jobs/{id}/progress";
    case Route::kFabric:
      return "/v1/fabric";
    case Route::kMetrics:
      return "/metrics";
    case Route::kHealthz:
      return "/healthz";
    case Route::kReadyz:
      return "/readyz";
    case Route::kVersion:
      return "/v1/version";
  }
  return "?";
}

const char* allowed_methods(Route route) {
  switch (route) {
    case Route::kJobs:
      return "GET, POST";
    case Route::kJob:
      return "GET, DELETE";
    case Route::kJobPhase:
    case Route::kJobPhases:
    case Route::kJobProgress:
      return "POST";
    case Route::kFabric:
    case Route::kMetrics:
    case Route::kHealthz:
    case Route::kReadyz:
    case Route::kVersion:
      return "GET";
  }
  return "";
}

std::optional<Call> call_of(Route route, std::string_view method) {
  const bool get = method == "GET", post = method == "POST", del = method == "DELETE";
  switch (route) {
    case Route::kJobs:
      if (get) return Call::kList;
      if (post) return Call::kSubmit;
      break;
    case Route::kJob:
      if (get) return Call::kGet;
      if (del) return Call::kRemove;
      break;
    case Route::kJobPhase:
      if (post) return Call::kPhase;
      break;
    case Route::kJobPhases:
      if (post) return Call::kReplacePhases;
      break;
    case Route::kJobProgress:
      if (post) return Call::kProgress;
      break;
    case Route::kFabric:
      if (get) return Call::kFabric;
      break;
    case Route::kMetrics:
      if (get) return Call::kMetrics;
      break;
    case Route::kHealthz:
      if (get) return Call::kHealthz;
      break;
    case Route::kReadyz:
      if (get) return Call::kReadyz;
      break;
    case Route::kVersion:
      if (get) return Call::kVersion;
      break;
  }
  return std::nullopt;
}

bool changes_state(Call call) {
  return call == Call::kSubmit || call == Call::kPhase || call == Call::kReplacePhases ||
         call == Call::kProgress || call == Call::kRemove;
}

bool takes_body(Call call) {
  return call == Call::kSubmit || call == Call::kPhase || call == Call::kReplacePhases ||
         call == Call::kProgress;
}

bool answered_at_once(Call call) {
  return call == Call::kHealthz || call == Call::kReadyz || call == Call::kVersion;
}

}  // namespace lightrail::daemon
