#include "server.hpp"

#include <fmt/format.h>

#include <boost/asio.hpp>
#include <list>
#include <mutex>
#include <sstream>
#include <utility>

namespace lightrail::sim {

using boost::asio::ip::tcp;

namespace {

constexpr size_t kMaxWords = 4096;  // per request, as in docs/cosim.md
constexpr size_t kMaxLine = 16 + 9 * (kMaxWords + 2);

}  // namespace

struct BoardServer::Impl {
  std::vector<Board*> boards;
  HostLink& link;
  boost::asio::io_context io;
  tcp::acceptor acceptor;
  std::thread accept_thread;
  std::mutex mu;
  // One thread per connection; finished ones are joined and dropped as new
  // connections arrive, so a long-running server does not pile them up.
  struct Session {
    std::shared_ptr<tcp::socket> socket;
    std::thread thread;
    std::atomic<bool> done{false};
  };
  std::list<Session> sessions;
  std::atomic<bool> stopping{false};

  Impl(std::vector<Board*> b, uint16_t port, HostLink& l)
      : boards(std::move(b)),
        link(l),
        acceptor(io, tcp::endpoint(boost::asio::ip::address_v4::loopback(), port)) {}

  // Runs one request on the board's bus and waits for its simulated cycles.
  BusRequest::Result execute(Board& board, BusRequest& req) {
    BusRequest::Result r;
    r.ok = false;
    r.error = "simulation ended";
    if (link.ended) return r;
    auto done = req.done.get_future();
    req.in_flight = &link.outstanding;
    board.bus().push(&req);
    while (done.wait_for(std::chrono::milliseconds(20)) != std::future_status::ready) {
      // The simulation ended under this request: take it back.
      if (link.ended && board.bus().remove(&req)) return r;
    }
    return done.get();
  }

  std::string handle(const std::string& line, int& board) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "HELLO") {
      int b = -1;
      if (!(in >> b) || b < 0 || b >= int(boards.size()))
        return fmt::format("ERR no board {} (have {})", b, boards.size());
      board = b;
      return fmt::format("OK lightrail-cosim {}", boards.size());
    }
    if (cmd == "SHUTDOWN") {
      link.stop.store(true);
      return "OK";
    }
    if (board < 0) return "ERR say HELLO <board> first";
    BusRequest req;
    if (cmd == "RD") {
      uint64_t count = 0;
      if (!(in >> std::hex >> req.addr >> std::dec >> count) || count == 0 || count > kMaxWords)
        return fmt::format("ERR RD needs <addr_hex> <count 1..{}>", kMaxWords);
      req.kind = BusRequest::Kind::kRead;
      req.count = uint32_t(count);
    } else if (cmd == "WR") {
      req.kind = BusRequest::Kind::kWrite;
      if (!(in >> std::hex >> req.addr)) return "ERR WR needs <addr_hex> <word_hex>...";
      uint32_t w;
      while (in >> std::hex >> w) req.data.push_back(w);
      if (!in.eof() || req.data.empty() || req.data.size() > kMaxWords)
        return fmt::format("ERR WR needs 1..{} hex words", kMaxWords);
    } else if (cmd == "TIME") {
      req.kind = BusRequest::Kind::kTime;
    } else if (cmd == "REPORT") {
      req.kind = BusRequest::Kind::kReport;
    } else {
      return fmt::format("ERR unknown request '{}'", cmd);
    }
    if (req.addr % 4 != 0) return fmt::format("ERR address 0x{:X} is not word-aligned", req.addr);
    BusRequest::Result r = execute(*boards[size_t(board)], req);
    if (!r.ok) return "ERR " + r.error;
    switch (req.kind) {
      case BusRequest::Kind::kRead: {
        std::string s = "OK";
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

  // A request runs only once its whole line has arrived: a connection
  // dropped mid-line changes nothing.
  void session(Session& me) {
    tcp::socket* sock = me.socket.get();
    int board = -1;
    boost::asio::streambuf buf(kMaxLine);
    boost::system::error_code ec;
    while (!stopping) {
      boost::asio::read_until(*sock, buf, '\n', ec);
      if (ec) break;
      std::istream is(&buf);
      std::string line;
      std::getline(is, line);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      const std::string reply = handle(line, board) + "\n";
      boost::asio::write(*sock, boost::asio::buffer(reply), ec);
      if (ec) break;
    }
    sock->close(ec);
    me.done = true;
  }

  void reap() {  // with mu held
    for (auto it = sessions.begin(); it != sessions.end();) {
      if (!it->done) {
        ++it;
        continue;
      }
      it->thread.join();
      it = sessions.erase(it);
    }
  }

  void accept_loop() {
    while (!stopping) {
      auto sock = std::make_shared<tcp::socket>(io);
      boost::system::error_code ec;
      acceptor.accept(*sock, ec);
      if (stopping) break;
      if (ec) {
        // Out of descriptors or an aborted handshake: serve on once it passes.
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      std::lock_guard<std::mutex> lock(mu);
      reap();
      Session& s = sessions.emplace_back();
      s.socket = sock;
      s.thread = std::thread([this, &s] { session(s); });
    }
  }
};

BoardServer::BoardServer(std::vector<Board*> boards, uint16_t port, HostLink& link)
    : impl_(std::make_unique<Impl>(std::move(boards), port, link)) {}

BoardServer::~BoardServer() { stop(); }

uint16_t BoardServer::port() const { return impl_->acceptor.local_endpoint().port(); }

void BoardServer::start() {
  impl_->accept_thread = std::thread([this] { impl_->accept_loop(); });
}

void BoardServer::stop() {
  if (impl_->stopping.exchange(true)) return;
  boost::system::error_code ec;
  {
    // A blocked accept() wakes only for a connection: make one.
    tcp::socket poke(impl_->io);
    poke.connect(impl_->acceptor.local_endpoint(), ec);
  }
  impl_->acceptor.close(ec);
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    for (auto& s : impl_->sessions) s.socket->shutdown(tcp::socket::shutdown_both, ec);
  }
  if (impl_->accept_thread.joinable()) impl_->accept_thread.join();
  std::lock_guard<std::mutex> lock(impl_->mu);
  for (auto& s : impl_->sessions)
    if (s.thread.joinable()) s.thread.join();
  impl_->sessions.clear();
}

}  // namespace lightrail::sim
