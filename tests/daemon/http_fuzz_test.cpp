// 10,000 generated and mutated requests (methods, targets, versions,
// headers, bodies, raw bytes, pipelined) over TCP: the server never crashes,
// every reply is well-formed HTTP and every error a JSON error of its own
// status, the Service's state is unchanged (every state change carries a
// wrong or no token), and the server still serves afterwards.
// LIGHTRAIL_FUZZ_SEED=N replays another sequence.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "fake_service.hpp"
#include "http_server.hpp"
#include "raw_http.hpp"

namespace {

using lightrail::daemon::HttpOptions;
using lightrail::daemon::HttpServer;
using lightrail::test::FakeService;
using lightrail::test::http_request;
using lightrail::test::RawConn;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kToken = "fuzz-token-0123456789abcdefghij";

class Generator {
 public:
  Generator(uint64_t seed, std::string id) : rng_(seed), id_(std::move(id)) {}

  // The bytes of one connection's worth of requests.
  std::string connection() {
    if (chance(5)) return random_bytes(int(pick(4096)));
    std::string out;
    const int n = chance(15) ? 2 + int(pick(2)) : 1;
    for (int i = 0; i < n; ++i) out += request();
    if (chance(10)) out = mutate(out);
    return out;
  }

 private:
  size_t pick(size_t n) { return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool chance(int percent) { return int(pick(100)) < percent; }
  template <typename T>
  const T& one(const std::vector<T>& v) {
    return v[pick(v.size())];
  }

  std::string random_bytes(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s += char(pick(256));
    return s;
  }

  std::string mutate(std::string s) {
    const int edits = 1 + int(pick(8));
    for (int i = 0; i < edits && !s.empty(); ++i) {
      const size_t at = pick(s.size());
      switch (pick(4)) {
        case 0:
          s[at] = char(pick(256));
          break;
        case 1:
          s.erase(at, 1 + pick(8));
          break;
        case 2:
          s.insert(at, random_bytes(1 + int(pick(8))));
          break;
        default:
          s.insert(at, one<std::string>(
                           {"\r\n", "\r\n\r\n", ":", " ", "%", "/", "{", "\"", std::string(1, '\0')}));
      }
    }
    return s;
  }

  std::string method() {
    if (clean_) return one<std::string>({"GET", "POST", "DELETE", "POST", "PUT"});
    if (chance(5)) return random_bytes(1 + int(pick(10)));
    return one<std::string>({"GET", "POST", "DELETE", "POST", "GET", "PUT", "HEAD", "OPTIONS", "PATCH",
                             "TRACE", "CONNECT", "get", "Post", "BREW", ""});
  }

  std::string id() {
    return one<std::string>({id_, id_, "job-999", "", std::string(kMaxId, 'a'), std::string(kMaxId + 1, 'b'),
                             "a%2Fb", "..", "~", "a b", "\xff", "%00", "a\"b", random_bytes(int(pick(6)))});
  }
  static constexpr size_t kMaxId = 128;

  std::string target() {
    if (clean_ && chance(75)) {
      const std::string job = "/v1/jobs/" + (chance(80) ? id_ : std::string("job-999"));
      return one<std::string>({"/v1/jobs", job, job + "/phase", job + "/progress", "/v1/fabric", "/metrics"});
    }
    std::string t = one<std::string>({"/v1/jobs", "/v1/jobs/" + id(), "/v1/jobs/" + id() + "/phase",
                                      "/v1/jobs/" + id() + "/progress", "/v1/fabric", "/metrics", "/",
                                      "/v1/jobs/", "*", "http://127.0.0.1/v1/jobs", "/v1/jobs?x=1",
                                      "/" + std::string(3000 + pick(10000), 'p'), "//v1//jobs"});
    if (!clean_ && chance(10)) t = mutate(t);
    return t;
  }

  std::string version() {
    if (clean_ || chance(90)) return "HTTP/1.1";
    return one<std::string>({"HTTP/1.0", "HTTP/2.0", "HTTP/1.2", "HTTP/1", "http/1.1", "", "HTTP/1.1 x"});
  }

  std::string authorization() {
    // Never the right token: no fuzzed state change may be authorised.
    std::string wrong = kToken;
    char& c = wrong[pick(wrong.size())];
    c = c == 'z' ? 'y' : 'z';
    return one<std::string>({"Bearer " + wrong, "Bearer " + std::string(kToken).substr(1),
                             "Bearer " + std::string(kToken) + "x", "Bearer", "Bearer  ",
                             "Basic " + std::string(kToken), "bearer " + wrong, std::string(kToken),
                             "Bearer " + random_bytes(int(pick(40)))});
  }

  std::string body() {
    const std::string valid = one<std::string>(
        {R"({"job": {"name": "f"}})", R"({"phase": "gradients"})", R"({"phase": 2})", R"({"accuracy": 0.7})",
         R"({"job": {"name": "f"}, "target_accuracy": 0.9, "wait_for_circuits": true})"});
    switch (pick(6)) {
      case 0:
        return valid;
      case 1:
        return mutate(valid);
      case 2:
        return random_bytes(int(pick(300)));
      case 3:
        return "";
      case 4:
        return std::string(1 + pick(5000), '[');
      default:
        return R"({"a": 1, "a": 2})";
    }
  }

  // Most requests are well-formed HTTP, so that the checks behind the
  // parser (routes, token, type, JSON, the Service) are reached; the rest
  // break the framing too.
  std::string request() {
    clean_ = chance(65);
    std::string r = method() + (clean_ || chance(97) ? " " : "") + target() + " " + version() + "\r\n";
    std::string b = chance(70) ? body() : "";
    std::vector<std::string> headers;
    if (chance(85))
      headers.push_back(
          "Host: " +
          (clean_ ? (chance(95) ? one<std::string>({"127.0.0.1", "localhost:1", "[::1]"}) : "evil.example")
                  : one<std::string>({"127.0.0.1", "evil.example", random_bytes(int(pick(10)))})));
    if (chance(70))
      headers.push_back("Content-Type: " +
                        one<std::string>({"application/json", "application/json", "text/plain",
                                          "application/json; charset=x", "",
                                          clean_ ? "application/jsonx" : random_bytes(int(pick(20)))}));
    if (chance(60)) headers.push_back("Authorization: " + authorization());
    if (chance(5)) headers.push_back("Authorization: " + authorization());
    const bool chunked = chance(10);
    if (clean_) {
      if (chunked) b = chunk(b, true);
      headers.push_back(chunked ? "Transfer-Encoding: chunked"
                                : "Content-Length: " + std::to_string(b.size()));
      if (chance(5)) headers.push_back("Connection: close");
      std::shuffle(headers.begin(), headers.end(), rng_);
      for (const auto& h : headers) r += h + "\r\n";
      return r + "\r\n" + b;
    }
    if (chunked) {
      headers.push_back("Transfer-Encoding: chunked");
      b = chunk(b, chance(80));
    }
    if (!chunked || chance(10)) {
      switch (pick(8)) {
        case 0:
          break;  // no length
        case 1:
          headers.push_back("Content-Length: " + std::to_string(b.size() + 1 + pick(100)));
          break;
        case 2:
          headers.push_back("Content-Length: " +
                            one<std::string>({"-1", "99999999999999999999", "abc", "1e3", ""}));
          break;
        case 3:
          headers.push_back("Content-Length: " + std::to_string(b.size()));
          headers.push_back("Content-Length: " + std::to_string(b.size() + 1));
          break;
        default:
          headers.push_back("Content-Length: " + std::to_string(b.size()));
      }
    }
    if (chance(5)) headers.push_back("Expect: 100-continue");
    if (chance(10)) headers.push_back(one<std::string>({"Connection: close", "Connection: keep-alive"}));
    if (chance(10)) headers.push_back(random_bytes(int(pick(50))) + ": " + random_bytes(int(pick(50))));
    if (chance(3)) headers.push_back("No-Colon-Here");
    if (chance(2)) headers.push_back("X-Big: " + std::string(9000 + pick(4000), 'h'));
    if (chance(3)) headers.push_back(" folded continuation");
    std::shuffle(headers.begin(), headers.end(), rng_);
    for (const auto& h : headers) r += h + (chance(98) ? "\r\n" : "\n");
    return r + "\r\n" + b;
  }

  static std::string chunk(const std::string& b, bool last) {
    std::string c;
    for (size_t at = 0; at < b.size(); at += 64) {
      const std::string part = b.substr(at, 64);
      char size[16];
      std::snprintf(size, sizeof size, "%zx", part.size());
      c += std::string(size) + "\r\n" + part + "\r\n";
    }
    return last ? c + "0\r\n\r\n" : c;
  }

  bool clean_ = false;
  std::mt19937_64 rng_;
  std::string id_;
};

TEST(HttpFuzz, TenThousandHostileRequestsChangeNothing) {
  FakeService fake;
  HttpOptions o;
  o.token = kToken;
  o.timeout = 2s;  // guards a request the generator left incomplete (the client half-closes anyway)
  o.header_limit = 8192;
  o.body_limit = 4096;
  HttpServer server(fake, o);
  server.start();
  const uint16_t port = server.port();
  // One job, made with the right token before the fuzzing starts.
  {
    RawConn c(port);
    ASSERT_TRUE(c.send(
        http_request("POST", "/v1/jobs", R"({"job": {"name": "seed"}})",
                     {std::string("Authorization: Bearer ") + kToken, "Content-Type: application/json"})));
    auto r = c.read_reply();
    ASSERT_TRUE(r && r->status == 201);
  }
  const json before = fake.snapshot();
  const int changes = fake.changes;
  const int calls = fake.submits + fake.phases + fake.progresses + fake.removes;

  uint64_t seed = 20240917;
  if (const char* s = std::getenv("LIGHTRAIL_FUZZ_SEED")) seed = std::strtoull(s, nullptr, 10);
  constexpr int kThreads = 4;
  constexpr int kPerThread = 2500;
  std::mutex m;
  std::map<int, int> statuses;  // 0: closed without a reply
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      Generator gen(seed + uint64_t(t), "job-1");
      for (int i = 0; i < kPerThread; ++i) {
        const std::string bytes = gen.connection();
        RawConn c(port);
        if (!c.connected()) {
          std::lock_guard<std::mutex> lock(m);
          failures.push_back("cannot connect");
          return;
        }
        c.send(bytes);  // the server may close before it has all
        c.shutdown_write();
        for (int k = 0; k < 5; ++k) {
          auto r = c.read_reply(30s);
          if (!r) {
            if (c.timed_out()) {
              std::lock_guard<std::mutex> lock(m);
              failures.push_back("no reply and no close within 30 s");
            }
            if (k == 0) {
              std::lock_guard<std::mutex> lock(m);
              ++statuses[0];
            }
            break;
          }
          std::string bad;
          if (r->status < 200 || r->status > 599) bad = "status " + std::to_string(r->status);
          if (r->status >= 400) {
            try {
              const json j = json::parse(r->body);
              if (j.at("error").at("status") != r->status || !j["error"].at("field").is_string() ||
                  !j["error"].at("message").is_string())
                bad = "error reply of another shape: " + r->body;
            } catch (const std::exception& e) {
              bad = std::string("error reply is not JSON: ") + e.what();
            }
          }
          std::lock_guard<std::mutex> lock(m);
          ++statuses[r->status];
          if (!bad.empty())
            failures.push_back(bad + " (seed " + std::to_string(seed + uint64_t(t)) + ", request " +
                               std::to_string(i) + ")");
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  std::string summary;
  for (const auto& [status, n] : statuses) summary += " " + std::to_string(status) + ":" + std::to_string(n);
  std::cout << "replies by status (0: closed without one):" << summary << "\n";
  ASSERT_TRUE(failures.empty()) << failures.size() << " failures, first: " << failures.front();
  // 401s were given for state changes; nothing reached the Service's state.
  EXPECT_GT(statuses[401], 0);
  EXPECT_EQ(fake.changes, changes);
  EXPECT_EQ(fake.submits + fake.phases + fake.progresses + fake.removes, calls);
  EXPECT_EQ(fake.snapshot(), before);
  // Still serving, authorised state changes included.
  RawConn c(port);
  ASSERT_TRUE(c.send(
      http_request("POST", "/v1/jobs/job-1/phase", R"({"phase": 1})",
                   {std::string("Authorization: Bearer ") + kToken, "Content-Type: application/json"})));
  auto r = c.read_reply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(fake.phases, 1);
  EXPECT_TRUE([&] {
    for (int i = 0; i < 2000 && server.stats().open_connections > 1; ++i) std::this_thread::sleep_for(10ms);
    return server.stats().open_connections <= 1;
  }());
}

}  // namespace
