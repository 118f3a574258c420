// lightraild-bench: the daemon's HTTP layer in this process over a Service,
// driven by concurrent keep-alive clients on loopback; prints sustained
// phase events/s and submissions/s, latency percentiles, and this process's
// file descriptors and threads before, during and after. A program that
// prints figures, not a test.
//
//   lightraild-bench [--clients 64] [--seconds 5] [--job FILE] [--journal DIR]
//
// The Service is chosen by make_service() (--service): "fake" is the
// FakeService doing a real job's parsing and checks per submission and a
// lookup per phase event (optionally a journal record each, fsync'd); a run
// over real boards adds its own case there.
#include <dirent.h>
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fake_service.hpp"
#include "http_server.hpp"
#include "journal.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/planner/job.hpp"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr const char* kToken = "bench-token-0123456789abcdefghij";

struct BenchOptions {
  std::string service = "fake";
  int clients = 64;
  double seconds = 5;
  std::string job_file;
  std::string journal_dir;  // fake: a journal record per call, fsync'd
};

// The Service under test, and what it needs kept alive.
struct ServiceUnderTest {
  std::unique_ptr<lightrail::daemon::Service> service;
  std::unique_ptr<lightrail::daemon::Journal> journal;
};

ServiceUnderTest make_service(const BenchOptions& o) {
  ServiceUnderTest s;
  if (o.service == "fake") {
    auto fake = std::make_unique<lightrail::test::FakeService>();
    if (!o.journal_dir.empty())
      s.journal = std::make_unique<lightrail::daemon::Journal>(o.journal_dir + "/journal.jsonl");
    lightrail::daemon::Journal* journal = s.journal.get();
    // What a submission costs before any board is touched: the job file
    // parsed and checked as the planner does.
    fake->submit_work = [journal](const json& body) {
      const auto job = lightrail::planner::job_from_json(body.at("job"));
      if (journal) journal->append({{"op", "submit"}, {"job", job.name}});
    };
    fake->phase_work = [journal](const json& body) {
      if (journal) journal->append({{"op", "phase"}, {"phase", body.at("phase")}});
    };
    s.service = std::move(fake);
    return s;
  }
  throw CLI::ValidationError("--service", "unknown service " + o.service + " (fake)");
}

size_t count_entries(const char* dir) {
  size_t n = 0;
  if (DIR* d = ::opendir(dir)) {
    while (const dirent* e = ::readdir(d))
      if (e->d_name[0] != '.') ++n;
    ::closedir(d);
  }
  return n;
}
// (opendir's own descriptor is counted: one more than the process holds.)
std::string fds_threads() {
  return fmt::format("{} fds, {} threads", count_entries("/proc/self/fd") - 1,
                     count_entries("/proc/self/task"));
}

// One keep-alive client: sends the request `make` gives, waits for the
// reply, again, until told to stop.
class Client : public std::enable_shared_from_this<Client> {
 public:
  Client(asio::io_context& ioc, tcp::endpoint at, std::function<http::request<http::string_body>()> make,
         std::vector<double>& latencies, std::atomic<int>& errors, const std::atomic<bool>& stop,
         std::atomic<int>& done)
      : stream_(ioc),
        at_(at),
        make_(std::move(make)),
        latencies_(latencies),
        errors_(errors),
        stop_(stop),
        done_(done) {}

  void start() {
    stream_.async_connect(at_, [self = shared_from_this()](beast::error_code ec) {
      if (ec) return self->finish(true);
      self->stream_.socket().set_option(tcp::no_delay(true));
      self->next();
    });
  }

 private:
  void next() {
    if (stop_) return finish(false);
    req_ = make_();
    started_ = Clock::now();
    http::async_write(stream_, req_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->finish(true);
      self->res_ = {};
      http::async_read(self->stream_, self->buffer_, self->res_, [self](beast::error_code ec, size_t) {
        if (ec) return self->finish(true);
        self->latencies_.push_back(std::chrono::duration<double>(Clock::now() - self->started_).count());
        if (self->res_.result_int() >= 300) ++self->errors_;
        self->next();
      });
    });
  }
  void finish(bool failed) {
    if (failed) ++errors_;
    beast::error_code ec;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ec);
    stream_.close();
    ++done_;
  }

  beast::tcp_stream stream_;
  tcp::endpoint at_;
  std::function<http::request<http::string_body>()> make_;
  std::vector<double>& latencies_;
  std::atomic<int>& errors_;
  const std::atomic<bool>& stop_;
  std::atomic<int>& done_;
  beast::flat_buffer buffer_;
  http::request<http::string_body> req_;
  http::response<http::string_body> res_;
  Clock::time_point started_;
};

http::request<http::string_body> post(const std::string& target, const json& body) {
  http::request<http::string_body> r{http::verb::post, target, 11};
  r.set(http::field::host, "127.0.0.1");
  r.set(http::field::authorization, std::string("Bearer ") + kToken);
  r.set(http::field::content_type, "application/json");
  r.body() = body.dump();
  r.prepare_payload();
  return r;
}

struct RunResult {
  double seconds = 0;
  size_t replies = 0;
  int errors = 0;
  double p50 = 0, p99 = 0;
  std::string peak;
};

