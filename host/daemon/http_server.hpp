// The daemon's HTTP/1.1 API (docs/lightraild.md) over a Service: one I/O
// thread serves every connection asynchronously, one worker thread runs the
// Service's calls in arrival order from a bounded queue, so the Service needs
// no locking and a slow client never holds up another.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "log.hpp"
#include "service.hpp"
#include "tokens.hpp"

namespace lightrail::daemon {

struct HttpOptions {
  std::string bind = "127.0.0.1";  // an IP address literal
  uint16_t port = 0;               // 0: the kernel picks one (port() says which)
  // The bearer tokens, by name and role (tokens.hpp); a POST or DELETE
  // needs one of a manager or an admin. `token` alone: one admin token
  // named "admin" (token_problem() must accept each).
  std::vector<NamedToken> tokens;
  std::string token;
  size_t body_limit = 64 * 1024;   // bytes; a larger body is refused (413) before it is read
  size_t header_limit = 8 * 1024;  // bytes of request line and headers (431)
  // Deadline for reading one request (from the first byte awaited: it is
  // also the idle timeout between requests) and for writing one reply; the
  // connection is closed when it passes.
  std::chrono::milliseconds timeout{30000};
  // The same deadline for a connection that has not yet sent a request with
  // the right bearer token: slow or idle strangers cannot hold a connection
  // long.
  std::chrono::milliseconds stranger_timeout{5000};
  // Open connections. At the cap a new one takes the place of the oldest
  // idle stranger's (closed), so strangers cannot lock out the clients with
  // the token; 503 and closed only when every open one is busy or has sent
  // the token. Lowered to what the descriptor limit leaves (RLIMIT_NOFILE,
  // less those open at start and a reserve for the journal and the boards).
  size_t max_connections = 256;
  size_t queue_limit = 64;  // requests waiting for the worker; beyond: 503, nothing done
  // TLS: PEM files of the certificate chain and its private key (a file of
  // this user's alone). Required when `bind` is not loopback; with it every
  // request but /healthz and /readyz needs a token, reads included.
  std::string tls_cert, tls_key;
  std::chrono::milliseconds keepalive_interval{1000};
  // One event per request (its fields: request_id, peer, method, target,
  // status, duration_ms) and per notable event, from the I/O thread; empty:
  // silent.
  LogSink log;
};

// A snapshot of the server's own gauges, safe to read from any thread.
struct HttpStats {
  size_t open_connections = 0;
  size_t queue_depth = 0;
  uint64_t requests = 0;          // replies sent, errors included
  uint64_t timeouts = 0;          // connections closed by their deadline
  uint64_t evicted = 0;           // strangers closed to admit a new connection at the cap
  size_t max_connections = 0;     // the cap in force (HttpOptions', or what the descriptor limit leaves)
  uint64_t keepalives = 0;        // keepalive() calls that returned
  uint64_t keepalive_errors = 0;  // ... and that threw: the worker is alive either way
  bool stopping = false;          // stop() has begun: no call starts any more
};

class HttpServer {
 public:
  // Binds and listens at once (throws std::runtime_error naming the address
  // on failure, std::invalid_argument for bad options, among them a bind
  // beyond loopback without TLS, FormatError for a bad certificate or key);
  // start() serves.
  HttpServer(Service& service, HttpOptions options);
  ~HttpServer();  // stop()
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  uint16_t port() const;
  void start();  // the I/O and worker threads
  // Graceful: no new connections or requests; the Service call running
  // finishes and is answered, requests still queued get 503 (nothing done),
  // then every connection is closed. Idempotent; returns when both threads
  // have ended.
  void stop();
  HttpStats stats() const;
  // Replaces the tokens (a reload, e.g. on SIGHUP): requests read after it
  // returns are checked against the new set. Throws std::invalid_argument,
  // keeping the old set, when one is not a token or the set is empty.
  void set_tokens(std::vector<NamedToken> tokens);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// The id of the request whose Service call runs on this thread ("" when
// none does): the worker sets it around each call, so that what the Service
// logs during the call can carry it.
const std::string& current_request_id();

// Whether an X-Request-Id a client sent is taken as the request's id (1..64
// characters of A-Z a-z 0-9 - _ . :); another gets an id of the daemon's.
bool acceptable_request_id(std::string_view id);

// Whether a bind address is a loopback one (127.0.0.0/8, ::1).
bool is_loopback_address(const std::string& address);

}  // namespace lightrail::daemon
