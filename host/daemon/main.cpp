// lightraild: the strategy daemon (docs/lightraild.md). Opens the fabric,
// replays its journal against the boards, then serves the HTTP API until
// SIGTERM or SIGINT.
//
// Exit codes:
//   0  stopped by SIGTERM or SIGINT (the running request answered first)
//   1  invalid input: the fabric file, the model file, the token file or the
//      tokens file
//   2  bad command line
//   3  cannot run: the state directory, the journal (unreadable, or in use
//      by another lightraild), the lease token file, the address to listen
//      on, or recovery failed
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <exception>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>

#include "cli_doc.hpp"
#include "http_server.hpp"
#include "journal.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/fabric.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/token_file.hpp"
#include "lightrail/version.hpp"
#include "log.hpp"
#include "notify.hpp"
#include "state_files.hpp"
#include "strategy.hpp"
#include "tokens.hpp"

namespace {

namespace d = lightrail::daemon;

enum Exit : int { kOk = 0, kInvalidInput = 1, kUsage = 2, kCannotRun = 3 };

// The failures of one start-up step, with the exit code they mean.
struct Failure : std::runtime_error {
  Failure(int code, const std::string& what) : std::runtime_error(what), code(code) {}
  int code;
};

// The daemon's log on stderr (--log-format), made once the command line
// is read.
std::optional<d::Log> logger;

// One event; what the Service logs during a request's call carries the
// request's id.
void log(d::LogLevel level, const std::string& message) {
  nlohmann::json fields = nlohmann::json::object();
  if (!d::current_request_id().empty()) fields["request_id"] = d::current_request_id();
  if (!logger) logger.emplace(d::LogFormat::kText);
  (*logger)({level, message, std::move(fields)});
}

struct Options {
  std::string fabric, model, token_file, tokens_file, state_dir, port_file, bind = "127.0.0.1";
  std::string log_format = "text";
  std::string tls_cert, tls_key;
  uint16_t port = 0;
  bool allow_unlocked = false;
  size_t body_limit = 64 * 1024, header_limit = 8 * 1024, max_connections = 256, queue_limit = 64;
  int timeout_ms = 30000;
  int stranger_timeout_ms = 5000;
  int phase_wait_ms = 2000;
  double release_fraction = 0.85;
};

// The bearer tokens: --tokens' list, or --token-file's one token as an
// admin named "admin". Read at start and again on SIGHUP.
std::vector<d::NamedToken> read_tokens(const Options& o) {
  if (!o.tokens_file.empty()) return d::read_tokens_file(o.tokens_file);
  return {{"admin", d::Role::kAdmin, lightrail::read_token_file(o.token_file)}};
}

std::string describe(const std::vector<d::NamedToken>& tokens) {
  std::string out;
  for (const auto& t : tokens)
    out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", t.name, d::role_name(t.role));
  return out;
}

// Runs `step`; what it throws becomes a Failure with `code`, prefixed by `what`.
template <typename F>
auto step(int code, const std::string& what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Failure&) {
    throw;
  } catch (const std::exception& e) {
    throw Failure(code, what + ": " + e.what());
  }
}

