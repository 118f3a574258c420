// A board server on 127.0.0.1 speaking the sim:// line protocol
// (docs/driver.md) over one FakeBoard, for transport and CLI tests.
#pragma once

#include <atomic>
#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fake_board.hpp"

namespace lightrail::test {

class LoopbackServer {
 public:
  // On 127.0.0.1, or on `address` ("::1"); throws boost::system::system_error
  // when that address cannot be bound.
  explicit LoopbackServer(FakeBoard& board, const std::string& address = "127.0.0.1")
      : board_(board), acceptor_(io_, tcp::endpoint(boost::asio::ip::make_address(address), 0)) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~LoopbackServer() {
    io_.stop();
    thread_.join();
  }

  std::string uri(int board = 0) const {
    const auto address = acceptor_.local_endpoint().address();
    const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
    return "sim://" + host + ":" + std::to_string(port()) + "/" + std::to_string(board);
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }

  // When set and true for a request line, the server closes that connection
  // instead of answering (a board server that dies mid-transfer).
  std::function<bool(const std::string&)> drop_when;
  // When set and it returns a reply for a request line, the server sends
  // that (a newline is added) instead of answering: a broken server.
  std::function<std::optional<std::string>(const std::string&)> reply_when;
  // When not empty, the server wants "AUTH <token>" after HELLO before any
  // other request, as a board server started with a token does.
  std::string token;
  std::atomic<int> requests{0};

  // Every request line received, in order.
  std::vector<std::string> lines() {
    std::lock_guard<std::mutex> lock(lines_mutex_);
    return lines_;
  }

 private:
  using tcp = boost::asio::ip::tcp;

  struct Session : std::enable_shared_from_this<Session> {
    Session(LoopbackServer& server, tcp::socket socket) : server(server), socket(std::move(socket)) {}
    LoopbackServer& server;
    tcp::socket socket;
    boost::asio::streambuf in;
    std::string out;
    bool authenticated = false;

    void read() {
      auto self = shared_from_this();
      boost::asio::async_read_until(socket, in, '\n', [self](boost::system::error_code ec, size_t) {
        if (ec) return;
        std::istream stream(&self->in);
        std::string line;
        std::getline(stream, line);
        ++self->server.requests;
        {
          std::lock_guard<std::mutex> lock(self->server.lines_mutex_);
          self->server.lines_.push_back(line);
        }
        if (self->server.drop_when && self->server.drop_when(line)) {
          boost::system::error_code ignored;
          self->socket.close(ignored);
          return;
        }
        std::optional<std::string> forced;
        if (self->server.reply_when) forced = self->server.reply_when(line);
        self->out = (forced ? *forced : self->server.answer(line, self->authenticated)) + "\n";
        boost::asio::async_write(self->socket, boost::asio::buffer(self->out),
                                 [self](boost::system::error_code ec2, size_t) {
                                   if (!ec2) self->read();
                                 });
      });
    }
  };

  void accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
      if (ec) return;
      std::make_shared<Session>(*this, std::move(socket))->read();
      accept();
    });
  }

  std::string answer(const std::string& line, bool& authenticated) {
    std::istringstream in(line);
    std::string cmd;
    in >> cmd;
    if (cmd == "HELLO") {
      int b = -1;
      in >> b;
      if (b != 0) return "ERR no board " + std::to_string(b) + " (1 board)";
      return "OK lightrail-cosim 1";
    }
    if (cmd == "AUTH" && !token.empty()) {
      std::string given;
      in >> given;
      authenticated = given == token;
      return authenticated ? "OK" : "ERR wrong token";
    }
    if (!token.empty() && !authenticated) return "ERR say AUTH <token> first";
    if (cmd == "RD") {
      uint64_t addr = 0;
      size_t count = 0;
      in >> std::hex >> addr >> std::dec >> count;
      if (!in || count == 0 || count > 4096) return "ERR bad RD";
      std::ostringstream out;
      out << "OK" << std::hex;
      for (size_t i = 0; i < count; ++i) out << ' ' << board_.read(addr + 4 * i);
      return out.str();
    }
    if (cmd == "WR") {
      uint64_t addr = 0;
      in >> std::hex >> addr;
      uint64_t word = 0;
      size_t i = 0;
      try {
        while (in >> word) board_.write(addr + 4 * i++, static_cast<uint32_t>(word));
      } catch (const std::exception& e) {
        return std::string("ERR ") + e.what();  // the board refused a word (SLVERR)
      }
      if (i == 0 || i > 4096) return "ERR bad WR";
      return "OK";
    }
    if (cmd == "TIME") return "OK " + std::to_string(board_.time_ticks) + " 0";
    return "ERR unknown request " + cmd;
  }

  FakeBoard& board_;
  boost::asio::io_context io_;
  tcp::acceptor acceptor_;
  std::thread thread_;
  std::mutex lines_mutex_;
  std::vector<std::string> lines_;
};

}  // namespace lightrail::test
