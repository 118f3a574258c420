// FastConv on what a job reports: the convergence estimate from reported
// accuracy or loss (never the peak), circuits counted in ports, and moves
// that cost the switch's reconfiguration time.
#include "lightrail/planner/fastconv.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/experiments.hpp"

namespace lp = lightrail::planner;
using nlohmann::json;

namespace {
std::vector<std::pair<double, double>> reports_of(double start, double limit, double tau, double last,
                                                  double every) {
  std::vector<std::pair<double, double>> r;
  for (double i = 0; i <= last + 1e-9; i += every)
    r.push_back({i, limit + (start - limit) * std::exp(-i / tau)});
  return r;
}
lp::LearningJob job(const std::string& name, double arrival, int64_t ports) {
  lp::LearningJob j;
  j.name = name;
  j.arrival_s = arrival;
  j.iterations = 2000;
  j.iteration_ocs_s = 0.01;
  j.iteration_eps_s = 0.04;
  j.tau = 300;
  j.peak = 0.8;
  j.ports = ports;
  return j;
}
}  // namespace

TEST(PlannerFastConv, EstimatorFindsTheLimitFromReportsAlone) {
  // An accuracy rising to 0.8 and a loss falling to 0.3: the estimate is
  // how far the metric has come towards its limit, neither given.
  for (auto [start, limit] : {std::pair{0.0, 0.8}, std::pair{2.5, 0.3}}) {
    for (double at : {150.0, 600.0, 1500.0}) {
      const double truth = 1 - std::exp(-at / 300);
      EXPECT_NEAR(lp::estimated_progress(reports_of(start, limit, 300, at, 5)), truth, 0.01)
          << start << " -> " << limit << " at " << at;
    }
  }
  // Too few reports, or no sign of saturation (a straight line), say 0.
  EXPECT_EQ(lp::estimated_progress({{0, 0.1}, {10, 0.2}}), 0);
  EXPECT_EQ(lp::estimated_progress({{0, 0.1}, {10, 0.2}, {20, 0.3}, {30, 0.4}}), 0);
}

// Ports, not jobs: two 4-port jobs share 8 ports; a 16-port job never fits.
TEST(PlannerFastConv, CircuitsAreCountedInPorts) {
  lp::FastConvConfig cfg;
  cfg.ocs_ports = 8;
  auto finish = [&](const std::vector<lp::LearningJob>& jobs, lp::Policy p) {
    std::vector<double> f;
    for (const auto& o : lp::simulate(jobs, cfg, p)) f.push_back(o.finish_s);
    return f;
  };
  const auto both = finish({job("a", 0, 4), job("b", 0, 4)}, lp::Policy::kPas);
  EXPECT_NEAR(both[0], 20, 0.2);  // 2000 iterations x 10 ms on circuits
  EXPECT_NEAR(both[1], 20, 0.2);
  const auto big = finish({job("big", 0, 16)}, lp::Policy::kPas);
  EXPECT_NEAR(big[0], 80, 0.2);  // on the EPS throughout
}

// A move costs the reconfiguration: a job given circuits at its arrival
// finishes move_s later; FastConv, moving circuits between jobs, pays more.
TEST(PlannerFastConv, MovingCircuitsCostsTheReconfiguration) {
  lp::FastConvConfig cfg;
  cfg.ocs_ports = 4;
  const double alone = lp::simulate({job("a", 0, 4)}, cfg, lp::Policy::kPas)[0].finish_s;
  cfg.move_s = 0.5;
  EXPECT_NEAR(lp::simulate({job("a", 0, 4)}, cfg, lp::Policy::kPas)[0].finish_s, alone + 0.5, 0.11);
  const std::vector<lp::LearningJob> two = {job("a", 0, 4), job("b", 3, 4)};
  cfg.move_s = 0;
  const auto free_moves = lp::simulate(two, cfg, lp::Policy::kFastConv);
  cfg.move_s = 0.5;
  const auto paid = lp::simulate(two, cfg, lp::Policy::kFastConv);
  EXPECT_GT(paid[0].finish_s + paid[1].finish_s, free_moves[0].finish_s + free_moves[1].finish_s + 0.9);
}

// The six-job mixture (experiments/fastconv-mix.json): at release_fraction
// 0.9, the target the table measures, FastConv makes no job slower than PAS
// alone and the mean faster; releasing at 0.85 makes some slower (they
// finish their last stretch to 90% on the EPS).
TEST(PlannerFastConv, MixtureMakesNoJobSlowerThanPasAtTheMeasuredTarget) {
  json spec = lightrail::read_json_file(std::string(LIGHTRAIL_EXPERIMENTS_DIR) + "/fastconv-mix.json", "mix");
  ASSERT_EQ(spec["release_fraction"], 0.9);
  json r = lp::run_experiment(spec);
  for (const auto& pct : r["fastconv_vs_pas_pct"]) EXPECT_LE(pct.get<double>(), 0.0);
  const json& mean = r["rows"][6];
  ASSERT_EQ(mean[0], "mean");
  EXPECT_LT(mean[3].get<double>(), 0.8 * mean[2].get<double>());
  spec["release_fraction"] = 0.85;
  r = lp::run_experiment(spec);
  double worst = -100;
  for (const auto& pct : r["fastconv_vs_pas_pct"]) worst = std::max(worst, pct.get<double>());
  EXPECT_GT(worst, 5);
}

TEST(PlannerFastConv, SlotsCountingJobsAreRefusedNamingTheField) {
  json spec = {{"kind", "fastconv"}, {"ocs_slots", 1}, {"jobs", {{{"iterations", 10}}}}};
  try {
    lp::run_experiment(spec);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("experiment.ocs_slots: circuits are counted in ports"),
              std::string::npos)
        << e.what();
  }
}
