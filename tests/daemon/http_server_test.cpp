// The daemon's HTTP layer over a fake Service: routes, the bearer token,
// limits, malformed requests, stalled clients, the bounded queue, the
// connection cap and a graceful stop. No timing assertions: waits are
// guards only.
#include "http_server.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "fake_service.hpp"
#include "raw_http.hpp"

namespace {

using lightrail::daemon::HttpOptions;
using lightrail::daemon::HttpServer;
using lightrail::test::FakeService;
using lightrail::test::http_request;
using lightrail::test::HttpReply;
using lightrail::test::RawConn;
using nlohmann::json;
using namespace std::chrono_literals;

constexpr const char* kToken = "test-token-0123456789abcdef";
const std::string kAuth = std::string("Authorization: Bearer ") + kToken;
const std::string kJson = "Content-Type: application/json";

// Waits (guarded) until pred holds.
template <typename Pred>
bool eventually(Pred pred, std::chrono::milliseconds guard = 20s) {
  const auto end = std::chrono::steady_clock::now() + guard;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

// A gate the fake's phase() waits at, so a test controls when the worker is
// busy.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false;
  int waiting = 0;
  void wait() {
    std::unique_lock<std::mutex> lock(m);
    ++waiting;
    cv.notify_all();
    cv.wait_for(lock, 30s, [&] { return open; });  // guard: a failing test must not hang
  }
  bool wait_for_waiters(int n) {
    std::unique_lock<std::mutex> lock(m);
    return cv.wait_for(lock, 20s, [&] { return waiting >= n; });
  }
  void release() {
    std::lock_guard<std::mutex> lock(m);
    open = true;
    cv.notify_all();
  }
};

class HttpServerTest : public ::testing::Test {
 protected:
  void start(HttpOptions o = {}) {
    o.token = kToken;
    server_ = std::make_unique<HttpServer>(fake_, o);
    server_->start();
  }
  void TearDown() override { server_.reset(); }
  uint16_t port() const { return server_->port(); }

  HttpReply call(const std::string& bytes) {
    RawConn c(port());
    EXPECT_TRUE(c.connected());
    EXPECT_TRUE(c.send(bytes));
    auto r = c.read_reply();
    EXPECT_TRUE(r.has_value()) << "no reply to: " << bytes.substr(0, 200);
    return r.value_or(HttpReply{});
  }
  HttpReply post(const std::string& target, const std::string& body,
                 std::vector<std::string> headers = {kAuth, kJson}) {
    return call(http_request("POST", target, body, headers));
  }
  HttpReply get(const std::string& target) { return call(http_request("GET", target)); }

  // An error reply is JSON {"error": {status, field, message}} with the
  // reply's own status.
  static json error_of(const HttpReply& r) {
    EXPECT_EQ(r.header("content-type"), "application/json");
    const json j = json::parse(r.body);
    EXPECT_EQ(j.at("error").at("status"), r.status);
    EXPECT_TRUE(j["error"].at("field").is_string());
    EXPECT_FALSE(j["error"].at("message").get<std::string>().empty());
    return j["error"];
  }

  std::string submit_one() {
    const HttpReply r = post("/v1/jobs", R"({"job": {"name": "a"}})");
    EXPECT_EQ(r.status, 201) << r.body;
    return json::parse(r.body).at("id").get<std::string>();
  }

  FakeService fake_;
  std::unique_ptr<HttpServer> server_;
};

TEST_F(HttpServerTest, EveryRouteReachesItsServiceCall) {
  start();
  HttpReply r =
      post("/v1/jobs", R"({"job": {"name": "a"}, "target_accuracy": 0.9, "wait_for_circuits": true})");
  ASSERT_EQ(r.status, 201) << r.body;
  const std::string id = json::parse(r.body).at("id");
  EXPECT_EQ(r.header("location"), "/v1/jobs/" + id);
  r = post("/v1/jobs/" + id + "/phase", R"({"phase": "gradients"})");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(json::parse(r.body).at("boundary_ps"), 1000000);
  r = post("/v1/jobs/" + id + "/progress", R"({"accuracy": 0.5})");
  ASSERT_EQ(r.status, 200) << r.body;
  r = get("/v1/jobs");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body).at("jobs").at(0).at("phase"), "gradients");
  r = get("/v1/jobs/" + id);
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body).at("accuracy"), 0.5);
  EXPECT_EQ(get("/v1/fabric").status, 200);
  r = call(http_request("DELETE", "/v1/jobs/" + id, "", {kAuth}));
  ASSERT_EQ(r.status, 200) << r.body;
  r = get("/v1/jobs/" + id);
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(error_of(r).at("field"), "id");
  r = get("/metrics");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(
      r.body.find(
          "lightraild_http_requests_total{route=\"/v1/jobs/{id}/phase\",method=\"POST\",status=\"200\"} 1"),
      std::string::npos)
      << r.body;
  EXPECT_NE(r.body.find("lightraild_http_request_duration_seconds_count{route=\"/v1/jobs\"} 2"),
            std::string::npos);
  EXPECT_NE(r.body.find("lightraild_http_queue_depth 0"), std::string::npos);
  EXPECT_NE(r.body.find("lightraild_http_connections_open 1"), std::string::npos);
  EXPECT_NE(r.body.find("fake_jobs 0"), std::string::npos);  // the Service's own
  EXPECT_EQ(fake_.changes, 4);
}