int serve(const Options& o) {
  // Before any thread exists, so that every thread inherits the mask and
  // the signals reach sigwait() below.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGHUP);  // reload the tokens
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  std::signal(SIGPIPE, SIG_IGN);

  // Beyond loopback the token must not cross the network in the clear:
  // refused before anything is opened.
  if (!d::is_loopback_address(o.bind) && o.tls_cert.empty())
    throw Failure(kUsage, fmt::format("--bind {}: not a loopback address, so --tls-cert and --tls-key are "
                                      "required (the bearer token must not cross the network in the clear)",
                                      lightrail::printable(o.bind)));
  const std::vector<d::NamedToken> tokens = step(
      kInvalidInput, o.tokens_file.empty() ? "--token-file" : "--tokens", [&] { return read_tokens(o); });
  lightrail::FabricSpec spec =
      step(kInvalidInput, "--fabric", [&] { return lightrail::read_fabric_file(o.fabric); });
  d::StrategyOptions so;
  if (!o.model.empty())
    so.model = step(kInvalidInput, "--model", [&] {
      return lightrail::planner::fabric_from_json(lightrail::read_json_file(o.model, "model " + o.model));
    });
  so.allow_unlocked = o.allow_unlocked;
  so.phase_wait_ms = o.phase_wait_ms;
  so.release_fraction = o.release_fraction;
  // Test hook (docs/lightraild.md, "Recovery"): die once a commit is armed.
  if (const char* crash = std::getenv("LIGHTRAILD_TEST_CRASH"))
    so.crash_after_arm = std::string(crash) == "after_arm";

  step(kCannotRun, "--state-dir", [&] { d::ensure_state_dir(o.state_dir); });
  // The journal first: its lock keeps a second daemon off this state.
  std::optional<d::Journal> journal;
  step(kCannotRun, "journal", [&] { journal.emplace(o.state_dir + "/journal.jsonl"); });
  const uint32_t lease = step(kCannotRun, "lease token",
                              [&] { return d::load_or_create_lease_token(o.state_dir + "/lease-token"); });
  so.lease_token = lease;
  so.log = [](const std::string& line) { log(d::LogLevel::kWarn, line); };
  log(d::LogLevel::kInfo, fmt::format("journal {} ({} records), lease token 0x{:08x}", journal->path(),
                                      journal->records().size(), lease));

  lightrail::Fabric fabric =
      step(kCannotRun, "fabric", [&] { return lightrail::Fabric::open(std::move(spec)); });
  fabric.set_lease_token(lease);
  for (const auto& b : step(kCannotRun, "fabric status", [&] { return fabric.status(); }))
    if (!b.reachable)
      log(d::LogLevel::kWarn,
          fmt::format("board {} is not reachable: {}", fabric.spec().boards.at(b.board).name, b.error));

  std::optional<d::Strategy> strategy;
  try {
    strategy.emplace(fabric, *journal, so);
  } catch (const std::invalid_argument& e) {
    throw Failure(kInvalidInput, std::string("strategy: ") + e.what());
  } catch (const lightrail::FormatError& e) {
    throw Failure(kInvalidInput, std::string("strategy: ") + e.what());
  } catch (const std::exception& e) {
    throw Failure(kCannotRun, std::string("strategy: ") + e.what());
  }

  d::HttpOptions h;
  h.bind = o.bind;
  h.port = o.port;
  h.tokens = tokens;
  h.body_limit = o.body_limit;
  h.header_limit = o.header_limit;
  h.timeout = std::chrono::milliseconds(o.timeout_ms);
  h.stranger_timeout = std::chrono::milliseconds(o.stranger_timeout_ms);
  h.max_connections = o.max_connections;
  h.queue_limit = o.queue_limit;
  h.tls_cert = o.tls_cert;
  h.tls_key = o.tls_key;
  h.log = [](const d::LogEvent& e) { (*logger)(e); };
  std::optional<d::HttpServer> server;
  try {
    server.emplace(*strategy, h);
  } catch (const std::invalid_argument& e) {
    throw Failure(kUsage, e.what());
  } catch (const lightrail::FormatError& e) {
    throw Failure(kInvalidInput, e.what());
  } catch (const std::exception& e) {
    throw Failure(kCannotRun, e.what());
  }
  // Bound before recovery (a port in use fails before any board is
  // touched); served after it.
  const nlohmann::json recovered = step(kCannotRun, "recovery", [&] { return strategy->recover(); });
  log(d::LogLevel::kInfo, "recovered: " + recovered.dump());
  server->start();
  const std::string scheme = o.tls_cert.empty() ? "http" : "https";
  const std::string url = fmt::format(o.bind.find(':') == std::string::npos ? "{}://{}:{}" : "{}://[{}]:{}",
                                      scheme, o.bind, server->port());
  if (!o.port_file.empty())
    step(kCannotRun, "--port-file",
         [&] { d::write_file_atomically(o.port_file, std::to_string(server->port()) + "\n", 0644); });
  log(d::LogLevel::kInfo, "listening on " + url);
  log(d::LogLevel::kInfo, "tokens: " + describe(tokens));
  d::notify("READY=1\nSTATUS=serving on " + url);

  // The watchdog is pinged at half its interval, and only while the
  // worker's keepalive ticks advance: a worker stuck in one call for the
  // whole interval gets the daemon restarted.
  const auto watchdog = d::watchdog_interval();
  if (watchdog)
    log(d::LogLevel::kInfo,
        fmt::format("watchdog: pinged every {} ms while the worker runs", watchdog->count() / 2000));
  uint64_t ticks_pinged = 0;
  int signal = 0;
  for (;;) {
    if (watchdog) {
      const auto half = *watchdog / 2;
      const timespec wait{time_t(half.count() / 1000000), long(half.count() % 1000000) * 1000};
      signal = sigtimedwait(&stop_signals, nullptr, &wait);
      const d::HttpStats st = server->stats();
      const uint64_t ticks = st.keepalives + st.keepalive_errors;
      if (ticks != ticks_pinged) {
        d::notify("WATCHDOG=1");
        ticks_pinged = ticks;
      }
      if (signal < 0) continue;  // the timeout (or EINTR)
    } else if (sigwait(&stop_signals, &signal) != 0) {
      continue;
    }
    if (signal != SIGHUP) break;
    d::notify("RELOADING=1");
    // A bad file changes nothing: the tokens in force stay.
    try {
      std::vector<d::NamedToken> fresh = read_tokens(o);
      const std::string names = describe(fresh);
      server->set_tokens(std::move(fresh));
      log(d::LogLevel::kInfo, "SIGHUP: tokens reloaded: " + names);
    } catch (const std::exception& e) {
      log(d::LogLevel::kError,
          fmt::format("SIGHUP: the tokens were not reloaded, the old ones stay: {}", e.what()));
    }
    d::notify("READY=1");
  }
  d::notify("STOPPING=1");
  log(d::LogLevel::kInfo, fmt::format("{}: stopping", signal == SIGTERM ? "SIGTERM" : "SIGINT"));
  server->stop();
  log(d::LogLevel::kInfo, "stopped");
  return kOk;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"lightraild: the strategy daemon: jobs on an optical fabric over HTTP (docs/lightraild.md)"};
  app.set_version_flag("--version", lightrail::version_line("lightraild"));
  // Every option may come from a file instead, "name = value" per line
  // (TOML: strings quoted); the command line wins over it; an unknown
  // name is an error naming it.
  app.set_config("--config", "", "read options from this file (docs/lightraild.md, \"Config file\")");
  app.allow_config_extras(false);
  Options o;
  app.add_option("--fabric", o.fabric, "the driver's fabric file: boards, rails, cabling (docs/fabric.md)")
      ->required();
  app.add_option(
      "--model", o.model,
      "the planner's fabric model (link rate, reconfiguration time, EPS; as `lightrail plan` takes "
      "it); default: the planner's defaults");
  auto* token_file = app.add_option(
      "--token-file", o.token_file,
      "file holding the one bearer token (an admin's) every POST and DELETE must carry (mode 0600, this "
      "user's)");
  auto* tokens_file = app.add_option(
      "--tokens", o.tokens_file,
      "JSON list of named tokens with roles (admin, manager, reader), each in its own token file; reread "
      "on SIGHUP");
  token_file->excludes(tokens_file);
  tokens_file->excludes(token_file);
  app.add_option("--state-dir", o.state_dir,
                 "directory of the journal (journal.jsonl) and the board lease token (lease-token)")
      ->required();
  app.add_option("--log-format", o.log_format, "text (one line per event) or json (one object per line)")
      ->capture_default_str()
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--bind", o.bind, "IP address to listen on (not loopback: --tls-cert and --tls-key needed)")
      ->capture_default_str();
  auto* cert =
      app.add_option("--tls-cert", o.tls_cert,
                     "PEM certificate chain: serve HTTPS (required beyond loopback; then every request "
                     "but /healthz and /readyz needs a token)");
  auto* key =
      app.add_option("--tls-key", o.tls_key, "PEM private key of --tls-cert (mode 0600, this user's)");
  cert->needs(key);
  key->needs(cert);
  app.add_option("--port", o.port, "TCP port; 0: one the kernel picks (see --port-file)")
      ->capture_default_str();
  app.add_option("--port-file", o.port_file, "write the port here (atomically) once listening");
  app.add_flag("--allow-unlocked", o.allow_unlocked, "commit on boards whose clock is not locked (warns)");
  app.add_option("--body-limit", o.body_limit, "largest request body, bytes (413 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(size_t(1), size_t(64) << 20));
  app.add_option("--header-limit", o.header_limit, "largest request header, bytes (431 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(size_t(256), size_t(1) << 20));
  app.add_option("--timeout-ms", o.timeout_ms,
                 "deadline to read one request (also the idle timeout) and to write one reply")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600'000));
  app.add_option("--stranger-timeout-ms", o.stranger_timeout_ms,
                 "the same deadline for a connection that has not yet sent the bearer token")
      ->capture_default_str()
      ->check(CLI::Range(1, 3'600'000));
  app.add_option("--max-connections", o.max_connections,
                 "open connections; at the cap the oldest idle one without the token makes room, else 503 "
                 "(lowered to what ulimit -n leaves)")
      ->capture_default_str()
      ->check(CLI::Range(size_t(1), size_t(65536)));
  app.add_option("--queue-limit", o.queue_limit, "requests waiting for the worker (503 beyond)")
      ->capture_default_str()
      ->check(CLI::Range(size_t(1), size_t(65536)));
  app.add_option("--phase-wait-ms", o.phase_wait_ms, "how long a phase event waits for its boundary")
      ->capture_default_str()
      ->check(CLI::Range(1, 600'000));
  app.add_option("--release-fraction", o.release_fraction,
                 "FastConv: a job at this share of its target accuracy gives its circuits up")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  // Last: the man page reads every option defined above.
  lightrail::clidoc::add_doc_option(
      app,
      {"lightraild",
       LIGHTRAIL_VERSION_STRING,
       {{kOk, "stopped", "by SIGTERM or SIGINT"},
        {kInvalidInput, "invalid input", "the fabric, model or token file"},
        {kUsage, "usage", "bad command line"},
        {kCannotRun, "cannot run",
         "the state directory, the journal (unreadable, or in use by another lightraild), the lease token "
         "file, the address to listen on, or recovery"}},
       {"lightrail(1)", "lightrail-cosim(1)"}});
  try {
    app.parse(argc, argv);
    if (o.token_file.empty() && o.tokens_file.empty()) throw CLI::RequiredError("--token-file or --tokens");
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kOk : kUsage;
  }
  logger.emplace(*d::log_format_from_name(o.log_format));
  try {
    return serve(o);
  } catch (const Failure& f) {
    log(d::LogLevel::kError, f.what());
    return f.code;
  } catch (const std::exception& e) {
    log(d::LogLevel::kError, e.what());
    return kCannotRun;
  }
}
