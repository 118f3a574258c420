#include "http_server.hpp"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <cerrno>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <unordered_set>
#include <utility>

#include "histogram.hpp"
#include "idempotency.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/json_document.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/token_file.hpp"
#include "lightrail/version.hpp"
#include "routes.hpp"

namespace lightrail::daemon {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

constexpr const char* kJsonType = "application/json";
constexpr const char* kMetricsType = "text/plain; version=0.0.4; charset=utf-8";

// A reply as the worker (or the I/O thread's own checks) made it.
struct Reply {
  int status = 200;
  std::string body;
  std::string content_type = kJsonType;
  std::vector<std::pair<http::field, std::string>> headers;
  std::vector<std::pair<std::string, std::string>> extra;  // headers Beast has no field for
  bool close = false;                                      // close the connection after it
  bool metrics = false;  // body is the Service's metrics: the HTTP layer's go first
};

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// The JSON Schema of what a call answers (docs/json.md).
const char* schema_of(Call call) {
  switch (call) {
    case Call::kSubmit:
    case Call::kGet:
    case Call::kReplacePhases:
      return "lightrail.job/1";
    case Call::kPhase:
      return "lightrail.job-phase/1";
    case Call::kProgress:
      return "lightrail.job-progress/1";
    case Call::kRemove:
      return "lightrail.job-deleted/1";
    case Call::kList:
      return "lightrail.job-list/1";
    case Call::kFabric:
      return "lightrail.daemon-fabric/1";
    default:
      return "lightrail.daemon-error/1";  // not reached: the others answer text or at once
  }
}

Reply error_reply(int status, const std::string& field, const std::string& message) {
  Reply r;
  r.status = status;
  json out = {{"error", {{"status", status}, {"field", field}, {"message", message}}}};
  stamp_schema(out, "lightrail.daemon-error/1");
  r.body = dump(out);
  if (status == 503) r.headers.emplace_back(http::field::retry_after, "1");
  return r;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return out;
}

// Beast (Boost 1.74) has a string_view of its own.
std::string_view sv(beast::string_view s) { return {s.data(), s.size()}; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Host header values that name this daemon when it listens on loopback
// only: anything else is a browser sent here by a rebound DNS name.
bool loopback_host(std::string_view host) {
  std::string h = lower(trim(host));
  if (!h.empty() && h.front() == '[') {
    const auto close = h.find(']');
    if (close == std::string::npos) return false;
    const std::string rest = h.substr(close + 1);
    if (!rest.empty() && (rest[0] != ':' || rest.find_first_not_of("0123456789", 1) != std::string::npos))
      return false;
    return h.substr(1, close - 1) == "::1";
  }
  const auto colon = h.find(':');
  if (colon != std::string::npos) {
    if (h.find_first_not_of("0123456789", colon + 1) != std::string::npos) return false;
    h.resize(colon);
  }
  return h == "localhost" || is_loopback_address(h);
}

// The Service's calls, run one at a time in arrival order on one thread.
class Worker {
 public:
  struct Task {
    std::function<void()> run;     // the call, then its reply posted back
    std::function<void()> refuse;  // 503 posted back: the server stopped first
  };

  Worker(size_t limit, std::chrono::milliseconds interval, std::function<void()> keepalive)
      : limit_(limit), interval_(interval), keepalive_(std::move(keepalive)) {}

  void start() {
    thread_ = std::thread([this] { loop(); });
  }

  // False (nothing queued) when full or stopping.
  bool push(Task task) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_ || queue_.size() >= limit_) return false;
      queue_.push_back(std::move(task));
    }
    cv_.notify_one();
    return true;
  }

  size_t depth() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return queue_.size();
  }

  // No call starts after this one returns.
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    cv_.notify_one();
  }

  // Lets the running call finish, refuses what is queued, joins.
  void stop() {
    close();
    if (thread_.joinable()) thread_.join();
    std::deque<Task> left;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      left.swap(queue_);
    }
    for (auto& t : left) t.refuse();
  }

 private:
  void loop() {
    auto next_keepalive = Clock::now() + interval_;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      cv_.wait_until(lock, next_keepalive, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      if (!queue_.empty()) {
        Task task = std::move(queue_.front());
        queue_.pop_front();
        lock.unlock();
        // run() hands its connection to the I/O thread; no copy may stay
        // here to be the last one.
        task.refuse = nullptr;
        task.run();
        task.run = nullptr;
        lock.lock();
      }
      // Between calls, busy or idle: leases must be renewed under load too.
      if (Clock::now() >= next_keepalive) {
        lock.unlock();
        keepalive_();
        next_keepalive = Clock::now() + interval_;
        lock.lock();
      }
    }
  }

  const size_t limit_;
  const std::chrono::milliseconds interval_;
  std::function<void()> keepalive_;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<Task> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

class Connection;

// Descriptors kept free beyond the connections: the journal and its
// rewrite, the state directory's fsync, the lease token, board reconnects,
// and the accept of a connection beyond the cap (to answer it 503).
constexpr size_t kReservedDescriptors = 32;

size_t open_descriptors() {
  size_t n = 0;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (const dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
    ::closedir(d);
  }
  return n;
}