TEST_F(HttpServerTest, StateChangesWithoutTheRightTokenAre401AndDoNothing) {
  start();
  const std::string id = submit_one();
  const json before = fake_.snapshot();
  const int calls = fake_.submits + fake_.phases + fake_.progresses + fake_.removes;
  const std::vector<std::vector<std::string>> bad_auth = {
      {kJson},
      {kJson, "Authorization: Bearer wrong-token-0123456789abcdef"},
      {kJson, std::string("Authorization: Bearer ") + kToken + "x"},
      {kJson, std::string("Authorization: Bearer ") + std::string(kToken).substr(1)},
      {kJson, std::string("Authorization: Basic ") + kToken},
      {kJson, "Authorization: Bearer"},
      {kJson, kAuth, kAuth},
  };
  for (const auto& headers : bad_auth) {
    for (const std::string& target :
         {std::string("/v1/jobs"), "/v1/jobs/" + id + "/phase", "/v1/jobs/" + id + "/progress"}) {
      const HttpReply r =
          call(http_request("POST", target, R"({"job": {}, "phase": 1, "accuracy": 1})", headers));
      EXPECT_EQ(r.status, 401) << target << " " << r.body;
      EXPECT_EQ(r.header("www-authenticate"), "Bearer realm=\"lightraild\"");
      EXPECT_EQ(error_of(r).at("field"), "Authorization");
      EXPECT_EQ(r.body.find(kToken), std::string::npos);  // never echoed
    }
    const HttpReply r =
        call(http_request("DELETE", "/v1/jobs/" + id, "", {headers.begin() + 1, headers.end()}));
    EXPECT_EQ(r.status, 401) << r.body;
  }
  EXPECT_EQ(fake_.submits + fake_.phases + fake_.progresses + fake_.removes,
            calls);  // the Service saw nothing
  EXPECT_EQ(fake_.snapshot(), before);
  // Reads need no token.
  EXPECT_EQ(get("/v1/jobs/" + id).status, 200);
}

TEST_F(HttpServerTest, ARoleDecidesWhatItsTokenMayChangeAndTheServiceLearnsWhoAsked) {
  HttpOptions o;
  o.tokens = {{"slurm", lightrail::daemon::Role::kManager, "slurm-token-0123456789abcdef"},
              {"viewer", lightrail::daemon::Role::kReader, "viewer-token-0123456789abcdef"}};
  start(o);
  const std::string id = submit_one();  // the admin's token
  EXPECT_EQ(fake_.last_caller().name, "admin");
  EXPECT_EQ(fake_.last_caller().role, lightrail::daemon::Role::kAdmin);
  const std::string viewer = "Authorization: Bearer viewer-token-0123456789abcdef";
  const json before = fake_.snapshot();
  for (const std::string& target :
       {std::string("/v1/jobs"), "/v1/jobs/" + id + "/phase", "/v1/jobs/" + id + "/progress"}) {
    const HttpReply r = post(target, R"({"job": {}, "phase": 1, "accuracy": 1})", {viewer, kJson});
    EXPECT_EQ(r.status, 403) << target << " " << r.body;
    EXPECT_EQ(error_of(r).at("field"), "Authorization");
    EXPECT_NE(r.body.find("viewer is a reader"), std::string::npos) << r.body;
  }
  EXPECT_EQ(call(http_request("DELETE", "/v1/jobs/" + id, "", {viewer})).status, 403);
  EXPECT_EQ(fake_.snapshot(), before);  // the Service saw none of them
  // A reader's token still reads, and makes its connection trusted.
  EXPECT_EQ(call(http_request("GET", "/v1/jobs/" + id, "", {viewer})).status, 200);
  const HttpReply r = post("/v1/jobs", R"({"job": {"name": "b"}})",
                           {"Authorization: Bearer slurm-token-0123456789abcdef", kJson});
  EXPECT_EQ(r.status, 201) << r.body;
  EXPECT_EQ(fake_.last_caller().name, "slurm");
  EXPECT_EQ(fake_.last_caller().role, lightrail::daemon::Role::kManager);
  EXPECT_EQ(r.body.find("slurm-token"), std::string::npos);
}

