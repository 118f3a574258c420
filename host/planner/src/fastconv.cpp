#include "lightrail/planner/fastconv.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lightrail::planner {

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

std::vector<JobOutcome> simulate(const std::vector<LearningJob>& jobs, const FastConvConfig& cfg,
                                 Policy policy) {
  const size_t n = jobs.size();
  std::vector<JobOutcome> out(n);
  std::vector<double> done(n, 0);  // iterations completed
  std::vector<bool> ocs(n, false);
  for (size_t i = 0; i < n; ++i) out[i].name = jobs[i].name;
  const double dt = cfg.epoch_s / 10;
  auto active = [&](size_t i, double t) { return t >= jobs[i].arrival_s && out[i].finish_s < 0; };
  double next_epoch = 0;
  for (double t = 0; t < 1e7; t += dt) {
    bool any = false;
    for (size_t i = 0; i < n; ++i) any = any || out[i].finish_s < 0;
    if (!any) break;
    for (size_t i = 0; i < n; ++i)
      if (!active(i, t)) ocs[i] = false;
    if (policy == Policy::kPas) {
      // First come, first served; a job keeps its circuits until it leaves.
      int used = int(std::count(ocs.begin(), ocs.end(), true));
      std::vector<size_t> order(n);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(),
                       [&](size_t a, size_t b) { return jobs[a].arrival_s < jobs[b].arrival_s; });
      for (size_t i : order)
        if (used < cfg.ocs_slots && active(i, t) && !ocs[i]) {
          ocs[i] = true;
          ++used;
        }
    } else if (policy == Policy::kFastConv && t >= next_epoch) {
      next_epoch += cfg.epoch_s;
      std::vector<std::pair<double, size_t>> want;
      for (size_t i = 0; i < n; ++i) {
        ocs[i] = false;
        if (!active(i, t)) continue;
        const double progress = jobs[i].accuracy(done[i]) / jobs[i].peak_accuracy();
        if (progress < cfg.release_fraction) want.push_back({progress, i});
      }
      std::sort(want.begin(), want.end());
      for (size_t k = 0; k < want.size() && int(k) < cfg.ocs_slots; ++k) ocs[want[k].second] = true;
    }
    int on_eps = 0;
    for (size_t i = 0; i < n; ++i) on_eps += active(i, t) && !ocs[i];
    for (size_t i = 0; i < n; ++i) {
      if (!active(i, t)) continue;
      const LearningJob& j = jobs[i];
      const double iter_s =
          ocs[i] ? j.iteration_ocs_s
                 : j.iteration_eps_s * (1.0 + j.eps_slowdown_per_job * std::max(0, on_eps - 1));
      done[i] += dt / iter_s;
      if (out[i].time_to_90_s < 0 && j.accuracy(done[i]) >= 0.9 * j.peak_accuracy()) {
        out[i].time_to_90_s = t + dt - j.arrival_s;
      }
      if (done[i] >= j.iterations) out[i].finish_s = t + dt;
    }
  }
  return out;
}

}  // namespace lightrail::planner
