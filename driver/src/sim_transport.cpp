// sim://HOST:PORT/BOARD: the co-simulation board server's line protocol over
// TCP (docs/driver.md). Synchronous calls built on Asio's asynchronous ones so
// that every connect, write and read has a deadline.
#include <fmt/format.h>

#include <boost/asio.hpp>
#include <chrono>
#include <istream>
#include <sstream>

#include "lightrail/errors.hpp"
#include "lightrail/transport.hpp"

namespace lightrail {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

constexpr size_t kMaxWordsPerRequest = 4096;  // the server's limit per RD/WR
constexpr size_t kMaxLineBytes = 64 * 1024;   // 4096 words of 8 hex digits fit easily

class SimTransport final : public Transport {
 public:
  SimTransport(const std::string& uri, int timeout_ms) : uri_(uri), timeout_(timeout_ms) {
    const std::string prefix = "sim://";
    const std::string rest = uri.substr(prefix.size());
    const auto slash = rest.find('/');
    const auto colon = rest.rfind(':', slash);
    if (slash == std::string::npos || colon == std::string::npos || colon == 0 || colon + 1 == slash ||
        slash + 1 == rest.size()) {
      throw FormatError(uri + ": expected sim://HOST:PORT/BOARD");
    }
    host_ = rest.substr(0, colon);
    port_ = rest.substr(colon + 1, slash - colon - 1);
    const std::string board = rest.substr(slash + 1);
    if (board.find_first_not_of("0123456789") != std::string::npos || board.size() > 9) {
      throw FormatError(uri + ": board \"" + board + "\" is not a board number");
    }
    if (port_.find_first_not_of("0123456789") != std::string::npos) {
      throw FormatError(uri + ": port \"" + port_ + "\" is not a number");
    }
    board_ = std::stoul(board);
    connect();
  }

  std::string uri() const override { return uri_; }

  uint32_t read32(uint64_t addr) override { return read_block(addr, 1).at(0); }
  void write32(uint64_t addr, uint32_t value) override { write_block(addr, {value}); }

  std::vector<uint32_t> read_block(uint64_t addr, size_t words) override {
    std::vector<uint32_t> out;
    out.reserve(words);
    for (size_t done = 0; done < words;) {
      const size_t n = std::min(kMaxWordsPerRequest, words - done);
      const uint64_t at = addr + 4 * done;
      const std::string request = fmt::format("RD {:x} {}", at, n);
      std::istringstream reply(exchange(request));
      std::string word;
      size_t got = 0;
      while (reply >> word) {
        out.push_back(parse_hex(word, request));
        ++got;
      }
      if (got != n) fail(request, fmt::format("answered {} words, asked for {}", got, n));
      done += n;
    }
    return out;
  }

  void write_block(uint64_t addr, const std::vector<uint32_t>& words) override {
    for (size_t done = 0; done < words.size();) {
      const size_t n = std::min(kMaxWordsPerRequest, words.size() - done);
      std::string request = fmt::format("WR {:x}", addr + 4 * done);
      for (size_t i = 0; i < n; ++i) request += fmt::format(" {:x}", words[done + i]);
      exchange(request);
      done += n;
    }
  }

 private:
  [[noreturn]] void fail(const std::string& request, const std::string& what) {
    // Drop the connection: its state is unknown; the next call reconnects.
    error_code ignored;
    socket_.close(ignored);
    buffer_.consume(buffer_.size());
    const std::string shown = request.size() > 40 ? request.substr(0, 40) + "..." : request;
    throw TransportError(fmt::format("{}: {}: {}", uri_, shown, what));
  }

  // Runs the queued operation until it finishes or the deadline passes.
  void wait(error_code& ec, const std::string& request, const char* doing) {
    io_.restart();
    io_.run_for(timeout_);
    if (ec == asio::error::would_block) {
      error_code ignored;
      socket_.close(ignored);
      io_.restart();
      io_.run();  // let the cancelled handler finish
      fail(request, fmt::format("timed out after {} ms {}", timeout_.count(), doing));
    }
    if (ec == asio::error::eof)
      fail(request, fmt::format("the board server closed the connection {}", doing));
    if (ec) fail(request, fmt::format("{} {}", ec.message(), doing));
  }

  void connect() {
    const std::string hello = fmt::format("HELLO {}", board_);
    tcp::resolver resolver(io_);
    error_code ec;
    const auto endpoints = resolver.resolve(host_, port_, ec);
    if (ec) fail(hello, "cannot resolve " + host_ + ": " + ec.message());
    ec = asio::error::would_block;
    asio::async_connect(socket_, endpoints, [&ec](const error_code& e, const tcp::endpoint&) { ec = e; });
    wait(ec, hello, "while connecting");
    std::string reply;
    try {
      reply = transact(hello);
    } catch (const TransportError&) {
      error_code ignored;
      socket_.close(ignored);  // a later call must say HELLO again
      throw;
    }
    if (reply.rfind("lightrail-cosim", 0) != 0) {
      fail(hello, "not a lightrail board server (answered \"OK " + reply + "\")");
    }
  }

  // One request line, one reply line; returns the text after "OK".
  std::string exchange(const std::string& request) {
    if (!socket_.is_open()) connect();
    return transact(request);
  }

  std::string transact(const std::string& request) {
    const std::string line = request + "\n";
    error_code ec = asio::error::would_block;
    asio::async_write(socket_, asio::buffer(line), [&ec](const error_code& e, size_t) { ec = e; });
    wait(ec, request, "while sending");
    ec = asio::error::would_block;
    asio::async_read_until(socket_, buffer_, '\n', [&ec](const error_code& e, size_t) { ec = e; });
    wait(ec, request, "while waiting for the reply");
    std::istream in(&buffer_);
    std::string reply;
    std::getline(in, reply);
    if (!reply.empty() && reply.back() == '\r') reply.pop_back();
    if (reply == "OK") return "";
    if (reply.rfind("OK ", 0) == 0) return reply.substr(3);
    if (reply.rfind("ERR", 0) == 0) {
      // The connection is fine; the request was refused.
      const std::string shown = request.size() > 40 ? request.substr(0, 40) + "..." : request;
      throw TransportError(fmt::format("{}: {}: board server refused: {}", uri_, shown,
                                       reply.size() > 4 ? reply.substr(4) : "(no reason given)"));
    }
    fail(request, "unexpected reply \"" + reply.substr(0, 60) + "\"");
  }

  uint32_t parse_hex(const std::string& word, const std::string& request) {
    size_t used = 0;
    unsigned long value = 0;
    try {
      value = std::stoul(word, &used, 16);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != word.size() || value > 0xFFFFFFFFul) fail(request, "reply word \"" + word + "\" is not hex");
    return static_cast<uint32_t>(value);
  }

  std::string uri_;
  std::chrono::milliseconds timeout_;
  std::string host_;
  std::string port_;
  unsigned long board_ = 0;
  asio::io_context io_;
  tcp::socket socket_{io_};
  asio::streambuf buffer_{kMaxLineBytes};
};

}  // namespace

std::unique_ptr<Transport> open_sim_transport(const std::string& uri, int timeout_ms) {
  return std::make_unique<SimTransport>(uri, timeout_ms);
}

}  // namespace lightrail