TEST_F(HttpServerTest, IdempotencyKeyReachesTheServiceOrIs400NamingIt) {
  start();
  const std::string body = R"({"job": {"name": "a"}})";
  EXPECT_EQ(post("/v1/jobs", body, {kAuth, kJson, "Idempotency-Key: \"8e03978e-40d5\""}).status, 201);
  EXPECT_EQ(fake_.last_caller().idempotency_key, "8e03978e-40d5") << "the draft's quoted form";
  EXPECT_EQ(post("/v1/jobs", body, {kAuth, kJson, "Idempotency-Key: slurm:42"}).status, 201);
  EXPECT_EQ(fake_.last_caller().idempotency_key, "slurm:42");
  EXPECT_EQ(post("/v1/jobs", body).status, 201);
  EXPECT_EQ(fake_.last_caller().idempotency_key, "") << "a request without the header has no key";
  const int submits = fake_.submits;
  for (const std::vector<std::string>& bad :
       {std::vector<std::string>{kAuth, kJson, "Idempotency-Key: a b"},
        std::vector<std::string>{kAuth, kJson, "Idempotency-Key: \"\""},
        std::vector<std::string>{kAuth, kJson, "Idempotency-Key: " + std::string(129, 'k')},
        std::vector<std::string>{kAuth, kJson, "Idempotency-Key: k1", "Idempotency-Key: k2"}}) {
    const HttpReply r = post("/v1/jobs", body, bad);
    EXPECT_EQ(r.status, 400) << bad.back() << " " << r.body;
    EXPECT_EQ(error_of(r).at("field"), "Idempotency-Key");
  }
  EXPECT_EQ(fake_.submits, submits);
}

TEST_F(HttpServerTest, TokensReplacedWhileServingTakeEffectAtTheNextRequest) {
  start();
  const std::string id = submit_one();
  // The old connection trusted: the new set still decides its next request.
  RawConn c(port());
  ASSERT_TRUE(
      c.send(http_request("POST", "/v1/jobs/" + id + "/progress", R"({"accuracy": 0.1})", {kAuth, kJson})));
  ASSERT_EQ(c.read_reply().value_or(HttpReply{}).status, 200);
  server_->set_tokens({{"ops", lightrail::daemon::Role::kAdmin, "new-token-0123456789abcdef"}});
  ASSERT_TRUE(
      c.send(http_request("POST", "/v1/jobs/" + id + "/progress", R"({"accuracy": 0.2})", {kAuth, kJson})));
  EXPECT_EQ(c.read_reply().value_or(HttpReply{}).status, 401);
  EXPECT_EQ(post("/v1/jobs/" + id + "/progress", R"({"accuracy": 0.3})",
                 {"Authorization: Bearer new-token-0123456789abcdef", kJson})
                .status,
            200);
  EXPECT_EQ(fake_.last_caller().name, "ops");
  // A bad set is refused whole; the one in force stays.
  EXPECT_THROW(server_->set_tokens({}), std::invalid_argument);
  EXPECT_THROW(server_->set_tokens({{"ops", lightrail::daemon::Role::kAdmin, "short"}}),
               std::invalid_argument);
  EXPECT_EQ(post("/v1/jobs/" + id + "/progress", R"({"accuracy": 0.4})",
                 {"Authorization: Bearer new-token-0123456789abcdef", kJson})
                .status,
            200);
}

