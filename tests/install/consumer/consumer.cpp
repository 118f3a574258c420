// Links both installed libraries and writes and reads back a schedule's JSON
// text (schedule_json.hpp), so the package or lightrail.pc must supply both.
// Prints one line and exits 0 when the reference board accepts the schedule.
#include <iostream>

#include "lightrail/capabilities.hpp"
#include "lightrail/planner/matching.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/validate.hpp"

int main() {
  const lightrail::DeviceCapabilities caps = lightrail::DeviceCapabilities::reference();
  const lightrail::planner::Matching m = lightrail::planner::shift(static_cast<int>(caps.ports), 1);
  lightrail::Schedule s;
  s.configs.push_back({"shift1", std::vector<int>(m.dest.size(), 1)});
  s.steps.push_back({0, 1'000'000, false});
  const std::vector<lightrail::Problem> problems = lightrail::validate(s, caps);
  std::cout << "consumer: " << m.circuits() << " circuits, " << problems.size() << " problems, "
            << lightrail::parse_schedule(lightrail::to_json_text(s)).steps.size() << " step\n";
  return problems.empty() ? 0 : 1;
}