// The connection cap the descriptor limit allows (at least 1).
size_t descriptor_cap(size_t wanted) {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return wanted;
  const size_t used = open_descriptors() + kReservedDescriptors;
  const size_t room = rl.rlim_cur > used ? size_t(rl.rlim_cur - used) : 1;
  return std::max<size_t>(1, std::min(wanted, room));
}

}  // namespace

struct HttpServer::Impl {
  Impl(Service& s, HttpOptions o)
      : service(s),
        opt(std::move(o)),
        acceptor(ioc),
        worker(opt.queue_limit, opt.keepalive_interval, [this] { keepalive(); }),
        accept_retry(ioc) {}

  Service& service;
  const HttpOptions opt;
  // The tokens in force: read by the I/O thread per request, replaced whole
  // by set_tokens() from any thread.
  mutable std::mutex tokens_mutex;
  std::shared_ptr<const std::vector<NamedToken>> token_set;
  std::shared_ptr<const std::vector<NamedToken>> tokens() const {
    std::lock_guard<std::mutex> lock(tokens_mutex);
    return token_set;
  }
  size_t max_connections = opt.max_connections;  // lowered by the descriptor limit at construction
  bool loopback = true;
  // TLS (--tls-cert, --tls-key): every connection's; reads need a token too.
  std::unique_ptr<asio::ssl::context> tls;
  std::atomic<uint64_t> tls_failures{0};
  asio::io_context ioc;
  tcp::acceptor acceptor;
  Worker worker;
  asio::steady_timer accept_retry;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> guard;
  std::thread io_thread;
  bool started = false;
  std::mutex stop_mutex;
  bool stopped = false;
  std::atomic<bool> stopping{false};

  // I/O thread only.
  std::unordered_set<Connection*> connections;
  std::map<std::tuple<std::string, std::string, int>, uint64_t> requests_by;  // route, method, status
  std::map<std::string, Histogram> latency;                                   // by route
  uint64_t accepted = 0;
  uint64_t refused = 0;
  std::atomic<uint64_t> evicted{0};
  // Any thread.
  std::atomic<size_t> open{0};
  std::atomic<uint64_t> requests{0};
  std::atomic<uint64_t> timeouts{0};
  std::atomic<uint64_t> keepalives{0};
  std::atomic<uint64_t> keepalive_errors{0};

  void log(std::string line, LogLevel level = LogLevel::kInfo, json fields = json::object()) {
    if (opt.log) opt.log({level, std::move(line), std::move(fields)});
  }
  // From the worker: logged on the I/O thread, like every other line, with
  // the request id of the call it is part of.
  void log_from_worker(std::string line, LogLevel level = LogLevel::kWarn) {
    json fields = json::object();
    if (!current_request_id().empty()) fields["request_id"] = current_request_id();
    if (opt.log)
      asio::post(ioc, [this, e = LogEvent{level, std::move(line), std::move(fields)}] { opt.log(e); });
  }
  // A request id of the daemon's: 16 hex digits, random per process.
  std::mt19937_64 id_random{std::random_device{}()};  // I/O thread only
  std::string new_request_id() { return fmt::format("{:016x}", id_random()); }

  void accept();
  Reply at_once(Call call);
  bool evict_a_stranger();
  void refuse_connection(tcp::socket socket);
  void keepalive();
  Reply invoke(Call call, const std::string& id, const json& body, const Caller& caller,
               const std::string& request_id);
  std::string http_metrics();
  void count(const std::string& route, const std::string& method, int status, double seconds) {
    ++requests_by[{route, method, status}];
    latency[route].add(seconds);
    ++requests;
  }
};

namespace {

// One client connection: reads a request (header first, so a refusal needs
// no body), hands it to the worker, writes the reply, and again while the
// client keeps it alive. Lives on the I/O thread; the worker only holds it.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(tcp::socket socket, HttpServer::Impl& srv, uint64_t seq)
      : srv_(srv), buffer_(srv.opt.header_limit + srv.opt.body_limit + 65536), seq_(seq) {
    if (srv.tls)
      tls_.emplace(std::move(socket), *srv.tls);
    else
      plain_.emplace(std::move(socket));
    beast::error_code ec;
    const auto peer = socket_layer().socket().remote_endpoint(ec);
    peer_ = ec ? "?" : fmt::format("{}:{}", peer.address().to_string(), peer.port());
  }

  void start() {
    srv_.connections.insert(this);
    ++srv_.open;
    if (!tls_) return read_header();
    // The handshake is a stranger's first bytes: its deadline is theirs.
    socket_layer().expires_after(std::min(srv_.opt.timeout, srv_.opt.stranger_timeout));
    tls_->async_handshake(asio::ssl::stream_base::server, [self = shared_from_this()](beast::error_code ec) {
      if (self->closed_) return;
      if (ec) {
        // Plain HTTP, a client that does not trust the certificate, a
        // scanner: nothing to answer over a channel that is not there.
        ++self->srv_.tls_failures;
        if (self->srv_.tls_failures % 100 == 1)
          self->srv_.log(fmt::format("{}: TLS handshake failed: {}; {} so far", self->peer_, ec.message(),
                                     self->srv_.tls_failures.load()),
                         LogLevel::kWarn, {{"peer", self->peer_}});
        return self->close();
      }
      self->read_header();
    });
  }

