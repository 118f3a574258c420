// A raw TCP client for the daemon's tests: sends exactly the bytes given
// (malformed ones too) and parses what comes back with Beast's response
// parser. Every wait has a guard timeout, so a hung server fails a test
// instead of hanging it.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/asio/buffer.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lightrail::test {

struct HttpReply {
  int status = 0;
  std::map<std::string, std::string> headers;  // names lower-case
  std::string body;
  bool keep_alive = false;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? "" : it->second;
  }
};

class RawConn {
 public:
  explicit RawConn(uint16_t port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~RawConn() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConn(const RawConn&) = delete;
  RawConn& operator=(const RawConn&) = delete;

  bool connected() const { return connected_; }

  bool send(const std::string& bytes) {
    size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      done += size_t(n);
    }
    return true;
  }
  void shutdown_write() { ::shutdown(fd_, SHUT_WR); }

  // The next final (non-1xx, unless informational) reply; nullopt if the
  // server closed first, the reply was not HTTP, or the guard passed
  // (timed_out() says which).
  std::optional<HttpReply> read_reply(std::chrono::milliseconds guard = std::chrono::seconds(20),
                                      bool informational = false) {
    namespace http = boost::beast::http;
    const auto deadline = std::chrono::steady_clock::now() + guard;
    for (;;) {
      http::response_parser<http::string_body> p;
      p.body_limit(16 * 1024 * 1024);
      p.eager(true);
      for (;;) {
        boost::beast::error_code ec;
        if (!pending_.empty()) {
          const size_t used = p.put(boost::asio::buffer(pending_), ec);
          pending_.erase(0, used);
          if (ec && ec != http::error::need_more) return std::nullopt;
          if (p.is_done()) break;
          if (used > 0 && !ec) continue;
        }
        if (!fill(deadline)) {
          if (eof_ && p.got_some()) {
            p.put_eof(ec);
            if (!ec && p.is_done()) break;
          }
          return std::nullopt;
        }
      }
      auto& m = p.get();
      if (!informational && m.result_int() >= 100 && m.result_int() < 200) continue;
      HttpReply r;
      r.status = int(m.result_int());
      for (const auto& f : m) {
        std::string name(f.name_string());
        for (char& c : name) c = char(std::tolower(static_cast<unsigned char>(c)));
        r.headers[name] = std::string(f.value());
      }
      r.body = m.body();
      r.keep_alive = m.keep_alive();
      return r;
    }
  }

  // Whether the server closes the connection (EOF or reset) within the guard.
  bool wait_closed(std::chrono::milliseconds guard) {
    const auto deadline = std::chrono::steady_clock::now() + guard;
    while (fill(deadline)) pending_.clear();
    return eof_;
  }
  bool timed_out() const { return timed_out_; }
  bool eof() const { return eof_; }

 private:
  // Reads what is there; false at EOF, error or deadline.
  bool fill(std::chrono::steady_clock::time_point deadline) {
    if (eof_) return false;
    for (;;) {
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        timed_out_ = true;
        return false;
      }
      pollfd pf{fd_, POLLIN, 0};
      const int r = ::poll(&pf, 1, int(left.count()));
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) continue;
      char buf[16384];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        eof_ = true;
        return false;
      }
      pending_.append(buf, size_t(n));
      return true;
    }
  }

  int fd_ = -1;
  bool connected_ = false;
  bool eof_ = false;
  bool timed_out_ = false;
  std::string pending_;
};

// One well-formed request's bytes.
inline std::string http_request(const std::string& method, const std::string& target,
                                const std::string& body = "", const std::vector<std::string>& headers = {},
                                bool with_length = true) {
  std::string r = method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  for (const auto& h : headers) r += h + "\r\n";
  if (with_length && (!body.empty() || method == "POST"))
    r += "Content-Length: " + std::to_string(body.size()) + "\r\n";
  return r + "\r\n" + body;
}

}  // namespace lightrail::test
