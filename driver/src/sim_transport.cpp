// sim://HOST:PORT/BOARD: the co-simulation board server's line protocol over
// TCP (docs/driver.md). Synchronous calls built on Asio's asynchronous ones so
// that every resolve, connect, write and read has a deadline.
#include <fmt/format.h>

#include <boost/asio.hpp>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <istream>
#include <sstream>

#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/token_file.hpp"
#include "lightrail/transport.hpp"

namespace lightrail {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
using boost::system::error_code;

constexpr size_t kMaxWordsPerRequest = 4096;  // the server's limit per RD/WR
constexpr size_t kMaxLineBytes = 64 * 1024;   // 4096 words of 8 hex digits fit easily
constexpr uint64_t kMaxBoard = 2147483647;    // the server reads the board as an int

// The parts of sim://HOST:PORT/BOARD; FormatError naming the bad part.
struct SimUri {
  std::string host;  // without the brackets of an IPv6 address
  std::string port;
  unsigned long board = 0;
};

// Digits only, at most `max`; nullopt otherwise (sign, spaces, overflow).
std::optional<uint64_t> decimal(const std::string& text, uint64_t max) {
  if (text.empty() || text.size() > 20) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
    if (value > max) return std::nullopt;
  }
  return value;
}

SimUri parse_sim_uri(const std::string& uri) {
  const std::string shown = printable(uri);
  auto bad = [&](const std::string& what) {
    return FormatError(
        fmt::format("{}: {} (expected sim://HOST:PORT/BOARD, an IPv6 HOST in brackets)", shown, what));
  };
  const std::string prefix = "sim://";
  if (uri.rfind(prefix, 0) != 0) throw bad("not a sim:// URI");
  const std::string rest = uri.substr(prefix.size());
  SimUri out;
  size_t host_end = 0;  // index of the ':' before the port
  if (!rest.empty() && rest[0] == '[') {
    const auto close = rest.find(']');
    if (close == std::string::npos) throw bad("IPv6 host \"" + printable(rest) + "\" has no closing ']'");
    out.host = rest.substr(1, close - 1);
    error_code ec;
    asio::ip::make_address_v6(out.host, ec);
    if (ec) throw bad("host \"[" + printable(out.host) + "]\" is not an IPv6 address");
    host_end = close + 1;
    if (host_end >= rest.size() || rest[host_end] != ':') throw bad("no :PORT after the host");
  } else {
    host_end = rest.find_first_of(":/");
    out.host = rest.substr(0, host_end);
    if (out.host.empty()) throw bad("no host");
    for (char c : out.host) {
      const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '-' || c == '_';
      if (!ok) throw bad("host \"" + printable(out.host) + "\" is not a host name or IPv4 address");
    }
    if (host_end == std::string::npos || rest[host_end] != ':') throw bad("no :PORT after the host");
  }
  const auto slash = rest.find('/', host_end);
  if (slash == std::string::npos) throw bad("no /BOARD after the port");
  out.port = rest.substr(host_end + 1, slash - host_end - 1);
  if (!decimal(out.port, 65535) || *decimal(out.port, 65535) == 0) {
    throw bad("port \"" + printable(out.port) + "\" is not a port number (1..65535)");
  }
  const std::string board = rest.substr(slash + 1);
  const auto b = decimal(board, kMaxBoard);
  if (!b) throw bad(fmt::format("board \"{}\" is not a board number (0..{})", printable(board), kMaxBoard));
  out.board = static_cast<unsigned long>(*b);
  return out;
}

struct Token {
  std::string value;   // empty: the variable is not set
  std::string source;  // for messages: "LIGHTRAIL_SIM_TOKEN_FILE PATH"
};

