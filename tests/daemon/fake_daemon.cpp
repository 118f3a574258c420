// lightraild's HTTP layer over the FakeService, as a process: the
// `lightrail job` and Python client tests talk to it as to the daemon.
//   lightraild-fake --token-file F --port-file P [--timeout-ms N]
// Writes the port once listening; stops on SIGTERM or SIGINT (exit 0).
#include <pthread.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <iostream>
#include <string>

#include "fake_service.hpp"
#include "http_server.hpp"
#include "lightrail/token_file.hpp"
#include "state_files.hpp"

int main(int argc, char** argv) {
  CLI::App app{"lightraild-fake: the daemon's HTTP API over an in-memory fake service (tests)"};
  std::string token_file, port_file;
  int timeout_ms = 30000;
  app.add_option("--token-file", token_file)->required();
  app.add_option("--port-file", port_file)->required();
  app.add_option("--timeout-ms", timeout_ms);
  CLI11_PARSE(app, argc, argv);
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGTERM);
  sigaddset(&stop, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  try {
    lightrail::test::FakeService fake;
    lightrail::daemon::HttpOptions o;
    o.token = lightrail::read_token_file(token_file);
    o.timeout = std::chrono::milliseconds(timeout_ms);
    lightrail::daemon::HttpServer server(fake, o);
    server.start();
    lightrail::daemon::write_file_atomically(port_file, std::to_string(server.port()) + "\n", 0644);
    int sig = 0;
    while (sigwait(&stop, &sig) != 0) {
    }
    server.stop();
  } catch (const std::exception& e) {
    std::cerr << "lightraild-fake: " << e.what() << "\n";
    return 3;
  }
  return 0;
}