TEST_F(HttpServerTest, EveryReplyCarriesTheRequestIdItsLogLinesCarry) {
  std::mutex m;
  std::vector<lightrail::daemon::LogEvent> events;
  HttpOptions o;
  o.log = [&](const lightrail::daemon::LogEvent& e) {
    std::lock_guard<std::mutex> lock(m);
    events.push_back(e);
  };
  start(o);
  auto logged = [&](const std::string& id) {
    std::lock_guard<std::mutex> lock(m);
    for (const auto& e : events)
      if (e.fields.value("request_id", "") == id) return true;
    return false;
  };
  // The client's id, if sane: echoed, logged, and current during the call.
  HttpReply r = post("/v1/jobs", R"({"job": {"name": "a"}})", {kAuth, kJson, "X-Request-Id: slurm-42.a:b_c"});
  EXPECT_EQ(r.status, 201);
  EXPECT_EQ(r.header("x-request-id"), "slurm-42.a:b_c");
  EXPECT_EQ(fake_.submit_request_id(), "slurm-42.a:b_c");
  EXPECT_TRUE(eventually([&] { return logged("slurm-42.a:b_c"); }));
  // Errors too; an id that is not sane is replaced by one of ours, new per request.
  std::vector<std::string> ours;
  for (const std::string& bad : {std::string("X-Request-Id: a b"), "X-Request-Id: " + std::string(65, 'x'),
                                 std::string("X-Request-Id: \"quoted\"")}) {
    r = call(http_request("GET", "/v1/jobs/nope", "", {bad}));
    EXPECT_EQ(r.status, 404);
    const std::string id = r.header("x-request-id");
    EXPECT_EQ(id.size(), 16u) << bad << ": " << id;
    EXPECT_TRUE(eventually([&] { return logged(id); })) << id;
    ours.push_back(id);
  }
  r = get("/healthz");
  EXPECT_EQ(r.header("x-request-id").size(), 16u);
  ours.push_back(r.header("x-request-id"));
  std::sort(ours.begin(), ours.end());
  EXPECT_EQ(std::unique(ours.begin(), ours.end()), ours.end()) << "one id per request";
  EXPECT_EQ(fake_.submit_request_id(), "slurm-42.a:b_c");
  server_.reset();  // its log writes to this test's locals
}

TEST_F(HttpServerTest, OversizedBodyIs413BeforeItIsSent) {
  HttpOptions o;
  o.body_limit = 1024;
  start(o);
  RawConn c(port());
  // Only the header: the refusal must not wait for the 100 KB announced.
  ASSERT_TRUE(c.send("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n" + kAuth + "\r\n" + kJson +
                     "\r\nContent-Length: 100000\r\n\r\n{"));
  auto r = c.read_reply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(error_of(*r).at("message").get<std::string>().find("1024"), std::string::npos);
  EXPECT_TRUE(c.wait_closed(20s));
  // Chunked: refused when the chunks pass the limit.
  RawConn d(port());
  std::string chunked = "POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n" + kAuth + "\r\n" + kJson +
                        "\r\nTransfer-Encoding: chunked\r\n\r\n";
  for (int i = 0; i < 4; ++i) chunked += "200\r\n" + std::string(512, ' ') + "\r\n";
  ASSERT_TRUE(d.send(chunked));
  r = d.read_reply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
  // Exactly at the limit is taken.
  std::string body = R"({"job": {"pad": ")";
  body += std::string(1024 - body.size() - 3, 'x') + "\"}}";
  ASSERT_EQ(body.size(), 1024u);
  EXPECT_EQ(post("/v1/jobs", body).status, 201);
  EXPECT_EQ(fake_.submits, 1);
  const HttpReply m = get("/metrics");
  EXPECT_NE(
      m.body.find("lightraild_http_requests_total{route=\"/v1/jobs\",method=\"POST\",status=\"413\"} 2"),
      std::string::npos)
      << m.body;
}

TEST_F(HttpServerTest, OversizedHeaderIs431) {
  HttpOptions o;
  o.header_limit = 1024;
  start(o);
  const HttpReply r = call(http_request("GET", "/v1/jobs", "", {"X-Pad: " + std::string(2000, 'a')}));
  EXPECT_EQ(r.status, 431);
  error_of(r);
}

