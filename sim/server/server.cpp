#include "server/server.hpp"

#include <dirent.h>
#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <boost/asio.hpp>
#include <future>
#include <iostream>
#include <optional>
#include <thread>
#include <unordered_map>
#include <utility>

#include "server/protocol.hpp"

#ifndef LIGHTRAIL_COSIM_IMAGE_UUID
#define LIGHTRAIL_COSIM_IMAGE_UUID "00000000-0000-0000-0000-000000000000"
#endif

namespace lightrail::sim {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;
using protocol::Verb;

namespace {

// How often a request waiting for the simulation checks that it still runs:
// a request queued as the simulation ends is taken back and refused.
constexpr std::chrono::milliseconds kEndCheck{50};
// After an accept() failure (out of descriptors), before trying again.
constexpr std::chrono::milliseconds kAcceptRetry{50};
// Descriptors kept free beyond the connections: the report at the end, the
// accept of one more (to refuse it), a host's own files.
constexpr size_t kReservedDescriptors = 16;

// The connection cap the descriptor limit leaves (0 when neither caps).
size_t descriptor_cap(size_t wanted) {
  rlimit rl{};
  if (::getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return wanted;
  size_t used = kReservedDescriptors;
  if (DIR* d = ::opendir("/proc/self/fd")) {
    while (const dirent* e = ::readdir(d)) used += e->d_name[0] != '.';
    ::closedir(d);
  }
  const size_t room = rl.rlim_cur > used ? size_t(rl.rlim_cur - used) : 1;
  return wanted == 0 ? room : std::min(wanted, room);
}

}  // namespace

class Session;

struct BoardServer::Impl {
  std::vector<BusQueue*> buses;
  HostLink& link;
  ServerOptions opt;
  size_t cap = 0;         // connections at once (0: none); opt's, lowered by the descriptor limit
  uint64_t accepted = 0;  // sessions started, in order (the oldest silent one makes room)
  asio::io_context io;
  tcp::acceptor acceptor;
  asio::steady_timer accept_retry{io};
  bool accept_failing = false;
  std::thread thread;
  bool started = false, stopped = false;
  // Every open session, and every closed one whose request the simulation
  // still holds (it must outlive it). Touched only by the server thread (and
  // by stop() once that has ended).
  std::unordered_map<Session*, std::shared_ptr<Session>> sessions;

  Impl(std::vector<BusQueue*> b, uint16_t port, HostLink& l, ServerOptions o)
      : buses(std::move(b)),
        link(l),
        opt(std::move(o)),
        acceptor(io, tcp::endpoint(asio::ip::address_v4::loopback(), port)) {}

  void accept();
  bool evict_a_silent_one();
  void refuse(tcp::socket sock);
  void run();
};

// One connection: reads request lines, answers each in order. A bus request
// is handed to the simulation; its answer comes back as a post to this
// thread, so no session ever blocks another.
class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(BoardServer::Impl& srv, tcp::socket sock, uint64_t seq)
      : srv_(srv), sock_(std::move(sock)), idle_(srv.io), end_check_(srv.io), seq_(seq) {}

  uint64_t seq() const { return seq_; }
  // Has not sent one line yet, and nothing of its is under way: may be
  // closed to admit another at the cap.
  bool silent() const { return !spoke_ && !closed_ && !req_ && !writing_; }

  void start() {
    error_code ec;
    sock_.set_option(tcp::no_delay(true), ec);
    arm_idle();
    pump();
  }

  void close() {
    if (closed_) return;
    closed_ = true;
    error_code ec;
    sock_.shutdown(tcp::socket::shutdown_both, ec);
    sock_.close(ec);
    idle_.cancel();
    if (!req_) forget();
  }

  // Server stopping, its thread ended, the simulation not running (it runs
  // in the thread that stops the server): no answer can come through this
  // server any more. A request still queued is taken back; one the bus holds
  // unanswered stays allocated, without its notice, should the bus run again.
  void abandon() {
    close();
    if (!req_) return;
    end_check_.cancel();
    if (!bus().remove(req_.get()) && fut_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      req_->notify = nullptr;
      (void)req_.release();
    }
    req_.reset();
  }

 private:
  BusQueue& bus() { return *srv_.buses[size_t(board_)]; }
  void forget() { srv_.sessions.erase(this); }  // callers hold a reference

  // Idle: no complete request line and no reply taken for this long.
  void arm_idle() {
    if (srv_.opt.idle_timeout.count() == 0) return;
    idle_.expires_after(srv_.opt.idle_timeout);
    idle_.async_wait([self = shared_from_this()](const error_code& ec) {
      if (ec || self->closed_ || self->req_) return;
      if (self->idle_.expiry() > asio::steady_timer::clock_type::now()) return;  // re-armed meanwhile
      self->close();
    });
  }

  void read() {
    sock_.async_read_some(asio::buffer(chunk_), [self = shared_from_this()](const error_code& ec, size_t n) {
      if (self->closed_) return;
      if (ec) return self->close();
      self->in_.append(self->chunk_.data(), n);
      self->pump();
    });
  }

