// A client of lightraild's HTTP API (docs/lightraild.md) for the `lightrail`
// commands that talk to the daemon: one request per connection, every step
// under one deadline.
#pragma once

#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace lightrail::cli {

struct DaemonUrl {
  std::string host;  // as given (brackets of an IPv6 literal removed)
  uint16_t port = 0;
};

// "http://HOST:PORT" with an optional final "/": HOST an IPv4 literal, a
// name, or an IPv6 literal in brackets. Throws std::invalid_argument naming
// the URL and the fault.
DaemonUrl parse_daemon_url(const std::string& url);

struct DaemonReply {
  int status = 0;
  nlohmann::json body;  // the reply's JSON document
};

// Sends one request (body: a JSON document, sent as application/json;
// token: sent as a bearer token unless empty) and reads the reply within
// `timeout`. Throws TransportError naming the daemon: cannot connect, the
// deadline passed, the reply is not HTTP, or its body is not JSON.
DaemonReply daemon_request(const DaemonUrl& url, const std::string& method, const std::string& target,
                           const std::optional<nlohmann::json>& body, const std::string& token,
                           std::chrono::milliseconds timeout);

}  // namespace lightrail::cli