  bool busy() const { return busy_; }
  uint64_t seq() const { return seq_; }  // accept order
  // May be closed to admit another at the cap: has never sent the token,
  // and neither a call nor a reply of its is under way.
  bool evictable() const { return !trusted_ && !busy_ && !writing_ && !closed_; }
  const std::string& peer() const { return peer_; }

  void close() {
    if (closed_) return;
    closed_ = true;
    beast::error_code ec;
    socket_layer().socket().shutdown(tcp::socket::shutdown_both, ec);
    socket_layer().close();
    srv_.connections.erase(this);
    --srv_.open;
  }

  // A reply the worker made: back on the I/O thread.
  void answer(Reply r) {
    busy_ = false;
    send(std::move(r));
  }

 private:
  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(srv_.opt.header_limit));
    parser_->body_limit(srv_.opt.body_limit);
    route_ = "unparsed";
    method_ = "other";
    target_.clear();
    caller_ = Caller{};
    request_id_.clear();
    // One deadline for the whole request, from the first byte awaited: an
    // idle connection and a client that sends slowly are both closed by it.
    // A stranger's (no token yet) is the shorter one.
    socket_layer().expires_after(trusted_ ? srv_.opt.timeout
                                          : std::min(srv_.opt.timeout, srv_.opt.stranger_timeout));
    on_stream([&](auto& stream) {
      http::async_read_header(
          stream, buffer_, *parser_,
          [self = shared_from_this()](beast::error_code ec, size_t) { self->on_header(ec); });
    });
  }

  // Read errors: true when the connection was closed or answered.
  bool failed(beast::error_code ec) {
    if (!ec) return false;
    if (closed_ || ec == asio::error::operation_aborted) {
      close();
    } else if (ec == beast::error::timeout) {
      ++srv_.timeouts;
      srv_.log(fmt::format("{}: closed: no complete request within {} ms", peer_, srv_.opt.timeout.count()));
      close();
    } else if (ec == http::error::body_limit) {
      // The header was read (Content-Length is checked at its end, or the
      // chunks came after it): the request's route is known.
      const auto& req = parser_->get();
      target_ = std::string(req.target());
      const Target t = parse_target(target_);
      if (t.status == 0) route_ = route_label(t.route);
      const std::string_view method = sv(req.method_string());
      method_ = method == "GET" || method == "POST" || method == "DELETE" ? std::string(method) : "other";
      send(error_reply(413, "", fmt::format("the body is over the limit of {} bytes", srv_.opt.body_limit)),
           true);
    } else if (ec == http::error::header_limit) {
      send(error_reply(431, "",
                       fmt::format("the header is over the limit of {} bytes", srv_.opt.header_limit)),
           true);
    } else if (ec == http::error::end_of_stream || ec == http::error::partial_message ||
               ec.category() != http::make_error_code(http::error::bad_method).category()) {
      close();  // the client went away (or the socket failed): no one to answer
    } else {
      send(error_reply(400, "", "malformed HTTP request: " + ec.message()), true);
    }
    return true;
  }

  void on_header(beast::error_code ec) {
    started_ = Clock::now();
    if (failed(ec)) return;
    const auto& req = parser_->get();
    // The client's id when it is one we can log as is (and only one), else ours.
    const std::string_view given = sv(req["X-Request-Id"]);
    request_id_ = req.count("X-Request-Id") == 1 && acceptable_request_id(given) ? std::string(given)
                                                                                 : srv_.new_request_id();
    target_ = std::string(req.target());
    const std::string_view method = sv(req.method_string());
    method_ = method == "GET" || method == "POST" || method == "DELETE" ? std::string(method) : "other";
    const bool more = !parser_->is_done();  // a body follows: an early refusal closes
    // RFC 9112 section 3.2: an HTTP/1.1 request has exactly one Host; none
    // or more than one is a 400 (HTTP/1.0 may omit it).
    const auto hosts = req.count(http::field::host);
    if (hosts > 1 || (hosts == 0 && req.version() >= 11))
      return send(error_reply(400, "Host",
                              hosts > 1 ? "more than one Host header"
                                        : "an HTTP/1.1 request needs a Host header (RFC 9112)"),
                  more);
    if (srv_.loopback && req.count(http::field::host) > 0 && !loopback_host(sv(req[http::field::host])))
      return send(error_reply(400, "Host",
                              fmt::format("Host \"{}\" is not this daemon's (it listens on loopback only)",
                                          printable(std::string(req[http::field::host].substr(0, 80))))),
                  more);
    const Target t = parse_target(sv(req.target()));
    if (t.status != 0) {
      if (t.status == 400) route_ = "bad target";
      if (t.status == 404) route_ = "unknown";
      return send(error_reply(t.status, t.field, t.message), more);
    }
    route_ = route_label(t.route);
    const std::optional<Call> call = call_of(t.route, method);
    if (!call) {
      Reply r = error_reply(405, "",
                            fmt::format("{} takes {}, not {}", route_, allowed_methods(t.route),
                                        printable(std::string(method))));
      r.headers.emplace_back(http::field::allow, allowed_methods(t.route));
      return send(std::move(r), more);
    }
    // The token is checked on any request that carries one (a GET with it
    // makes its connection trusted too) and needed on those that change state.
    // With TLS (the daemon reachable beyond loopback) reads need it too,
    // but for the liveness and readiness probes.
    const bool needs_token =
        changes_state(*call) || (srv_.tls && *call != Call::kHealthz && *call != Call::kReadyz);
    if (needs_token || req.count(http::field::authorization) > 0) {
      std::string why;
      const auto n = req.count(http::field::authorization);
      if (n == 0) {
        why = changes_state(*call)
                  ? "this request changes state: it needs Authorization: Bearer <token>"
                  : "over TLS every request but the probes needs Authorization: Bearer <token>";
      } else if (n > 1) {
        why = "more than one Authorization header";
      } else {
        const std::string_view value = trim(sv(req[http::field::authorization]));
        const auto space = value.find(' ');
        if (space == std::string_view::npos || lower(value.substr(0, space)) != "bearer") {
          why = "Authorization must be Bearer <token>";
        } else if (auto t = find_token(*srv_.tokens(), trim(value.substr(space + 1)))) {
          caller_.name = t->name;
          caller_.role = t->role;
        } else {
          why = "wrong token";
        }
      }
      trusted_ |= why.empty();
      if (!why.empty() && needs_token) {
        Reply r = error_reply(401, "Authorization", why + "; nothing was done");
        r.headers.emplace_back(http::field::www_authenticate, "Bearer realm=\"lightraild\"");
        return send(std::move(r), more);
      }
      if (changes_state(*call) && caller_.role == Role::kReader)
        return send(error_reply(403, "Authorization",
                                fmt::format("token {} is a reader: it may change nothing; nothing was done",
                                            caller_.name)),
                    more);
    }
    if (*call == Call::kSubmit && req.count("Idempotency-Key") > 0) {
      if (req.count("Idempotency-Key") > 1)
        return send(error_reply(400, "Idempotency-Key", "more than one Idempotency-Key header"), more);
      std::string_view key = trim(sv(req["Idempotency-Key"]));
      // The IETF draft's form is a quoted string; a bare one is taken too.
      if (key.size() >= 2 && key.front() == '"' && key.back() == '"') key = key.substr(1, key.size() - 2);
      if (const std::string why = idempotency_key_problem(key); !why.empty())
        return send(error_reply(400, "Idempotency-Key", why), more);
      caller_.idempotency_key = std::string(key);
    }
    if (takes_body(*call)) {
      const std::string type =
          req.count(http::field::content_type) ? std::string(req[http::field::content_type]) : "";
      const std::string media = lower(trim(std::string_view(type).substr(0, type.find(';'))));
      if (media != kJsonType)
        return send(error_reply(415, "Content-Type",
                                type.empty() ? "the body must be JSON: Content-Type: application/json"
                                             : fmt::format("the body must be application/json, not {}",
                                                           printable(type.substr(0, 80)))),
                    more);
    }
    call_ = *call;
    id_ = t.id;
    if (answered_at_once(call_)) return send(srv_.at_once(call_), more);
    if (!more) return on_body({});
    if (beast::iequals(req[http::field::expect], "100-continue")) {
      continue_.emplace(http::status::continue_, req.version());
      on_stream([&](auto& stream) {
        http::async_write(stream, *continue_, [self = shared_from_this()](beast::error_code ec, size_t) {
          if (ec) return self->close();
          self->read_body();
        });
      });
      return;
    }
    read_body();
  }

  void read_body() {
    on_stream([&](auto& stream) {
      http::async_read(stream, buffer_, *parser_,
                       [self = shared_from_this()](beast::error_code ec, size_t) { self->on_body(ec); });
    });
  }

  void on_body(beast::error_code ec) {
    if (failed(ec)) return;
    const auto& req = parser_->get();
    json body;
    if (takes_body(call_)) {
      try {
        body = parse_json_text(req.body(), "request body");
      } catch (const FormatError& e) {
        const auto& p = e.problems();
        return send(p.empty() ? error_reply(400, "", e.what())
                              : error_reply(400, p.front().where, p.front().message));
      }
    }
    if (srv_.stopping) return send(error_reply(503, "", "the daemon is stopping; nothing was done"), true);
    busy_ = true;
    auto self = shared_from_this();
    HttpServer::Impl* srv = &srv_;
    const bool queued =
        srv_.worker.push({[self, srv, call = call_, id = id_, caller = caller_, request_id = request_id_,
                           body = std::move(body)]() mutable {
                            Reply r = srv->invoke(call, id, body, caller, request_id);
                            asio::post(srv->ioc, [self = std::move(self), r = std::move(r)]() mutable {
                              self->answer(std::move(r));
                            });
                          },
                          [self, srv]() mutable {
                            asio::post(srv->ioc, [self = std::move(self)] {
                              self->answer(error_reply(503, "", "the daemon is stopping; nothing was done"));
                            });
                          }});
    if (!queued) {
      busy_ = false;
      send(error_reply(503, "",
                       srv_.stopping
                           ? "the daemon is stopping; nothing was done"
                           : fmt::format("busy: {} requests are waiting; nothing was done, retry later",
                                         srv_.opt.queue_limit)));
    }
  }

  void send(Reply r, bool close_after = false) {
    if (closed_) return;
    if (parser_ && parser_->is_header_done()) {
      keep_alive_ = parser_->get().keep_alive();
      version_ = parser_->get().version();
    } else {
      keep_alive_ = false;
      version_ = 11;
    }
    res_.emplace();
    res_->version(version_);
    res_->result(static_cast<unsigned>(r.status));
    res_->set(http::field::server, "lightraild");
    res_->set(http::field::content_type, r.content_type);
    res_->set(http::field::cache_control, "no-store");
    for (auto& [f, v] : r.headers) res_->set(f, v);
    for (auto& [f, v] : r.extra) res_->set(f, v);
    if (!request_id_.empty()) res_->set("X-Request-Id", request_id_);
    res_->body() = r.metrics ? srv_.http_metrics() + r.body : std::move(r.body);
    const bool keep = keep_alive_ && !close_after && !r.close && !srv_.stopping;
    res_->keep_alive(keep);
    res_->prepare_payload();
    status_ = r.status;
    socket_layer().expires_after(srv_.opt.timeout);
    writing_ = true;
    on_stream([&](auto& stream) {
      http::async_write(stream, *res_, [self = shared_from_this(), keep](beast::error_code ec, size_t) {
        self->writing_ = false;
        self->on_written(ec, keep);
      });
    });
  }

  void on_written(beast::error_code ec, bool keep) {
    const double seconds = std::chrono::duration<double>(Clock::now() - started_).count();
    srv_.count(route_, method_, status_, seconds);
    if (srv_.opt.log) {  // the access line, built only when someone reads it
      json fields = {{"peer", peer_},
                     {"method", method_ == "other" ? "?" : method_},
                     {"target", target_.substr(0, 200)},
                     {"status", status_},
                     {"duration_ms", std::round(seconds * 1e5) / 100}};
      if (!request_id_.empty()) fields["request_id"] = request_id_;
      srv_.log(
          fmt::format("{} {} {} {} {:.2f} ms{}", peer_, method_ == "other" ? "?" : method_,
                      printable(target_.substr(0, 200)), status_, seconds * 1e3, ec ? " (write failed)" : ""),
          ec ? LogLevel::kWarn : LogLevel::kInfo, std::move(fields));
    }
    if (ec == beast::error::timeout) ++srv_.timeouts;
    if (ec || !keep || srv_.stopping) return close();
    read_header();
  }

  // The bytes: plain TCP, or TLS over it (--tls-cert).
  beast::tcp_stream& socket_layer() { return tls_ ? beast::get_lowest_layer(*tls_) : *plain_; }
  template <typename F>
  void on_stream(F&& f) {
    if (tls_)
      f(*tls_);
    else
      f(*plain_);
  }

  HttpServer::Impl& srv_;
  std::optional<beast::tcp_stream> plain_;
  std::optional<beast::ssl_stream<beast::tcp_stream>> tls_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::optional<http::response<http::empty_body>> continue_;
  std::optional<http::response<http::string_body>> res_;
  std::string peer_, route_, method_, target_, id_;
  Call call_ = Call::kList;
  Clock::time_point started_ = Clock::now();
  unsigned version_ = 11;
  bool keep_alive_ = false;
  int status_ = 0;
  bool busy_ = false;
  bool closed_ = false;
  bool writing_ = false;
  bool trusted_ = false;    // has sent a request with the right bearer token
  Caller caller_;           // the request's token name and role, its Idempotency-Key
  std::string request_id_;  // X-Request-Id: the client's, or one of ours
  uint64_t seq_ = 0;
};

}  // namespace

