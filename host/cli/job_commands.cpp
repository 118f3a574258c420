// `lightrail job ...`: jobs on the strategy daemon, lightraild
// (docs/lightraild.md), over its HTTP API.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "commands.hpp"
#include "daemon_client.hpp"
#include "lightrail/json_document.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/token_file.hpp"
#include "routes.hpp"

namespace lightrail::cli {
namespace {

using nlohmann::json;

struct JobOptions {
  std::string daemon, token_file, file, id, phase;
  std::optional<double> target_accuracy;
  double accuracy = 0;
  bool wait_for_circuits = false;
  bool json = false;
  int timeout_ms = 120000;
};

// The daemon's answer to a refused request, as an exit code: the request's
// fault (1), the token (5), busy or a conflict with nothing done (4), the
// daemon or a board failing (3).
int exit_of(int status) {
  if (status == 401) return kUnauthorized;
  if (status == 409 || status == 503) return kBoardBusy;
  if (status >= 400 && status < 500) return kInvalidInput;
  return kDeviceError;
}

// A reply but a list without --json: one line, its id first, then every field that is
// a number, a string, a boolean or a list of strings as key=value (the
// schema and version stay in the JSON); printable on a terminal whatever
// the daemon's strings hold.
std::string summary_line(const json& j) {
  if (!j.is_object()) return printable(j.dump());
  auto text = [](const json& v) { return printable(v.is_string() ? v.get<std::string>() : v.dump()); };
  std::string line = j.contains("id") ? text(j["id"]) : "";
  for (const auto& [key, v] : j.items()) {
    if (key == "id" || key == "schema" || key == "version" || v.is_null() || v.is_object()) continue;
    std::string value;
    if (v.is_array()) {
      if (!std::all_of(v.begin(), v.end(), [](const json& x) { return x.is_string(); })) continue;
      for (const auto& x : v) value += (value.empty() ? "" : ",") + text(x);
    } else {
      value = text(v);
    }
    line += fmt::format("{}{}={}", line.empty() ? "" : "  ", printable(key), value);
  }
  return line;
}

std::string text_of(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

int run(const JobOptions& o, const std::string& method, const std::string& target,
        const std::optional<json>& body) {
  if (!o.id.empty())
    if (const std::string why = daemon::job_id_problem(o.id); !why.empty())
      throw std::invalid_argument("job id: " + why);
  if (o.daemon.empty())
    throw CLI::ValidationError(
        "--daemon", "the daemon's URL is needed: --daemon http://127.0.0.1:PORT or LIGHTRAILD_URL");
  DaemonUrl url;
  try {
    url = parse_daemon_url(o.daemon);
  } catch (const std::invalid_argument& e) {
    throw CLI::ValidationError("--daemon", e.what());
  }
  std::string token;
  if (method != "GET") {
    // Every state change carries the token; reads need none.
    if (o.token_file.empty())
      throw CLI::ValidationError(
          "--token-file",
          "this command changes state: the daemon's token is needed: --token-file FILE or "
          "LIGHTRAILD_TOKEN_FILE");
    token = read_token_file(o.token_file);
  }
  const DaemonReply r =
      daemon_request(url, method, target, body, token, std::chrono::milliseconds(o.timeout_ms));
  if (r.status < 200 || r.status > 299) {
    const json& e = r.body.is_object() && r.body.contains("error") ? r.body["error"] : r.body;
    const std::string field = text_of(e, "field");
    const std::string message =
        e.is_object() && e.contains("message") ? text_of(e, "message") : r.body.dump();
    std::cerr << fmt::format("lightrail: daemon refused {} {} (HTTP {}){}: {}\n", method, printable(target),
                             r.status, field.empty() ? "" : " at " + printable(field), printable(message));
    return exit_of(r.status);
  }
  if (o.json) {
    std::cout << json_text(r.body) << '\n';
  } else if (r.body.is_object() && r.body.contains("jobs") && r.body["jobs"].is_array()) {
    // `job list`: one line per job.
    if (r.body["jobs"].empty()) std::cout << "no jobs\n";
    for (const auto& j : r.body["jobs"]) {
      std::string line = j.is_object() && j.contains("id")
                             ? printable(j["id"].is_string() ? j["id"].get<std::string>() : j["id"].dump())
                             : printable(j.dump());
      if (j.is_object())
        for (const char* key : {"state", "phase", "accuracy"})
          if (j.contains(key) && !j[key].is_null())
            line += fmt::format("  {}={}", key,
                                j[key].is_string() ? printable(j[key].get<std::string>()) : j[key].dump());
      std::cout << line << '\n';
    }
  } else {
    std::cout << summary_line(r.body) << '\n';
  }
  return kOk;
}

// PHASE as the daemon takes it: an index when it is all digits, else a name.
json phase_value(const std::string& phase) {
  if (!phase.empty() && phase.size() <= 9 && phase.find_first_not_of("0123456789") == std::string::npos)
    return std::stoi(phase);
  return phase;
}

}  // namespace

void add_job_commands(CLI::App& app, Action& action) {
  auto o = std::make_shared<JobOptions>();
  CLI::App* job = app.add_subcommand("job", "Jobs on the strategy daemon, lightraild (docs/lightraild.md)");
  job->require_subcommand(1);
  auto common = [o](CLI::App* c) {
    c->add_option("--daemon", o->daemon, "the daemon: http://127.0.0.1:PORT")->envname("LIGHTRAILD_URL");
    c->add_option("--token-file", o->token_file,
                  "file with the daemon's token (mode 0600), for the commands that change state")
        ->envname("LIGHTRAILD_TOKEN_FILE");
    c->add_flag("--json", o->json, "print the daemon's reply as a JSON object");
    c->add_option("--timeout-ms", o->timeout_ms, "give up after this long")
        ->capture_default_str()
        ->check(CLI::Range(1, 86'400'000));
  };
  auto id_arg = [o](CLI::App* c) { c->add_option("id", o->id, "job id")->required(); };

  CLI::App* submit = job->add_subcommand("submit", "Submit a job (a job file as `lightrail plan` takes it)");
  submit->add_option("job", o->file, "job JSON")->required();
  submit->add_option("--target-accuracy", o->target_accuracy, "FastConv: the accuracy the job trains to")
      ->check(CLI::Range(0.0, 1.0));
  submit->add_flag("--wait-for-circuits", o->wait_for_circuits,
                   "queue the job until circuits are free instead of refusing it");
  common(submit);
  submit->callback([o, &action] {
    action = [o] {
      json body = {{"job", read_json_file(o->file, "job " + printable(o->file))}};
      if (o->target_accuracy) body["target_accuracy"] = *o->target_accuracy;
      if (o->wait_for_circuits) body["wait_for_circuits"] = true;
      return run(*o, "POST", "/v1/jobs", body);
    };
  });

  CLI::App* phase = job->add_subcommand("phase", "Report a phase boundary of a job's iteration");
  id_arg(phase);
  phase->add_option("phase", o->phase, "the phase starting: its name in the job file, or its index")
      ->required();
  common(phase);
  phase->callback([o, &action] {
    action = [o] {
      return run(*o, "POST", "/v1/jobs/" + o->id + "/phase", json{{"phase", phase_value(o->phase)}});
    };
  });

  CLI::App* phases = job->add_subcommand(
      "phases", "Replace a job's phases (all or nothing; the old ones run on if refused)");
  id_arg(phases);
  phases->add_option("file", o->file, "a job file, or {\"phases\": [...]}: its phases are sent")->required();
  common(phases);
  phases->callback([o, &action] {
    action = [o] {
      const json doc = read_json_file(o->file, "phases " + printable(o->file));
      // Without "phases" the daemon refuses, naming the field.
      json body = json::object();
      if (doc.is_object() && doc.contains("phases")) body["phases"] = doc["phases"];
      return run(*o, "POST", "/v1/jobs/" + o->id + "/phases", body);
    };
  });

  CLI::App* progress = job->add_subcommand("progress", "Report a job's accuracy (FastConv)");
  id_arg(progress);
  progress->add_option("accuracy", o->accuracy, "accuracy reached, 0..1")
      ->required()
      ->check(CLI::Range(0.0, 1.0));
  common(progress);
  progress->callback([o, &action] {
    action = [o] {
      return run(*o, "POST", "/v1/jobs/" + o->id + "/progress", json{{"accuracy", o->accuracy}});
    };
  });

  CLI::App* list = job->add_subcommand("list", "List the daemon's jobs");
  common(list);
  list->callback([o, &action] { action = [o] { return run(*o, "GET", "/v1/jobs", std::nullopt); }; });

  CLI::App* show = job->add_subcommand("show", "Show one job");
  id_arg(show);
  common(show);
  show->callback(
      [o, &action] { action = [o] { return run(*o, "GET", "/v1/jobs/" + o->id, std::nullopt); }; });

  CLI::App* del = job->add_subcommand("delete", "Remove a job");
  id_arg(del);
  common(del);
  del->callback(
      [o, &action] { action = [o] { return run(*o, "DELETE", "/v1/jobs/" + o->id, std::nullopt); }; });
}

}  // namespace lightrail::cli