  void send(std::string reply) {
    out_ = std::move(reply);
    out_ += '\n';
    writing_ = true;
    arm_idle();  // a client that never reads its replies is idle too
    asio::async_write(sock_, asio::buffer(out_), [self = shared_from_this()](const error_code& ec, size_t) {
      self->writing_ = false;
      if (self->closed_) return;
      if (ec) return self->close();
      self->arm_idle();
      self->pump();
    });
  }

  // Runs the next complete line, or reads more. A line longer than the
  // longest legal request is answered at once, and the rest of it, up to
  // its newline, ignored: the client stays in step, one reply per line.
  void pump() {
    if (closed_ || writing_ || req_) return;
    for (;;) {
      const size_t nl = in_.find('\n', scanned_);
      if (nl == std::string::npos) {
        scanned_ = in_.size();
        if (discarding_) {
          in_.clear();
          scanned_ = 0;
        } else if (in_.size() > protocol::kMaxLineBytes) {
          in_.clear();
          scanned_ = 0;
          discarding_ = true;
          return send(fmt::format(
              "ERR request longer than {} bytes (the longest legal one): ignored up to its newline",
              protocol::kMaxLineBytes));
        }
        return read();
      }
      const std::string line = in_.substr(0, nl);
      in_.erase(0, nl + 1);
      spoke_ = true;
      scanned_ = 0;
      if (discarding_) {  // the end of a line already answered
        discarding_ = false;
        continue;
      }
      arm_idle();
      if (std::optional<std::string> reply = handle(line)) return send(std::move(*reply));
      return;  // on the bus: bus_done() goes on
    }
  }

  // A reply now, or none when the request went to the simulation.
  std::optional<std::string> handle(const std::string& line) {
    const protocol::Parsed p = protocol::parse_request(line);
    if (!p.ok) return "ERR " + p.error;
    const protocol::Request& rq = p.request;
    const bool locked = !srv_.opt.token.empty() && !authed_;
    switch (rq.verb) {
      case Verb::kHello:
        if (rq.board >= srv_.buses.size()) {
          board_ = -1;  // a failed HELLO leaves no board chosen
          return fmt::format("ERR no board {} (this server has boards 0..{})", rq.board,
                             srv_.buses.size() - 1);
        }
        board_ = int(rq.board);
        return fmt::format("OK lightrail-cosim {}", srv_.buses.size());
      case Verb::kAuth:
        if (srv_.opt.token.empty()) return "OK";
        authed_ = protocol::same_token(srv_.opt.token, rq.token);
        return authed_ ? "OK" : "ERR AUTH refused: wrong token";
      case Verb::kImage:
        // The image the served boards run (one build of this model): the
        // UUID its descriptor names, as XRT reports an xclbin's.
        return "OK " LIGHTRAIL_COSIM_IMAGE_UUID;
      case Verb::kShutdown:
        if (locked) return "ERR SHUTDOWN needs AUTH <token> first (the server was started with --token-file)";
        srv_.link.stop.store(true);
        return "OK";
      default:
        break;
    }
    if (board_ < 0) return "ERR say HELLO <board> first";
    if (rq.verb == Verb::kWrite && locked)
      return "ERR WR needs AUTH <token> first (the server was started with --token-file)";
    if (srv_.link.ended) return "ERR simulation ended";
    req_ = std::make_unique<BusRequest>();
    BusRequest& r = *req_;
    r.kind = rq.verb == Verb::kRead    ? BusRequest::Kind::kRead
             : rq.verb == Verb::kWrite ? BusRequest::Kind::kWrite
             : rq.verb == Verb::kTime  ? BusRequest::Kind::kTime
                                       : BusRequest::Kind::kReport;
    r.addr = rq.addr;
    r.count = rq.count;
    r.data = rq.words;
    r.in_flight = &srv_.link.outstanding;
    fut_ = r.done.get_future();
    r.notify = [weak = weak_from_this(), ex = sock_.get_executor()] {
      asio::post(ex, [weak] {
        if (auto self = weak.lock()) self->bus_done();
      });
    };
    idle_.cancel();  // waiting for the simulation is not idleness
    bus().push(&r);
    check_end();
    return std::nullopt;
  }

  void check_end() {
    end_check_.expires_after(kEndCheck);
    end_check_.async_wait([self = shared_from_this()](const error_code& ec) {
      if (ec || !self->req_) return;
      if (self->srv_.link.ended && self->bus().remove(self->req_.get())) {
        BusRequest::Result r;
        r.ok = false;
        r.error = "simulation ended";
        return self->finish(r);
      }
      self->check_end();
    });
  }

  void bus_done() {
    if (req_ && fut_.valid()) finish(fut_.get());
  }

  void finish(const BusRequest::Result& r) {
    end_check_.cancel();
    const BusRequest::Kind kind = req_->kind;
    const uint32_t addr = req_->addr;
    req_.reset();
    if (closed_) return forget();
    send(reply(kind, addr, r));
  }

