// The host program of a scenario: the driver against the board server,
// acting at each action's simulated time (sim/scenario/run.cpp runs it
// beside the co-simulation, in a thread of its own).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "host_link.hpp"
#include "lightrail/device.hpp"
#include "lightrail/transport.hpp"
#include "scenario/scenario.hpp"

namespace lightrail::sim {

class Host {
 public:
  using json = nlohmann::json;

  Host(const Scenario& sc, uint16_t port, HostLink& link) : sc_(sc), port_(port), link_(link) {}

  void run();

  // Runs one piece of host work and logs its result or error, its wall time
  // and the simulated time its bus cycles took (time stands still otherwise
  // while the host acts).
  template <class Work>
  bool timed(json entry, Work work);

  json report() const { return {{"actions", log_}, {"errors", errors_}, {"completed", done_}}; }
  bool ok() const { return done_ && errors_.empty(); }

 private:
  std::string uri(int board) const { return fmt::format("sim://127.0.0.1:{}/{}", port_, board); }
  Device& device(int board);
  Device open(int board) const;
  std::vector<int> boards(const Action& a) const;

  CommitAt commit_time(const Action& a, int first_board);

  json perform(const Action& a);

  uint32_t inactive_bank_base(Transport& t);

  // A bank the driver would never write, put there behind its back: the
  // board must refuse it and keep running what it runs.
  void corrupt_commit(const Action& a, const Schedule& s, int board);

  // A program that bypasses the driver: it writes a whole valid image over
  // the inactive bank word by word, then commits it with a token of its own.
  // While a commit is pending every word and the commit must be refused.
  json raw_overwrite(const Schedule& s, int board);

  // A host that dies half way through writing a bank: a complete chunk, then
  // half a request, then the connection drops.
  void drop_mid_stage(const Schedule& s, int board);

  const Scenario& sc_;
  uint16_t port_;
  HostLink& link_;
  std::map<int, Device> devices_;
  json log_ = json::array();
  std::vector<std::string> errors_;
  bool done_ = false;
};

}  // namespace lightrail::sim