void HttpServer::Impl::accept() {
  acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
    if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
    if (ec) {
      // Out of descriptors, most likely: try again shortly rather than spin.
      log(fmt::format("accept failed: {}", ec.message()));
      accept_retry.expires_after(std::chrono::milliseconds(100));
      accept_retry.async_wait([this](beast::error_code e) {
        if (!e) accept();
      });
      return;
    }
    if (stopping) return refuse_connection(std::move(socket));
    if (connections.size() >= max_connections && !evict_a_stranger()) {
      ++refused;
      log(fmt::format("refused a connection: {} are open (the limit), none of them an idle stranger",
                      connections.size()));
      refuse_connection(std::move(socket));
    } else {
      ++accepted;
      beast::error_code nodelay;
      socket.set_option(tcp::no_delay(true), nodelay);
      std::make_shared<Connection>(std::move(socket), *this, accepted)->start();
    }
    accept();
  });
}

// Liveness, readiness and version: from the I/O thread, so they never wait
// behind the worker (a probe must not time out while a commit runs).
Reply HttpServer::Impl::at_once(Call call) {
  Reply r;
  if (call == Call::kHealthz) {
    json out = {{"status", "alive"}};
    stamp_schema(out, "lightrail.daemon-alive/1");
    r.body = dump(out);
  } else if (call == Call::kVersion) {
    const VersionInfo& v = version();
    json out = {
        {"name", "lightraild"}, {"source", std::string(v.source_hash)}, {"regmap_version", v.regmap_version}};
    stamp_schema(out, "lightrail.daemon-version/1");
    r.body = dump(out);
  } else {
    std::string why = stopping ? "the daemon is stopping" : service.not_ready();
    r.status = why.empty() ? 200 : 503;
    json out = why.empty() ? json{{"ready", true}} : json{{"ready", false}, {"problem", why}};
    stamp_schema(out, "lightrail.daemon-ready/1");
    r.body = dump(out);
  }
  return r;
}

