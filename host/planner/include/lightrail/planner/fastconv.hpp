// FastConv: jobs sharing a hybrid OCS/EPS fabric; OCS circuits go to the
// jobs furthest from convergence, jobs near their target give them up.
// Thread safety: value types and pure functions; safe to use from any
// thread on distinct objects, and to read one object from several threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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
  int64_t ports = 1;  // OCS ports its circuits take (nodes x ports per NIC)
  // The truth the job's reports are drawn from; the policies never read it.
  double accuracy(double iteration) const;
  double peak_accuracy() const;
};

// How far a job is from convergence, from what it reported: `reports` are
// (iteration, metric) in order, the metric an accuracy that rises or a loss
// that falls towards an unknown limit. The limit is extrapolated by Aitken's
// delta-squared over the metric at iterations i/3, 2i/3 and i (i the last
// report; linear between reports), exact for m(i) = L + (m0 - L) q^i. The
// estimate is (m(i) - m(0)) / (limit - m(0)) in 0..1: 0 with fewer than 3
// reports or no sign of saturation yet (the differences not shrinking).
double estimated_progress(const std::vector<std::pair<double, double>>& reports);

enum class Policy { kEpsOnly, kPas, kFastConv };

struct FastConvConfig {
  int64_t ocs_ports = 4;           // OCS ports the jobs' circuits share
  double release_fraction = 0.85;  // FastConv: give up circuits at this estimated progress
  double epoch_s = 1.0;            // allocation and report interval
  double move_s = 0;               // a job gaining or losing circuits stalls this long (reconfiguration)
  // Keep each job's progress (accuracy / peak) at about this many instants
  // over the run, for a time-to-accuracy picture; 0: none.
  int progress_points = 0;
};

struct JobOutcome {
  std::string name;
  std::optional<double> time_to_90_s;  // from arrival to 90% of peak; empty: never reached
  double finish_s = 0;
  // (s from the start of the run, accuracy / peak) from arrival to finish,
  // with FastConvConfig::progress_points.
  std::vector<std::pair<double, double>> progress;
};

// Steps x jobs of a simulation at most (each step visits every job): a run
// that would take more is refused before it starts.
inline constexpr int64_t kMaxSimulationJobSteps = 100'000'000;

// Discrete-time simulation (steps of epoch_s / 10) until every job has
// finished. Every job reports its accuracy each epoch. PAS: circuits first
// come first served while ports remain, held until the job leaves.
// FastConv: every epoch the ports go to the jobs with the lowest
// estimated_progress of their reports among those under release_fraction
// (a job that does not fit the ports left is passed over). A job whose
// circuits are set up or taken away stalls move_s.
// Throws std::invalid_argument naming the field ("epoch_s",
// "jobs[2].iteration_eps_s", ...) for values outside their range (times
// positive and finite, fractions in 0..1, a curve in 0..1 that rises above
// 0) and for a run of more than kMaxSimulationJobSteps steps x jobs.
std::vector<JobOutcome> simulate(const std::vector<LearningJob>& jobs, const FastConvConfig& config,
                                 Policy policy);

}  // namespace lightrail::planner