// The token in the file LIGHTRAIL_SIM_TOKEN_FILE names, read by the one
// rule of every token file (read_token_file). FormatError (the user's
// configuration) otherwise.
Token read_token() {
  const char* path = std::getenv(kSimTokenFileEnv);
  if (path == nullptr) return {};
  const std::string shown = fmt::format("{} {}", kSimTokenFileEnv, printable(path));
  if (*path == '\0') throw FormatError(shown + ": is set but empty (unset it, or name the token file)");
  try {
    return {read_token_file(path), shown};
  } catch (const FormatError& e) {
    throw FormatError(fmt::format("{}: {}", kSimTokenFileEnv, e.what()));
  }
}

class SimTransport final : public Transport {
 public:
  SimTransport(const std::string& uri, std::chrono::milliseconds timeout) : timeout_(timeout) {
    const SimUri parts = parse_sim_uri(uri);
    uri_ = printable(uri);
    if (timeout.count() <= 0)
      throw FormatError(fmt::format("{}: timeout {} ms is not positive", uri_, timeout.count()));
    host_ = parts.host;
    port_ = parts.port;
    board_ = parts.board;
    token_ = read_token();
    connect();
  }

  std::string uri() const override { return uri_; }

  // IMAGE: the UUID of the model the server runs (docs/driver.md).
  std::optional<std::string> image_uuid() override {
    const std::string reply = exchange("IMAGE");
    bool ok = reply.size() == 36;
    for (size_t i = 0; ok && i < reply.size(); ++i) {
      const char c = reply[i];
      ok = (i == 8 || i == 13 || i == 18 || i == 23) ? c == '-'
                                                     : (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
    }
    if (!ok) fail("IMAGE", "reply \"" + printable(reply.substr(0, 60)) + "\" is not a UUID");
    return reply;
  }
  // Boards the server serves, as its HELLO said.
  uint32_t served_boards() const { return served_; }

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
        if (got == n) fail(request, fmt::format("answered more than the {} words asked for", n));
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
  static std::string shorten(const std::string& request) {
    return request.size() > 40 ? request.substr(0, 40) + "..." : request;
  }

  [[noreturn]] void fail(const std::string& shown, const std::string& what) {
    // Drop the connection: its state is unknown; the next call reconnects.
    error_code ignored;
    socket_.close(ignored);
    buffer_.consume(buffer_.size());
    throw TransportError(fmt::format("{}: {}: {}", uri_, shorten(shown), what));
  }

  std::string endpoint() const {
    return host_.find(':') == std::string::npos ? host_ + ":" + port_ : "[" + host_ + "]:" + port_;
  }

  // Runs the queued operation until it finishes or the deadline passes;
  // `cancel` stops it on a timeout.
  void wait(error_code& ec, const std::string& shown, const char* doing,
            const std::function<void()>& cancel) {
    io_.restart();
    io_.run_for(timeout_);
    if (ec == asio::error::would_block) {
      cancel();
      io_.restart();
      io_.run();  // let the cancelled handler finish
      fail(shown, fmt::format("timed out after {} ms {}", timeout_.count(), doing));
    }
    if (ec == asio::error::eof) fail(shown, fmt::format("the board server closed the connection {}", doing));
    if (ec == asio::error::not_found) {
      // read_until stops with not_found when the buffer fills without a line end.
      fail(shown, fmt::format("reply longer than {} bytes from {}", kMaxLineBytes, endpoint()));
    }
    if (ec) fail(shown, fmt::format("{} {}", ec.message(), doing));
  }
  void wait(error_code& ec, const std::string& shown, const char* doing) {
    wait(ec, shown, doing, [this] {
      error_code ignored;
      socket_.close(ignored);
    });
  }

  void connect() {
    const std::string hello = fmt::format("HELLO {}", board_);
    tcp::resolver resolver(io_);
    error_code ec = asio::error::would_block;
    tcp::resolver::results_type endpoints;
    resolver.async_resolve(host_, port_, [&](const error_code& e, tcp::resolver::results_type r) {
      ec = e;
      endpoints = std::move(r);
    });
    wait(ec, hello, "while resolving the host", [&resolver] { resolver.cancel(); });
    ec = asio::error::would_block;
    asio::async_connect(socket_, endpoints, [&ec](const error_code& e, const tcp::endpoint&) { ec = e; });
    wait(ec, hello, "while connecting");
    try {
      const std::string reply = transact(hello, hello);
      if (reply.rfind("lightrail-cosim", 0) != 0) {
        fail(hello, "not a lightrail board server (answered \"OK " + printable(reply.substr(0, 60)) + "\")");
      }
      // "lightrail-cosim <boards>"
      const std::optional<uint64_t> served =
          decimal(reply.substr(std::min(reply.size(), size_t{16})), kMaxBoard);
      served_ = served ? static_cast<uint32_t>(*served) : 0;
      if (!token_.value.empty()) {
        // Never in a message: the token is a secret.
        const std::string refused = fmt::format("board server refused the token of {}", token_.source);
        transact("AUTH " + token_.value, "AUTH <token>", refused.c_str());
      }
    } catch (const TransportError&) {
      error_code ignored;
      socket_.close(ignored);  // a later call must say HELLO (and AUTH) again
      throw;
    }
  }

  // One request line, one reply line; returns the text after "OK".
  std::string exchange(const std::string& request) {
    if (!socket_.is_open()) connect();
    return transact(request, request);
  }

  // `shown` stands for the request in messages; `refused` introduces an ERR.
  std::string transact(const std::string& request, const std::string& shown,
                       const char* refused = "board server refused") {
    const std::string line = request + "\n";
    error_code ec = asio::error::would_block;
    asio::async_write(socket_, asio::buffer(line), [&ec](const error_code& e, size_t) { ec = e; });
    wait(ec, shown, "while sending");
    ec = asio::error::would_block;
    asio::async_read_until(socket_, buffer_, '\n', [&ec](const error_code& e, size_t) { ec = e; });
    wait(ec, shown, "while waiting for the reply");
    std::istream in(&buffer_);
    std::string reply;
    std::getline(in, reply);
    if (buffer_.size() != 0) fail(shown, "the board server sent more than one reply line");
    if (!reply.empty() && reply.back() == '\r') reply.pop_back();
    if (reply == "OK") return "";
    if (reply.rfind("OK ", 0) == 0) return reply.substr(3);
    if (reply == "ERR" || reply.rfind("ERR ", 0) == 0) {
      // The connection is fine; the request was refused.
      throw TransportError(fmt::format("{}: {}: {}: {}", uri_, shorten(shown), refused,
                                       reply.size() > 4 ? printable(reply.substr(4)) : "(no reason given)"));
    }
    fail(shown, "unexpected reply \"" + printable(reply.substr(0, 60)) + "\"");
  }

  // 1..8 hex digits, "0x" allowed (docs/driver.md).
  uint32_t parse_hex(const std::string& word, const std::string& request) {
    const std::string digits = word.rfind("0x", 0) == 0 || word.rfind("0X", 0) == 0 ? word.substr(2) : word;
    uint32_t value = 0;
    bool ok = !digits.empty() && digits.size() <= 8;
    for (char c : digits) {
      if (!ok) break;
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      ok = d >= 0;
      value = value << 4 | static_cast<uint32_t>(d);
    }
    if (!ok) fail(request, "reply word \"" + printable(word.substr(0, 20)) + "\" is not a 32-bit hex word");
    return value;
  }

  std::string uri_;
  std::chrono::milliseconds timeout_;
  std::string host_;
  std::string port_;
  unsigned long board_ = 0;
  uint32_t served_ = 0;
  Token token_;
  asio::io_context io_;
  tcp::socket socket_{io_};
  asio::streambuf buffer_{kMaxLineBytes};
};

}  // namespace

std::unique_ptr<Transport> open_sim_transport(const std::string& uri, std::chrono::milliseconds timeout) {
  return std::make_unique<SimTransport>(uri, timeout);
}

SimServer probe_sim_server(const std::string& host_port, std::chrono::milliseconds timeout) {
  SimTransport t("sim://" + host_port + "/0", timeout);
  SimServer out;
  out.boards = t.served_boards();
  out.image_uuid = t.image_uuid().value_or("");
  return out;
}

}  // namespace lightrail
