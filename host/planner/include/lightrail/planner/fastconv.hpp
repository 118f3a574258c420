// FastConv: jobs sharing a hybrid OCS/EPS fabric; OCS circuits go to the
// jobs furthest from convergence, jobs near their target give them up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace lightrail::planner {

struct LearningJob {
  std::string name;
  double arrival_s = 0;
  int64_t iterations = 0;           // trains this many, then leaves
  double iteration_ocs_s = 0;       // iteration time on dedicated circuits
  double iteration_eps_s = 0;       // on the shared EPS with one job on it
  double eps_slowdown_per_job = 0;  // each further EPS job adds this fraction
  // Accuracy after i iterations: the curve if given (index = iteration,
  // linearly interpolated), else peak * (1 - exp(-i / tau)).
  std::vector<double> curve;
  double peak = 0.9;
  double tau = 1000;
  double accuracy(double iteration) const;
  double peak_accuracy() const;
};

enum class Policy { kEpsOnly, kPas, kFastConv };

struct FastConvConfig {
  int ocs_slots = 1;               // jobs that can hold circuits at once
  double release_fraction = 0.85;  // FastConv: give up circuits at this share of peak
  double epoch_s = 1.0;            // allocation interval
};

struct JobOutcome {
  std::string name;
  double time_to_90_s = -1;  // from arrival to 90% of peak; -1: never
  double finish_s = -1;
};

// Discrete-time simulation (steps of epoch_s / 10). PAS: circuits first
// come first served, held until the job leaves. FastConv: every epoch the
// slots go to the jobs with the lowest accuracy / peak among those under
// release_fraction.
std::vector<JobOutcome> simulate(const std::vector<LearningJob>& jobs, const FastConvConfig& config,
                                 Policy policy);

}  // namespace lightrail::planner