// At the cap: the oldest connection that never sent the token and has
// nothing under way makes room. False when there is none.
bool HttpServer::Impl::evict_a_stranger() {
  Connection* victim = nullptr;
  for (Connection* c : connections)
    if (c->evictable() && (!victim || c->seq() < victim->seq())) victim = c;
  if (!victim) return false;
  ++evicted;
  // Logged every 100th: a flood of strangers must not flood the log too.
  if (evicted % 100 == 1)
    log(fmt::format("closed {} (no token sent) to admit a new connection at the limit of {}; {} so far",
                    victim->peer(), max_connections, evicted.load()));
  victim->close();
  return true;
}

void HttpServer::Impl::refuse_connection(tcp::socket socket) {
  // One small write to a fresh socket fits its send buffer: never blocks.
  const Reply r =
      error_reply(503, "",
                  stopping ? "the daemon is stopping"
                           : fmt::format("busy: {} connections are open (the limit)", max_connections));
  const std::string text = fmt::format(
      "HTTP/1.1 503 Service Unavailable\r\nServer: lightraild\r\nContent-Type: {}\r\nRetry-After: 1\r\n"
      "Content-Length: {}\r\nConnection: close\r\n\r\n{}",
      kJsonType, r.body.size(), r.body);
  beast::error_code ec;
  socket.non_blocking(true, ec);
  socket.write_some(asio::buffer(text), ec);
  socket.shutdown(tcp::socket::shutdown_both, ec);
  socket.close(ec);
}