  static std::string reply(BusRequest::Kind kind, uint32_t addr, const BusRequest::Result& r) {
    const bool write = kind == BusRequest::Kind::kWrite;
    if (!r.ok && r.axi_resp != 0)
      return "ERR " + protocol::refused_at(write, addr, r.axi_resp, r.failed_word);
    if (!r.ok) return "ERR " + r.error;
    switch (kind) {
      case BusRequest::Kind::kRead: {
        std::string s = "OK";
        s.reserve(3 + 9 * r.data.size());
        for (uint32_t w : r.data) s += fmt::format(" {:x}", w);
        return s;
      }
      case BusRequest::Kind::kTime:
        return fmt::format("OK {} {}", uint64_t(r.data[0]) | uint64_t(r.data[1]) << 32, r.sim_fs);
      case BusRequest::Kind::kReport:
        return "OK " + r.text;
      default:
        return "OK";
    }
  }

  BoardServer::Impl& srv_;
  tcp::socket sock_;
  asio::steady_timer idle_, end_check_;
  std::array<char, 16384> chunk_;
  std::string in_;      // received, not yet run
  size_t scanned_ = 0;  // in_[0, scanned_) holds no newline
  bool discarding_ = false;
  bool writing_ = false, closed_ = false;
  std::string out_;
  int board_ = -1;
  bool authed_ = false;
  bool spoke_ = false;  // a complete line came
  uint64_t seq_ = 0;
  std::unique_ptr<BusRequest> req_;  // in the simulation's hands
  std::future<BusRequest::Result> fut_;
};

void BoardServer::Impl::accept() {
  acceptor.async_accept([this](const error_code& ec, tcp::socket sock) {
    if (stopped || ec == asio::error::operation_aborted) return;
    if (ec) {
      // Out of descriptors, most likely: say so once, serve on once it passes.
      if (!accept_failing)
        std::cerr << "lightrail-cosim: cannot accept a connection (" << ec.message() << "); retrying\n";
      accept_failing = true;
      accept_retry.expires_after(kAcceptRetry);
      accept_retry.async_wait([this](const error_code& e) {
        if (!e && !stopped) accept();
      });
      return;
    }
    if (accept_failing) std::cerr << "lightrail-cosim: accepting connections again\n";
    accept_failing = false;
    accept();  // first: whatever happens to this one, the next is awaited
    if (cap > 0 && sessions.size() >= cap && !evict_a_silent_one()) return refuse(std::move(sock));
    auto s = std::make_shared<Session>(*this, std::move(sock), ++accepted);
    sessions.emplace(s.get(), s);
    s->start();
  });
}

// At the cap, the oldest session that has sent nothing makes room (a
// client that connects and never speaks holds no place for long).
bool BoardServer::Impl::evict_a_silent_one() {
  Session* victim = nullptr;
  for (const auto& [raw, s] : sessions)
    if (raw->silent() && (!victim || raw->seq() < victim->seq())) victim = raw;
  if (!victim) return false;
  const auto keep = sessions.at(victim);  // close() may forget it
  keep->close();
  return true;
}

// One line for a connection beyond the cap, without waiting for its reader.
void BoardServer::Impl::refuse(tcp::socket sock) {
  error_code ec;
  sock.non_blocking(true, ec);
  const std::string line = fmt::format(
      "ERR too many connections: this server takes {} at once (serve --max-connections, "
      "ulimit -n)\n",
      cap);
  sock.write_some(asio::buffer(line), ec);
  sock.shutdown(tcp::socket::shutdown_both, ec);
  sock.close(ec);
}

void BoardServer::Impl::run() {
  // A handler that throws (out of memory) costs its session, not the server.
  for (;;) {
    try {
      io.run();
      return;
    } catch (const std::exception& e) {
      std::cerr << "lightrail-cosim: board server: " << e.what() << "\n";
    }
  }
}

BoardServer::BoardServer(std::vector<BusQueue*> buses, uint16_t port, HostLink& link, ServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(buses), port, link, std::move(options))) {}

BoardServer::~BoardServer() { stop(); }

uint16_t BoardServer::port() const { return impl_->acceptor.local_endpoint().port(); }

size_t BoardServer::max_connections() const { return impl_->cap; }

void BoardServer::start() {
  if (impl_->started) return;
  impl_->started = true;
  impl_->cap = descriptor_cap(impl_->opt.max_connections);
  if (impl_->opt.max_connections > 0 && impl_->cap < impl_->opt.max_connections)
    std::cerr << fmt::format(
        "lightrail-cosim: at most {} connections, not {}: the descriptor limit (ulimit -n) leaves no more\n",
        impl_->cap, impl_->opt.max_connections);
  impl_->accept();
  impl_->thread = std::thread([this] { impl_->run(); });
}

void BoardServer::stop() {
  Impl& s = *impl_;
  if (s.stopped) return;
  s.io.stop();
  if (s.thread.joinable()) s.thread.join();
  s.stopped = true;
  error_code ec;
  s.acceptor.close(ec);
  s.accept_retry.cancel();
  auto sessions = s.sessions;  // abandon() erases
  for (auto& [raw, session] : sessions) session->abandon();
  s.sessions.clear();
  // Let the cancelled handlers run, so none outlives what it refers to.
  s.io.restart();
  s.io.run_for(std::chrono::seconds(1));
}

}  // namespace lightrail::sim