TEST_F(HttpServerTest, MalformedJsonIs400NamingWhere) {
  start();
  const std::string id = submit_one();
  HttpReply r = post("/v1/jobs/" + id + "/phase", R"({"phase": 1,})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_of(r).at("field"), "line 1, column 13") << r.body;
  r = post("/v1/jobs/" + id + "/phase", R"({"phase": {"a": 1, "a": 2}})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_of(r).at("field"), "phase.a");
  r = post("/v1/jobs/" + id + "/phase", "");
  EXPECT_EQ(r.status, 400);
  r = post("/v1/jobs/" + id + "/phase", std::string("{\"phase\": 1}\0", 13));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(fake_.phases, 0);
  // The Service's own refusal keeps its field.
  r = post("/v1/jobs/" + id + "/phase", R"({"phase": true})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_of(r).at("field"), "phase");
}

TEST_F(HttpServerTest, UnknownPathWrongMethodAndWrongTypeAreRefused) {
  start();
  const std::string id = submit_one();
  for (const char* path : {"/", "/v1", "/v1/jobs/", "/v1/jobs/a/b", "/v1/jobs/a/phase/x", "/v2/jobs",
                           "/metrics/x", "/V1/jobs", "//v1/jobs"}) {
    const HttpReply r = get(path);
    EXPECT_EQ(r.status, 404) << path;
    error_of(r);
  }
  HttpReply r = call(http_request("PUT", "/v1/jobs", "{}", {kAuth, kJson}));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.header("allow"), "GET, POST");
  r = call(http_request("GET", "/v1/jobs/" + id + "/phase"));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.header("allow"), "POST");
  r = call(http_request("POST", "/v1/jobs/" + id, "{}", {kAuth, kJson}));
  EXPECT_EQ(r.header("allow"), "GET, DELETE");
  r = call(http_request("DELETE", "/metrics", "", {kAuth}));
  EXPECT_EQ(r.status, 405);
  EXPECT_EQ(r.header("allow"), "GET");
  r = post("/v1/jobs", R"({"job": {}})", {kAuth, "Content-Type: text/plain"});
  EXPECT_EQ(r.status, 415);
  EXPECT_EQ(error_of(r).at("field"), "Content-Type");
  EXPECT_EQ(post("/v1/jobs", R"({"job": {}})", {kAuth}).status, 415);
  EXPECT_EQ(
      post("/v1/jobs", R"({"job": {}})", {kAuth, "Content-Type: Application/JSON; charset=utf-8"}).status,
      201);
  r = get("/v1/jobs?x=1");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_of(r).at("field"), "target");
  r = get("/v1/jobs/" + std::string(200, 'a'));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_of(r).at("field"), "id");
  EXPECT_EQ(get("/v1/jobs/a%2Fb").status, 400);
  EXPECT_EQ(call("GARBAGE\r\n\r\n").status, 400);
  EXPECT_EQ(fake_.submits, 2);
}

TEST_F(HttpServerTest, ServiceErrorsBecomeJsonErrors) {
  start();
  HttpReply r = post("/v1/jobs", R"({"nojob": 1})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(error_of(r).at("field"), "job");
  r = post("/v1/jobs/none/phase", R"({"phase": 1})");
  EXPECT_EQ(r.status, 404);
  EXPECT_EQ(error_of(r).at("message"), "no job none");
  r = get("/v1/jobs/explode");
  EXPECT_EQ(r.status, 500);
  EXPECT_NE(error_of(r).at("message").get<std::string>().find("fake failure"), std::string::npos);
  // The server goes on.
  EXPECT_EQ(get("/v1/jobs").status, 200);
}

TEST_F(HttpServerTest, KeepAliveServesManyRequestsOnOneConnectionAndExpectContinueWorks) {
  start();
  RawConn c(port());
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(c.send(http_request("GET", "/v1/jobs")));
    auto r = c.read_reply();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_TRUE(r->keep_alive);
  }
  // Two pipelined: answered in order.
  ASSERT_TRUE(c.send(http_request("POST", "/v1/jobs", R"({"job": {}})", {kAuth, kJson}) +
                     http_request("GET", "/v1/jobs")));
  auto a = c.read_reply();
  auto b = c.read_reply();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->status, 201);
  EXPECT_EQ(json::parse(b->body).at("jobs").size(), 1u);
  // Expect: 100-continue gets its 100 before the body is sent.
  ASSERT_TRUE(c.send("POST /v1/jobs HTTP/1.1\r\nHost: localhost\r\n" + kAuth + "\r\n" + kJson +
                     "\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n"));
  a = c.read_reply(20s, true);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 100);
  ASSERT_TRUE(c.send(R"({"job": {}})"));
  a = c.read_reply();
  ASSERT_TRUE(a);
  EXPECT_EQ(a->status, 201);
  // Connection: close is honoured.
  ASSERT_TRUE(c.send(http_request("GET", "/v1/jobs", "", {"Connection: close"})));
  a = c.read_reply();
  ASSERT_TRUE(a);
  EXPECT_FALSE(a->keep_alive);
  EXPECT_TRUE(c.wait_closed(20s));
}

