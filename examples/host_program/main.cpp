// A host program using an installed lightrail: opens a board by URI,
// builds a schedule for it, validates, stages and commits it for a board
// time 1 ms ahead, waits for the swap and checks it came at that time.
// Exits non-zero on any failure.
//   host_program URI [SCHEDULE.json]
// URI: sim://HOST:PORT/BOARD (a board of `lightrail-cosim serve`) or xrt://...
// Without a schedule file it cycles through two AWGR configurations.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/planner/matching.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/time.hpp"
#include "lightrail/validate.hpp"

namespace {

// How far ahead of the board's time the commit is set: enough for the
// commit's writes and the board's check of the bank.
constexpr lightrail::picoseconds kCommitLead = std::chrono::milliseconds(1);
// Host time allowed for the swap: a co-simulated board's time runs much
// slower than the host's, so 1 ms of board time can take seconds.
constexpr std::chrono::milliseconds kSwapTimeout = std::chrono::seconds(60);
constexpr uint32_t kGeneration = 12;

// Circuits i -> i + k as AWGR laser settings: a port reaches output
// (port + wavelength) mod ports, so the wavelength is the shift.
lightrail::Configuration awgr_shift(uint32_t ports, int k) {
  const lightrail::planner::Matching m = lightrail::planner::shift(static_cast<int>(ports), k);
  lightrail::Configuration c;
  c.name = "shift" + std::to_string(k);
  for (int src = 0; src < m.ports(); ++src)
    c.wavelength.push_back((m.dest[src] - src + m.ports()) % m.ports());
  return c;
}

lightrail::Schedule two_shifts(const lightrail::DeviceCapabilities& caps) {
  lightrail::Schedule s;
  s.generation = kGeneration;
  s.cyclic = true;
  s.guard_ps = 500;
  s.configs = {awgr_shift(caps.ports, 1), awgr_shift(caps.ports, 2)};
  const int64_t step_ps = std::max<int64_t>(1'000'000, caps.min_step_ps());
  s.steps = {{0, step_ps, false}, {1, step_ps, false}};
  return s;
}

int run(const std::string& uri, const std::string& file) {
  lightrail::Device device = lightrail::Device::open(uri);
  const lightrail::DeviceCapabilities& caps = device.capabilities();
  std::cout << "opened " << uri << ": board " << device.board_id() << ", " << caps.ports << " ports, "
            << caps.wavelengths << " wavelengths, up to " << caps.max_steps << " steps\n";

  const lightrail::Schedule schedule = file.empty() ? two_shifts(caps) : lightrail::load_schedule_file(file);
  const std::vector<lightrail::Problem> problems = lightrail::validate(schedule, caps);
  if (!problems.empty()) {
    std::cerr << "host_program: the schedule does not fit the board:\n" << lightrail::to_string(problems);
    return 1;
  }
  std::cout << "validated: " << schedule.configs.size() << " configurations, " << schedule.steps.size()
            << " steps, period " << schedule.period_ps() << " ps, generation " << schedule.generation << "\n";

  device.stage(schedule);
  std::cout << "staged\n";
  // An idle board swaps at exactly the time asked; a running one at its
  // first step boundary at or after it.
  const lightrail::BoardTime at = device.time() + kCommitLead;
  const lightrail::CommitTicket ticket = device.commit(lightrail::CommitAt::at(at));
  std::cout << "committed generation " << ticket.generation << " for board time "
            << lightrail::to_ps(*ticket.at) << " ps\n";

  const lightrail::Swap swap = device.wait_for_swap(ticket, kSwapTimeout);
  const lightrail::Status s = device.status();
  std::cout << "swapped to generation " << swap.generation << " at " << lightrail::to_ps(swap.time)
            << " ps; running " << s.running << ", bank " << s.active_bank << ", " << s.steps
            << " steps executed, " << s.swaps << " swaps, " << s.missed << " missed\n";
  if (swap.time < *ticket.at || !s.running) {
    std::cerr << "host_program: the swap came at " << lightrail::to_ps(swap.time) << " ps, before the "
              << lightrail::to_ps(*ticket.at) << " ps asked, or the schedule is not running\n";
    return 1;
  }
  if (s.missed != 0) {
    std::cerr << "host_program: the board served " << s.missed << " step boundaries late\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::cerr << "usage: host_program URI [SCHEDULE.json]\n";
    return 2;
  }
  try {
    return run(argv[1], argc == 3 ? argv[2] : "");
  } catch (const std::exception& e) {
    // The driver's errors name what failed and where.
    std::cerr << "host_program: " << e.what() << "\n";
    return 1;
  }
}
