#include "lightrail/planner/fastconv.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace lightrail::planner {
namespace {

[[noreturn]] void fail(const std::string& field, const std::string& message) {
  throw std::invalid_argument(field + ": " + message);
}

bool finite_positive(double x) { return x > 0 && std::isfinite(x); }

void check(const std::vector<LearningJob>& jobs, const FastConvConfig& cfg) {
  if (cfg.ocs_ports < 0) fail("ocs_ports", fmt::format("must not be negative, is {}", cfg.ocs_ports));
  if (!(cfg.move_s >= 0 && std::isfinite(cfg.move_s)))
    fail("move_s", fmt::format("must be finite and not negative, is {}", cfg.move_s));
  if (!(cfg.release_fraction >= 0 && cfg.release_fraction <= 1))
    fail("release_fraction", fmt::format("{} is out of range (0..1)", cfg.release_fraction));
  if (!finite_positive(cfg.epoch_s)) fail("epoch_s", fmt::format("must be positive, is {}", cfg.epoch_s));
  for (size_t i = 0; i < jobs.size(); ++i) {
    const LearningJob& j = jobs[i];
    const std::string w = fmt::format("jobs[{}]", i);
    if (!(j.arrival_s >= 0 && std::isfinite(j.arrival_s)))
      fail(w + ".arrival_s", fmt::format("must be finite and not negative, is {}", j.arrival_s));
    if (j.iterations <= 0) fail(w + ".iterations", fmt::format("must be positive, is {}", j.iterations));
    if (j.ports < 1) fail(w + ".ports", fmt::format("must be positive, is {}", j.ports));
    if (!finite_positive(j.iteration_ocs_s))
      fail(w + ".iteration_ocs_s", fmt::format("an iteration must take time, takes {} s", j.iteration_ocs_s));
    if (!finite_positive(j.iteration_eps_s))
      fail(w + ".iteration_eps_s", fmt::format("an iteration must take time, takes {} s", j.iteration_eps_s));
    if (!(j.eps_slowdown_per_job >= 0 && std::isfinite(j.eps_slowdown_per_job))) {
      fail(w + ".eps_slowdown_per_job",
           fmt::format("must be finite and not negative, is {}", j.eps_slowdown_per_job));
    }
    if (j.curve.empty()) {
      if (!(j.peak > 0 && j.peak <= 1))
        fail(w + ".peak", fmt::format("{} is out of range (above 0, at most 1)", j.peak));
      if (!finite_positive(j.tau)) fail(w + ".tau", fmt::format("must be positive, is {}", j.tau));
    } else {
      for (size_t k = 0; k < j.curve.size(); ++k)
        if (!(j.curve[k] >= 0 && j.curve[k] <= 1))
          fail(fmt::format("{}.curve[{}]", w, k),
               fmt::format("accuracy {} is out of range (0..1)", j.curve[k]));
      if (!(j.peak_accuracy() > 0)) fail(w + ".curve", "never rises above 0 (progress is accuracy / peak)");
    }
  }
}

}  // namespace

double LearningJob::accuracy(double i) const {
  if (curve.empty()) return peak * (1.0 - std::exp(-i / tau));
  if (i <= 0) return curve.front();
  const size_t k = static_cast<size_t>(i);
  if (k + 1 >= curve.size()) return curve.back();
  return curve[k] + (i - k) * (curve[k + 1] - curve[k]);
}

double LearningJob::peak_accuracy() const {
  return curve.empty() ? peak : *std::max_element(curve.begin(), curve.end());
}

double estimated_progress(const std::vector<std::pair<double, double>>& reports) {
  if (reports.size() < 3) return 0;
  const double first = reports.front().first, last = reports.back().first;
  if (!(last > first)) return 0;
  // The metric at iteration x, linear between reports.
  auto at = [&](double x) {
    auto it = std::lower_bound(reports.begin(), reports.end(), x,
                               [](const std::pair<double, double>& r, double v) { return r.first < v; });
    if (it == reports.begin()) return it->second;
    if (it == reports.end()) return reports.back().second;
    const auto& [x1, y1] = *it;
    const auto& [x0, y0] = *(it - 1);
    return x1 > x0 ? y0 + (x - x0) / (x1 - x0) * (y1 - y0) : y1;
  };
  const double step = (last - first) / 3;
  const double m0 = reports.front().second, a = at(first + step), b = at(first + 2 * step), c = at(last);
  // Saturating: the later difference smaller than the earlier, same sign.
  const double d1 = b - a, d2 = c - b, span = c - m0;
  if (span == 0 || d1 == 0 || d2 / d1 <= 0 || d2 / d1 >= 1) return 0;
  const double limit = c - d2 * d2 / (d2 - d1);  // Aitken: c + d2 q / (1 - q), q = d2 / d1
  return std::clamp(span / (limit - m0), 0.0, 1.0);
}