TEST_F(HttpServerTest, ForeignHostHeaderIsRefusedOnLoopback) {
  start();
  for (const char* host : {"evil.example", "127.0.0.1.evil.example", "localhost:80x", "[::2]:1"}) {
    const HttpReply r = call(std::string("GET /v1/jobs HTTP/1.1\r\nHost: ") + host + "\r\n\r\n");
    EXPECT_EQ(r.status, 400) << host;
    EXPECT_EQ(error_of(r).at("field"), "Host");
  }
  for (const char* host : {"127.0.0.1", "localhost:8080", "LOCALHOST", "127.1.2.3:1", "[::1]:9"})
    EXPECT_EQ(call(std::string("GET /v1/jobs HTTP/1.1\r\nHost: ") + host + "\r\n\r\n").status, 200) << host;
  EXPECT_EQ(call("GET /v1/jobs HTTP/1.0\r\n\r\n").status, 200);  // no Host at all
}

// Issue 30, defect 5: RFC 9112 section 3.2, one Host in every HTTP/1.1
// request; none, or two (even two that agree), is 400 naming Host.
TEST_F(HttpServerTest, HostHeaderMissingOrRepeatedIs400) {
  start();
  for (const char* req : {"GET /v1/jobs HTTP/1.1\r\n\r\n",
                          "GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\n\r\n",
                          "GET /v1/jobs HTTP/1.0\r\nHost: localhost\r\nHost: 127.0.0.1\r\n\r\n"}) {
    const HttpReply r = call(req);
    EXPECT_EQ(r.status, 400) << req;
    EXPECT_EQ(error_of(r).at("field"), "Host") << req;
  }
  // A POST refused so is not run, and its connection is closed.
  RawConn c(port());
  ASSERT_TRUE(
      c.send("POST /v1/jobs HTTP/1.1\r\n" + kAuth + "\r\n" + kJson + "\r\nContent-Length: 2\r\n\r\n{}"));
  auto r = c.read_reply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_EQ(fake_.submits, 0);
}

TEST_F(HttpServerTest, StalledClientBlocksNoOneAndIsClosedAtItsDeadline) {
  HttpOptions o;
  o.timeout = 300ms;
  start(o);
  RawConn stalled(port());
  ASSERT_TRUE(stalled.send("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"));
  RawConn half_body(port());
  ASSERT_TRUE(half_body.send("POST /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n" + kAuth + "\r\n" + kJson +
                             "\r\nContent-Length: 100\r\n\r\n{\"job\""));
  RawConn idle(port());
  // Others are served meanwhile (on connections of their own).
  for (int i = 0; i < 3; ++i) EXPECT_EQ(get("/v1/jobs").status, 200);
  EXPECT_TRUE(stalled.wait_closed(20s));
  EXPECT_TRUE(half_body.wait_closed(20s));
  EXPECT_TRUE(idle.wait_closed(20s));
  // (The socket is closed as the deadline passes; the count follows in its handler.)
  EXPECT_TRUE(eventually([&] { return server_->stats().timeouts >= 3; }));
  EXPECT_EQ(fake_.submits, 0);
  // A client that dribbles a byte at a time is closed by the same deadline
  // (it is for the whole request, not per read).
  RawConn slow(port());
  const std::string req = http_request("GET", "/v1/jobs");
  bool closed = false;
  for (size_t i = 0; i < req.size() && !closed; ++i) {
    if (!slow.send(req.substr(i, 1))) break;
    closed = slow.wait_closed(60ms);
  }
  EXPECT_TRUE(closed || slow.wait_closed(20s));
  EXPECT_EQ(get("/v1/jobs").status, 200);
}