void HttpServer::Impl::keepalive() {
  try {
    service.keepalive();
    ++keepalives;
  } catch (const std::exception& e) {
    ++keepalive_errors;
    log_from_worker(std::string("keepalive failed: ") + e.what(), LogLevel::kWarn);
  }
}

namespace {
thread_local std::string current_request;
}  // namespace

const std::string& current_request_id() { return current_request; }

bool acceptable_request_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
          c == '_' || c == '.' || c == ':'))
      return false;
  return true;
}

Reply HttpServer::Impl::invoke(Call call, const std::string& id, const json& body, const Caller& caller,
                               const std::string& request_id) {
  // What the Service logs during the call carries the request's id.
  current_request = request_id;
  struct Clear {
    ~Clear() { current_request.clear(); }
  } clear;
  try {
    json out;
    int status = 200;
    bool replayed = false;
    switch (call) {
      case Call::kSubmit: {
        Submitted s = service.submit(body, caller);
        out = std::move(s.job);
        replayed = s.replayed;
        status = 201;  // a replay answers as the first request was answered
        break;
      }
      case Call::kPhase:
        out = service.phase(id, body, caller);
        break;
      case Call::kReplacePhases:
        out = service.replace_phases(id, body, caller);
        break;
      case Call::kProgress:
        out = service.progress(id, body, caller);
        break;
      case Call::kList:
        out = service.list();
        break;
      case Call::kGet:
        out = service.get(id);
        break;
      case Call::kRemove:
        out = service.remove(id, caller);
        break;
      case Call::kFabric:
        out = service.fabric_state();
        break;
      case Call::kHealthz:
      case Call::kReadyz:
      case Call::kVersion:
        return at_once(call);  // not queued (on_header), but complete
      case Call::kMetrics: {
        Reply r;
        r.body = service.metrics();
        if (!r.body.empty() && r.body.back() != '\n') r.body += '\n';
        r.content_type = kMetricsType;
        r.metrics = true;
        return r;
      }
    }
    if (out.is_object()) stamp_schema(out, schema_of(call));
    Reply r;
    r.status = status;
    r.body = dump(out);
    if (call == Call::kSubmit && out.is_object() && out.contains("id") && out["id"].is_string() &&
        job_id_problem(out["id"].get<std::string>()).empty())
      r.headers.emplace_back(http::field::location, "/v1/jobs/" + out["id"].get<std::string>());
    if (replayed) r.extra.emplace_back("Idempotent-Replayed", "true");
    return r;
  } catch (const ApiError& e) {
    const int status = e.status >= 400 && e.status <= 599 ? e.status : 500;
    return error_reply(status, e.field, e.what());
  } catch (const FormatError& e) {
    const auto& p = e.problems();
    return p.empty() ? error_reply(400, "", e.what()) : error_reply(400, p.front().where, p.front().message);
  } catch (const ValidationError& e) {
    const auto& p = e.problems();
    return p.empty() ? error_reply(400, "", e.what()) : error_reply(400, p.front().where, p.front().message);
  } catch (const BoardBusyError& e) {
    return error_reply(409, "", e.what());
  } catch (const Error& e) {
    return error_reply(502, "", e.what());  // a board or its connection failed
  } catch (const json::exception& e) {
    return error_reply(400, "", std::string("the body does not have the expected shape: ") + e.what());
  } catch (const std::invalid_argument& e) {
    return error_reply(400, "", e.what());
  } catch (const std::exception& e) {
    log_from_worker(std::string("internal error: ") + e.what(), LogLevel::kError);
    return error_reply(500, "", std::string("internal error: ") + e.what());
  }
}