std::vector<JobOutcome> simulate(const std::vector<LearningJob>& jobs, const FastConvConfig& cfg,
                                 Policy policy) {
  check(jobs, cfg);
  const size_t n = jobs.size();
  std::vector<JobOutcome> out(n);
  std::vector<double> done(n, 0);  // iterations completed
  std::vector<bool> ocs(n, false), finished(n, false);
  for (size_t i = 0; i < n; ++i) out[i].name = jobs[i].name;
  const double dt = cfg.epoch_s / 10;
  // Every job has finished by its arrival plus its iterations at its slowest
  // (EPS shared with every other job): the steps are known before the run.
  double horizon = 0;
  size_t longest = 0;
  for (size_t i = 0; i < n; ++i) {
    const LearningJob& j = jobs[i];
    const double slowest = std::max(
        j.iteration_ocs_s, j.iteration_eps_s * (1.0 + j.eps_slowdown_per_job * double(n > 0 ? n - 1 : 0)));
    // A job may stall move_s in every epoch (refused below unless shorter).
    const double stall = cfg.move_s < cfg.epoch_s ? 1 - cfg.move_s / cfg.epoch_s : 1;
    const double end = (j.arrival_s + double(j.iterations) * slowest) / stall + 2 * cfg.epoch_s;
    if (end > horizon) {
      horizon = end;
      longest = i;
    }
  }
  // A margin for rounding in the sums of steps and iterations.
  const double steps = std::ceil(horizon / dt * (1 + 1e-6)) + 3;
  if (!(steps * double(std::max<size_t>(1, n)) <= double(kMaxSimulationJobSteps))) {
    fail("epoch_s",
         fmt::format("steps of {} s up to {:.4g} s, when jobs[{}] may finish, are {:.4g} steps of {} "
                     "jobs; the simulation takes at most {} steps x jobs (raise epoch_s, or fewer "
                     "jobs, iterations or later arrivals)",
                     dt, horizon, longest, steps, n, kMaxSimulationJobSteps));
  }
  if (!(cfg.move_s < cfg.epoch_s)) {
    fail("epoch_s", fmt::format("{} s is not longer than a circuit move ({} s, the reconfiguration): a job "
                                "moved every epoch would never run",
                                cfg.epoch_s, cfg.move_s));
  }
  auto active = [&](size_t i, double t) { return t >= jobs[i].arrival_s && !finished[i]; };
  // First come, first served (stable for equal arrivals).
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return jobs[a].arrival_s < jobs[b].arrival_s; });
  const int64_t sample_every =
      cfg.progress_points > 0 ? std::max<int64_t>(1, int64_t(steps) / cfg.progress_points) : 0;
  double next_epoch = 0;
  double t = 0;
  // What each job reported (iteration, accuracy), once an epoch: all the
  // policies know of its convergence.
  std::vector<std::vector<std::pair<double, double>>> reports(n);
  std::vector<double> stalled_until(n, 0);
  std::vector<bool> before(n, false);
  for (int64_t step = 0; step < int64_t(steps); ++step, t += dt) {
    if (std::all_of(finished.begin(), finished.end(), [](bool f) { return f; })) break;
    for (size_t i = 0; i < n; ++i)
      if (!active(i, t)) ocs[i] = false;
    const bool epoch = t >= next_epoch;
    if (epoch) {
      next_epoch += cfg.epoch_s;
      for (size_t i = 0; i < n; ++i)
        if (active(i, t)) reports[i].emplace_back(done[i], jobs[i].accuracy(done[i]));
    }
    before = ocs;
    if (policy == Policy::kPas) {
      // A job keeps its circuits until it leaves.
      int64_t used = 0;
      for (size_t i = 0; i < n; ++i) used += ocs[i] ? jobs[i].ports : 0;
      for (size_t i : order)
        if (active(i, t) && !ocs[i] && used + jobs[i].ports <= cfg.ocs_ports) {
          ocs[i] = true;
          used += jobs[i].ports;
        }
    } else if (policy == Policy::kFastConv && epoch) {
      std::vector<std::pair<double, size_t>> want;
      for (size_t i = 0; i < n; ++i) {
        ocs[i] = false;
        if (!active(i, t)) continue;
        const double progress = estimated_progress(reports[i]);
        if (progress < cfg.release_fraction) want.push_back({progress, i});
      }
      std::sort(want.begin(), want.end());
      int64_t used = 0;
      for (const auto& [progress, i] : want) {
        if (used + jobs[i].ports > cfg.ocs_ports) continue;
        ocs[i] = true;
        used += jobs[i].ports;
      }
    }
    // Circuits set up or taken down: the job's traffic waits for them.
    for (size_t i = 0; i < n; ++i)
      if (active(i, t) && ocs[i] != before[i]) stalled_until[i] = t + cfg.move_s;
    int on_eps = 0;
    for (size_t i = 0; i < n; ++i) on_eps += active(i, t) && !ocs[i];
    for (size_t i = 0; i < n; ++i) {
      if (!active(i, t)) continue;
      const LearningJob& j = jobs[i];
      const double iter_s =
          ocs[i] ? j.iteration_ocs_s
                 : j.iteration_eps_s * (1.0 + j.eps_slowdown_per_job * std::max(0, on_eps - 1));
      if (sample_every && out[i].progress.empty())  // where it starts, at its arrival
        out[i].progress.emplace_back(t, j.accuracy(done[i]) / j.peak_accuracy());
      // The part of the step not spent waiting for a circuit move.
      const double runs = std::clamp(t + dt - stalled_until[i], 0.0, dt);
      done[i] += runs / iter_s;
      if (!out[i].time_to_90_s && j.accuracy(done[i]) >= 0.9 * j.peak_accuracy()) {
        out[i].time_to_90_s = t + dt - j.arrival_s;
      }
      if (done[i] >= j.iterations) {
        out[i].finish_s = t + dt;
        finished[i] = true;
      }
      if (sample_every && (step % sample_every == 0 || finished[i]))
        out[i].progress.emplace_back(t + dt, j.accuracy(done[i]) / j.peak_accuracy());
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (!finished[i]) throw std::logic_error(fmt::format("fastconv: jobs[{}] outlived its bound", i));
  return out;
}

}  // namespace lightrail::planner