TEST_F(HttpServerTest, FullQueueIs503AndDoesNothing) {
  Gate gate;
  fake_.on_phase = [&] { gate.wait(); };
  HttpOptions o;
  o.queue_limit = 2;
  start(o);
  const std::string id = submit_one();
  const std::string phase =
      http_request("POST", "/v1/jobs/" + id + "/phase", R"({"phase": 0})", {kAuth, kJson});
  // One call in the worker, two waiting: the queue is full.
  RawConn running(port()), q1(port()), q2(port());
  ASSERT_TRUE(running.send(phase));
  ASSERT_TRUE(gate.wait_for_waiters(1));
  ASSERT_TRUE(q1.send(phase));
  ASSERT_TRUE(q2.send(phase));
  ASSERT_TRUE(eventually([&] { return server_->stats().queue_depth == 2; }));
  const json before = fake_.snapshot();
  HttpReply r = post("/v1/jobs", R"({"job": {}})");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.header("retry-after"), "1");
  EXPECT_NE(error_of(r).at("message").get<std::string>().find("nothing was done"), std::string::npos);
  EXPECT_EQ(get("/v1/jobs").status, 503);
  EXPECT_EQ(fake_.submits, 1);
  EXPECT_EQ(fake_.snapshot(), before);
  gate.release();
  for (RawConn* c : {&running, &q1, &q2}) {
    auto rr = c->read_reply();
    ASSERT_TRUE(rr);
    EXPECT_EQ(rr->status, 200);
  }
  EXPECT_EQ(fake_.phases, 3);
  EXPECT_EQ(get("/v1/jobs").status, 200);
}

TEST_F(HttpServerTest, ConnectionsBeyondTheCapAre503AndClosed) {
  HttpOptions o;
  o.max_connections = 3;
  start(o);
  // Held by clients that sent the token: none of them makes room.
  std::vector<std::unique_ptr<RawConn>> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(std::make_unique<RawConn>(port()));
    ASSERT_TRUE(held.back()->send(http_request("GET", "/v1/jobs", "", {kAuth})));
    auto r = held.back()->read_reply();
    ASSERT_TRUE(r && r->status == 200 && r->keep_alive);
  }
  ASSERT_TRUE(eventually([&] { return server_->stats().open_connections == 3; }));
  RawConn extra(port());
  auto r = extra.read_reply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_TRUE(extra.wait_closed(20s));
  held.pop_back();
  ASSERT_TRUE(eventually([&] { return server_->stats().open_connections == 2; }));
  EXPECT_EQ(get("/v1/jobs").status, 200);
}

// Issue 30, defect 3: strangers (no token sent) holding every connection
// lock no one out. 300 slow ones against a cap of 256: a client with the
// token gets every request served within 1 s, each on a new connection, the
// oldest idle stranger closed to make room; a stranger waits no longer
// than its shorter deadline.
TEST_F(HttpServerTest, SlowStrangersAtTheCapStarveNoClientWithTheToken) {
  HttpOptions o;
  o.stranger_timeout = 20s;  // they stay for the whole test unless evicted
  start(o);
  ASSERT_EQ(server_->stats().max_connections, 256u);
  std::vector<std::unique_ptr<RawConn>> strangers;
  for (int i = 0; i < 300; ++i) {
    strangers.push_back(std::make_unique<RawConn>(port()));
    ASSERT_TRUE(strangers.back()->send("GET /v1/jobs HTTP/1.1\r\nHo"));  // and nothing more
  }
  ASSERT_TRUE(eventually([&] { return server_->stats().open_connections == 256; }));
  for (int i = 0; i < 20; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    RawConn c(port());
    ASSERT_TRUE(c.send(http_request("POST", "/v1/jobs", R"({"job": {"name": "a"}})", {kAuth, kJson})));
    auto r = c.read_reply(1s);
    ASSERT_TRUE(r) << "request " << i << " not served within 1 s";
    EXPECT_EQ(r->status, 201);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 1s);
  }
  EXPECT_EQ(fake_.submits, 20);
  EXPECT_GE(server_->stats().evicted, 20u);
  // The oldest strangers went first.
  EXPECT_TRUE(strangers.front()->wait_closed(5s));
  EXPECT_FALSE(strangers.back()->wait_closed(100ms));
}

TEST_F(HttpServerTest, StrangersGetTheShorterDeadline) {
  HttpOptions o;
  o.timeout = 20s;
  o.stranger_timeout = 200ms;
  start(o);
  RawConn stranger(port()), trusted(port());
  ASSERT_TRUE(stranger.send("GET /v1/jobs HTTP/1.1\r\nHo"));
  ASSERT_TRUE(trusted.send(http_request("GET", "/v1/jobs", "", {kAuth})));
  ASSERT_TRUE(trusted.read_reply());
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(stranger.wait_closed(5s));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 5s);
  // Idle after its request, the client with the token keeps its connection.
  EXPECT_FALSE(trusted.wait_closed(1s));
}