std::string HttpServer::Impl::http_metrics() {
  auto label = [](const std::string& v) {
    std::string out;
    for (char c : v) {
      if (c == '\\' || c == '"') out += '\\';
      out += c;
    }
    return out;
  };
  std::string m;
  const VersionInfo& v = version();
  m += fmt::format(
      "# HELP lightraild_build_info The daemon's build: version, source hash, register map version.\n"
      "# TYPE lightraild_build_info gauge\n"
      "lightraild_build_info{{version=\"{}\",source=\"{}\",regmap_version=\"{}\"}} 1\n",
      label(std::string(v.version)), label(std::string(v.source_hash)), v.regmap_version);
  m += "# HELP lightraild_http_requests_total Replies sent, by route pattern, method and status.\n";
  m += "# TYPE lightraild_http_requests_total counter\n";
  for (const auto& [k, n] : requests_by)
    m += fmt::format("lightraild_http_requests_total{{route=\"{}\",method=\"{}\",status=\"{}\"}} {}\n",
                     label(std::get<0>(k)), std::get<1>(k), std::get<2>(k), n);
  m += "# HELP lightraild_http_request_duration_seconds From a request's header read to its reply written.\n";
  m += "# TYPE lightraild_http_request_duration_seconds histogram\n";
  for (const auto& [route, h] : latency)
    m += h.lines("lightraild_http_request_duration_seconds", fmt::format("route=\"{}\"", label(route)));
  auto one = [&](const char* name, const char* type, const char* help, double v) {
    m += fmt::format("# HELP {} {}\n# TYPE {} {}\n{} {}\n", name, help, name, type, name, v);
  };
  one("lightraild_http_queue_depth", "gauge", "Requests waiting for the worker.", double(worker.depth()));
  one("lightraild_http_queue_limit", "gauge", "Requests that may wait; beyond, 503.",
      double(opt.queue_limit));
  one("lightraild_http_connections_open", "gauge", "Client connections open.", double(open.load()));
  one("lightraild_http_connections_limit", "gauge",
      "Connections that may be open (the option, or what the descriptor limit leaves).",
      double(max_connections));
  one("lightraild_http_connections_accepted_total", "counter", "Connections accepted.", double(accepted));
  one("lightraild_http_connections_refused_total", "counter", "Connections refused at the limit.",
      double(refused));
  one("lightraild_http_connections_evicted_total", "counter",
      "Idle connections that never sent the token, closed to admit a new one at the limit.",
      double(evicted.load()));
  one("lightraild_http_timeouts_total", "counter", "Connections closed by their read or write deadline.",
      double(timeouts.load()));
  one("lightraild_keepalive_total", "counter", "Service keepalive() calls that returned.",
      double(keepalives.load()));
  one("lightraild_keepalive_errors_total", "counter", "Service keepalive() calls that threw.",
      double(keepalive_errors.load()));
  return m;
}

namespace {

// The server's TLS: TLS 1.2 and later, the certificate chain and its key
// from PEM files. The key is a secret: it must be a regular file of this
// user's that no one else may use (as a token file). Throws FormatError
// naming the option and the file.
std::unique_ptr<asio::ssl::context> tls_context(const std::string& cert, const std::string& key) {
  struct stat st {};
  if (::stat(key.c_str(), &st) != 0)
    throw FormatError(fmt::format("--tls-key {}: cannot stat ({})", key, std::strerror(errno)));
  if (!S_ISREG(st.st_mode)) throw FormatError(fmt::format("--tls-key {}: not a regular file", key));
  if (st.st_uid != ::geteuid())
    throw FormatError(
        fmt::format("--tls-key {}: owned by uid {}, not by this user (uid {})", key, st.st_uid, ::geteuid()));
  if (st.st_mode & (S_IRWXG | S_IRWXO))
    throw FormatError(fmt::format("--tls-key {}: group or others may use it (mode {:04o}): chmod 600 {}", key,
                                  st.st_mode & 07777, key));
  auto ctx = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  ctx->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                   asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                   asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
  beast::error_code ec;
  ctx->use_certificate_chain_file(cert, ec);
  if (ec)
    throw FormatError(fmt::format("--tls-cert {}: not a PEM certificate chain ({})", cert, ec.message()));
  ctx->use_private_key_file(key, asio::ssl::context::pem, ec);
  if (ec) throw FormatError(fmt::format("--tls-key {}: not a PEM private key ({})", key, ec.message()));
  if (SSL_CTX_check_private_key(ctx->native_handle()) != 1)
    throw FormatError(fmt::format("--tls-key {}: not the key of the certificate in {}", key, cert));
  return ctx;
}

}  // namespace

