#include "daemon_client.hpp"

#include <fmt/format.h>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <stdexcept>

#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail::cli {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;

DaemonUrl parse_daemon_url(const std::string& url) {
  auto bad = [&](const std::string& why) {
    return std::invalid_argument(
        fmt::format("daemon URL \"{}\": {} (http://HOST:PORT)", printable(url), why));
  };
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0) throw bad("only http:// is served");
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  if (rest.find_first_of("/?#@") != std::string::npos) throw bad("no path, query or user part");
  DaemonUrl out;
  size_t colon;
  if (!rest.empty() && rest.front() == '[') {
    const auto close = rest.find(']');
    if (close == std::string::npos) throw bad("unclosed [");
    out.host = rest.substr(1, close - 1);
    colon = close + 1;
    if (colon >= rest.size() || rest[colon] != ':') throw bad("no port");
  } else {
    colon = rest.rfind(':');
    if (colon == std::string::npos) throw bad("no port");
    out.host = rest.substr(0, colon);
    if (out.host.find(':') != std::string::npos) throw bad("an IPv6 address goes in brackets");
  }
  if (out.host.empty()) throw bad("no host");
  const std::string port = rest.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(port) == 0 || std::stoul(port) > 65535)
    throw bad("the port must be 1..65535");
  out.port = uint16_t(std::stoul(port));
  return out;
}

DaemonReply daemon_request(const DaemonUrl& url, const std::string& method, const std::string& target,
                           const std::optional<nlohmann::json>& body, const std::string& token,
                           std::chrono::milliseconds timeout) {
  const std::string where = fmt::format("lightraild at {}:{}", url.host, url.port);
  asio::io_context ioc;
  beast::tcp_stream stream(ioc);
  beast::flat_buffer buffer;
  http::request<http::string_body> req{http::string_to_verb(method), target, 11};
  req.set(http::field::host, url.host.find(':') == std::string::npos ? url.host : "[" + url.host + "]");
  req.set(http::field::user_agent, "lightrail");
  req.set(http::field::connection, "close");
  if (!token.empty()) req.set(http::field::authorization, "Bearer " + token);
  if (body) {
    req.set(http::field::content_type, "application/json");
    req.body() = body->dump();
  }
  req.prepare_payload();
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 * 1024 * 1024);
  beast::error_code failure;
  const char* failed_at = "";
  auto fail = [&](beast::error_code ec, const char* what) {
    failure = ec;
    failed_at = what;
  };

  // Every step asynchronous, so that one deadline bounds them all (Beast's
  // synchronous calls have none).
  stream.expires_after(timeout);
  tcp::resolver resolver(ioc);
  resolver.async_resolve(url.host, std::to_string(url.port),
                         [&](beast::error_code ec, tcp::resolver::results_type r) {
                           if (ec) return fail(ec, "cannot resolve");
                           stream.async_connect(r, [&](beast::error_code ec, const tcp::endpoint&) {
                             if (ec) return fail(ec, "cannot connect to");
                             http::async_write(stream, req, [&](beast::error_code ec, size_t) {
                               if (ec) return fail(ec, "cannot send to");
                               http::async_read(stream, buffer, parser, [&](beast::error_code ec, size_t) {
                                 if (ec) return fail(ec, "no reply from");
                               });
                             });
                           });
                         });
  ioc.run();
  if (failure) {
    const std::string why = failure == beast::error::timeout
                                ? fmt::format("no answer within {} ms", timeout.count())
                                : failure.message();
    throw TransportError(fmt::format("{} {}: {}", failed_at, where, why));
  }
  DaemonReply reply;
  reply.status = int(parser.get().result_int());
  try {
    reply.body = parse_json_text(parser.get().body(), "reply");
  } catch (const FormatError& e) {
    throw TransportError(
        fmt::format("{} answered HTTP {} with a body that is not JSON: {}", where, reply.status, e.what()));
  }
  return reply;
}

}  // namespace lightrail::cli