// Probes are answered at once, never behind the worker: here it is stuck
// in a call. /readyz is 503 naming the Service's problem while it has one.
TEST_F(HttpServerTest, HealthReadinessAndVersionAreAnsweredWhileTheWorkerIsBusy) {
  Gate gate;
  fake_.on_phase = [&] { gate.wait(); };
  start();
  const std::string id = submit_one();
  RawConn busy(port());
  ASSERT_TRUE(
      busy.send(http_request("POST", "/v1/jobs/" + id + "/phase", R"({"phase": 0})", {kAuth, kJson})));
  ASSERT_TRUE(gate.wait_for_waiters(1));
  HttpReply r = get("/healthz");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body).at("status"), "alive");
  EXPECT_EQ(json::parse(r.body).at("schema"), "lightrail.daemon-alive/1");
  r = get("/readyz");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body).at("ready"), true);
  fake_.set_not_ready("board b1 is unreachable: no route");
  r = get("/readyz");
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(json::parse(r.body).at("problem"), "board b1 is unreachable: no route");
  r = get("/v1/version");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(json::parse(r.body).at("name"), "lightraild");
  EXPECT_FALSE(json::parse(r.body).at("version").get<std::string>().empty());
  EXPECT_EQ(call(http_request("POST", "/healthz", "{}", {kAuth, kJson})).status, 405);
  gate.release();
  auto done = busy.read_reply();
  ASSERT_TRUE(done);
  EXPECT_EQ(done->status, 200);
}

TEST_F(HttpServerTest, KeepaliveIsCalledWhileIdle) {
  HttpOptions o;
  o.keepalive_interval = 10ms;
  start(o);
  EXPECT_TRUE(eventually([&] { return fake_.keepalives >= 3; }));
  EXPECT_TRUE(
      eventually([&] { return server_->stats().keepalives >= 3; }));  // counted after the call returns
}

TEST_F(HttpServerTest, StopAnswersTheRunningCallRefusesTheQueuedAndCloses) {
  Gate gate;
  fake_.on_phase = [&] { gate.wait(); };
  start();
  const std::string id = submit_one();
  const std::string phase =
      http_request("POST", "/v1/jobs/" + id + "/phase", R"({"phase": 0})", {kAuth, kJson});
  RawConn running(port()), queued(port()), idle(port());
  ASSERT_TRUE(running.send(phase));
  ASSERT_TRUE(gate.wait_for_waiters(1));
  ASSERT_TRUE(queued.send(phase));
  ASSERT_TRUE(eventually([&] { return server_->stats().queue_depth == 1; }));
  auto stopped = std::async(std::launch::async, [&] { server_->stop(); });
  ASSERT_TRUE(eventually([&] { return server_->stats().stopping; }));
  gate.release();
  auto r = running.read_reply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_FALSE(r->keep_alive);
  r = queued.read_reply();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 503);
  EXPECT_TRUE(idle.wait_closed(20s));
  EXPECT_EQ(stopped.wait_for(20s), std::future_status::ready);
  EXPECT_EQ(fake_.phases, 1);
  RawConn after(port());
  EXPECT_FALSE(after.connected());
}

TEST(HttpServerOptions, BadOptionsAreRefused) {
  FakeService fake;
  HttpOptions o;
  o.token = "short";
  EXPECT_THROW(HttpServer(fake, o), std::invalid_argument);
  o.token = kToken;
  o.bind = "localhost";  // an address literal only
  EXPECT_THROW(HttpServer(fake, o), std::invalid_argument);
  o.bind = "127.0.0.1";
  o.body_limit = 0;
  EXPECT_THROW(HttpServer(fake, o), std::invalid_argument);
  o.body_limit = 1;
  HttpServer a(fake, o);
  o.port = a.port();
  try {
    HttpServer b(fake, o);
    FAIL() << "two servers on one port";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot bind 127.0.0.1:" + std::to_string(o.port)),
              std::string::npos);
  }
  EXPECT_TRUE(lightrail::daemon::is_loopback_address("127.0.0.1"));
  EXPECT_TRUE(lightrail::daemon::is_loopback_address("::1"));
  EXPECT_FALSE(lightrail::daemon::is_loopback_address("0.0.0.0"));
  EXPECT_FALSE(lightrail::daemon::is_loopback_address("10.1.2.3"));
}

}  // namespace