bool is_loopback_address(const std::string& address) {
  beast::error_code ec;
  const auto a = asio::ip::make_address(address, ec);
  return !ec && a.is_loopback();
}

HttpServer::HttpServer(Service& service, HttpOptions options)
    : impl_(std::make_unique<Impl>(service, std::move(options))) {
  const HttpOptions& o = impl_->opt;
  std::vector<NamedToken> tokens = o.tokens;
  if (!o.token.empty()) tokens.push_back({"admin", Role::kAdmin, o.token});
  set_tokens(std::move(tokens));
  if (o.body_limit == 0 || o.header_limit < 256 || o.max_connections == 0 || o.queue_limit == 0 ||
      o.timeout.count() <= 0 || o.stranger_timeout.count() <= 0 || o.keepalive_interval.count() <= 0)
    throw std::invalid_argument(
        "HTTP limits must be positive (header limit at least 256 bytes, timeout and keepalive at least 1 "
        "ms)");
  if (o.header_limit > UINT32_MAX) throw std::invalid_argument("the header limit must fit 32 bits");
  beast::error_code ec;
  const auto address = asio::ip::make_address(o.bind, ec);
  if (ec) throw std::invalid_argument(fmt::format("--bind {}: not an IP address", printable(o.bind)));
  impl_->loopback = address.is_loopback();
  if (o.tls_cert.empty() != o.tls_key.empty())
    throw std::invalid_argument("--tls-cert and --tls-key go together: give both or neither");
  if (!impl_->loopback && o.tls_cert.empty())
    throw std::invalid_argument(fmt::format(
        "--bind {} is not a loopback address: give --tls-cert and --tls-key (the bearer token must not cross "
        "the network in the clear)",
        printable(o.bind)));
  if (!o.tls_cert.empty()) impl_->tls = tls_context(o.tls_cert, o.tls_key);
  impl_->max_connections = descriptor_cap(o.max_connections);
  if (impl_->max_connections < o.max_connections)
    impl_->log(fmt::format("at most {} connections, not {}: the descriptor limit (ulimit -n) leaves no more",
                           impl_->max_connections, o.max_connections));
  const tcp::endpoint at(address, o.port);
  auto& acc = impl_->acceptor;
  auto fail = [&](const char* what) {
    return std::runtime_error(fmt::format("cannot {} {}:{}: {}", what, o.bind, o.port, ec.message()));
  };
  acc.open(at.protocol(), ec);
  if (ec) throw fail("open a socket for");
  acc.set_option(asio::socket_base::reuse_address(true), ec);
  acc.bind(at, ec);
  if (ec) throw fail("bind");
  acc.listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw fail("listen on");
}

HttpServer::~HttpServer() { stop(); }

uint16_t HttpServer::port() const {
  beast::error_code ec;
  const auto ep = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : ep.port();
}

void HttpServer::start() {
  std::lock_guard<std::mutex> lock(impl_->stop_mutex);
  if (impl_->started || impl_->stopped) return;
  impl_->started = true;
  impl_->guard.emplace(impl_->ioc.get_executor());
  impl_->accept();
  impl_->worker.start();
  impl_->io_thread = std::thread([this] { impl_->ioc.run(); });
}

void HttpServer::stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mutex);
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->worker.close();
  impl_->stopping = true;
  if (!impl_->started) {
    beast::error_code ec;
    impl_->acceptor.close(ec);
    return;
  }
  Impl* impl = impl_.get();
  asio::post(impl->ioc, [impl] {
    beast::error_code ec;
    impl->acceptor.close(ec);
    impl->accept_retry.cancel();
    // Idle and half-read connections go now; one with a call in the worker
    // is answered first (with Connection: close).
    std::vector<Connection*> idle;
    for (Connection* c : impl->connections)
      if (!c->busy()) idle.push_back(c);
    for (Connection* c : idle) c->close();
  });
  impl->worker.stop();  // every reply it owes is posted when this returns
  impl->guard.reset();
  impl->io_thread.join();
}

void HttpServer::set_tokens(std::vector<NamedToken> tokens) {
  if (tokens.empty()) throw std::invalid_argument("no bearer token: nobody could change anything");
  for (const NamedToken& t : tokens)
    if (const std::string why = token_problem(t.token); !why.empty())
      throw std::invalid_argument(fmt::format("the bearer token {}: {}", t.name, why));
  auto set = std::make_shared<const std::vector<NamedToken>>(std::move(tokens));
  std::lock_guard<std::mutex> lock(impl_->tokens_mutex);
  impl_->token_set = std::move(set);
}

HttpStats HttpServer::stats() const {
  HttpStats s;
  s.open_connections = impl_->open.load();
  s.queue_depth = impl_->worker.depth();
  s.requests = impl_->requests.load();
  s.timeouts = impl_->timeouts.load();
  s.evicted = impl_->evicted.load();
  s.max_connections = impl_->max_connections;
  s.keepalives = impl_->keepalives.load();
  s.keepalive_errors = impl_->keepalive_errors.load();
  s.stopping = impl_->stopping.load();
  return s;
}

}  // namespace lightrail::daemon