// `clients` clients, each sending make(client) requests for `seconds`.
RunResult run(uint16_t port, int clients, double seconds,
              const std::function<http::request<http::string_body>(int)>& make) {
  asio::io_context ioc;
  const tcp::endpoint at(asio::ip::make_address("127.0.0.1"), port);
  std::vector<std::vector<double>> latencies(static_cast<size_t>(clients));
  std::atomic<int> errors{0}, done{0};
  std::atomic<bool> stop{false};
  for (int c = 0; c < clients; ++c)
    std::make_shared<Client>(
        ioc, at, [&make, c] { return make(c); }, latencies[size_t(c)], errors, stop, done)
        ->start();
  RunResult r;
  const auto t0 = Clock::now();
  std::thread timer([&] {
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds) / 2);
    r.peak = fds_threads();  // mid-run: every connection open
    std::this_thread::sleep_for(std::chrono::duration<double>(seconds) / 2);
    stop = true;
  });
  ioc.run();  // until every client has finished its last request
  r.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  timer.join();
  std::vector<double> all;
  for (auto& v : latencies) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  r.replies = all.size();
  r.errors = errors;
  if (!all.empty()) {
    r.p50 = all[all.size() / 2];
    r.p99 = all[std::min(all.size() - 1, all.size() * 99 / 100)];
  }
  return r;
}

void print(const char* what, const RunResult& r) {
  std::cout << fmt::format(
      "{:<12} {:>9.0f}/s  {:>8} in {:.2f} s  p50 {:.3f} ms  p99 {:.3f} ms  errors {}  mid-run {}\n", what,
      double(r.replies) / r.seconds, r.replies, r.seconds, r.p50 * 1e3, r.p99 * 1e3, r.errors, r.peak);
}

}  // namespace

int main(int argc, char** argv) {
  BenchOptions o;
  CLI::App app{
      "lightraild-bench: the daemon's HTTP layer under concurrent keep-alive clients (figures, not a test)"};
  app.add_option("--service", o.service, "the Service served: fake")->capture_default_str();
  app.add_option("--clients", o.clients, "concurrent keep-alive clients")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096));
  app.add_option("--seconds", o.seconds, "length of each run")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 3600.0));
  app.add_option("--job", o.job_file,
                 "job file submitted and phased (default: a data-parallel job, 4 phases)");
  app.add_option("--journal", o.journal_dir, "fake: append and fsync a journal record per call, in DIR");
  CLI11_PARSE(app, argc, argv);
  try {
    json job = {
        {"name", "bench"},
        {"gpus", 16},
        {"gpus_per_node", 8},
        {"parallelism", {{"data", 16}}},
        {"phases",
         {{{"name", "forward"}, {"compute_ms", 10}, {"collective", "all_gather"}, {"megabytes", 16}},
          {{"name", "backward"}, {"compute_ms", 20}, {"collective", "reduce_scatter"}, {"megabytes", 16}},
          {{"name", "gradients"}, {"compute_ms", 1}, {"collective", "all_reduce"}, {"megabytes", 64}},
          {{"name", "optimizer"}, {"compute_ms", 5}, {"collective", "all_reduce"}, {"megabytes", 1}}}}};
    if (!o.job_file.empty()) job = lightrail::read_json_file(o.job_file, "job " + o.job_file);
    std::vector<std::string> phases;
    for (const auto& p : job.value("phases", json::array())) phases.push_back(p.at("name"));
    if (phases.empty()) throw std::invalid_argument("the job file lists no phases");

    std::cout << "before the server: " << fds_threads() << "\n";
    ServiceUnderTest s = make_service(o);
    lightrail::daemon::HttpOptions h;
    h.token = kToken;
    h.max_connections = size_t(o.clients) + 16;
    h.queue_limit = size_t(o.clients) + 16;
    auto server = std::make_unique<lightrail::daemon::HttpServer>(*s.service, h);
    server->start();
    const uint16_t port = server->port();
    std::cout << "server idle:       " << fds_threads() << "\n";

    // One job per client, to report phases of.
    std::vector<std::string> ids(size_t(o.clients));
    {
      asio::io_context ioc;
      tcp::socket sock(ioc);
      sock.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
      beast::flat_buffer buf;
      for (int c = 0; c < o.clients; ++c) {
        http::write(sock, post("/v1/jobs", {{"job", job}}));
        http::response<http::string_body> res;
        http::read(sock, buf, res);
        if (res.result_int() != 201) throw std::runtime_error("submit refused: " + res.body());
        ids[size_t(c)] = json::parse(res.body()).at("id");
      }
    }

    std::vector<size_t> at(size_t(o.clients), 0);
    const RunResult phase_run = run(port, o.clients, o.seconds, [&](int c) {
      const std::string& name = phases[at[size_t(c)]++ % phases.size()];
      return post("/v1/jobs/" + ids[size_t(c)] + "/phase", {{"phase", name}});
    });
    const RunResult submit_run = run(port, o.clients, o.seconds, [&](int) {
      return post("/v1/jobs", {{"job", job}});
    });

    std::cout << fmt::format("{} clients, keep-alive, loopback, service {}{}:\n", o.clients, o.service,
                             o.journal_dir.empty() ? "" : " with an fsync'd journal record per call");
    print("phase events", phase_run);
    print("submissions", submit_run);
    // The server closes its side once the clients have gone.
    for (int i = 0; i < 500 && server->stats().open_connections > 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    std::cout << "after the runs:    " << fds_threads() << " (" << server->stats().open_connections
              << " connections open)\n";
    server.reset();
    std::cout << "server stopped:    " << fds_threads() << "\n";
    return phase_run.errors + submit_run.errors == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "lightraild-bench: " << e.what() << "\n";
    return 1;
  }
}
