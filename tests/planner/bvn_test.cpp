// Arbitrary traffic matrices to weighted permutations.
#include "lightrail/planner/bvn.hpp"

#include <gtest/gtest.h>

#include <random>

namespace lp = lightrail::planner;

namespace {
lp::TrafficMatrix random_matrix(int n, unsigned seed, int64_t max_bytes, double density) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> bytes(1, max_bytes);
  std::uniform_real_distribution<double> u(0, 1);
  lp::TrafficMatrix t(n, std::vector<int64_t>(n, 0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (i != j && u(rng) < density) t[i][j] = bytes(rng);
  return t;
}
}  // namespace

TEST(PlannerBvn, ReconstructsTheMatrixExactly) {
  for (int n : {1, 2, 3, 7, 16, 33}) {
    for (unsigned seed = 0; seed < 4; ++seed) {
      const auto t = random_matrix(n, seed, 1'000'000, 0.5);
      const auto d = lp::bvn_decompose(t);
      EXPECT_EQ(lp::reconstruct(d), t) << "n=" << n;
      EXPECT_LE(d.terms.size(), size_t(std::max(1, n * n - 2 * n + 2))) << "n=" << n;
      for (const auto& term : d.terms) {
        EXPECT_GT(term.bytes, 0);
        std::vector<int> seen(n, 0);  // a full permutation (fixed points are idle ports)
        for (int d : term.matching.dest) EXPECT_EQ(seen.at(d)++, 0);
      }
    }
  }
}

TEST(PlannerBvn, GreedyStaysUnderNSquaredAndBeatsBvnWhenReconfigurationIsExpensive) {
  const lp::CircuitCost expensive{1'000'000'000, 50.0 / 1000, 12.5 / 1000};  // 1 ms, 400 Gb/s, 100 Gb/s EPS
  const lp::CircuitCost cheap{10'000, 50.0 / 1000, 12.5 / 1000};
  for (int n : {4, 8, 16, 32}) {
    for (unsigned seed = 0; seed < 3; ++seed) {
      const auto t = random_matrix(n, seed + 10, 100'000'000, 0.7);
      const auto bvn = lp::bvn_decompose(t);
      for (const auto& cost : {expensive, cheap}) {
        const auto g = lp::greedy_decompose(t, cost);
        EXPECT_LE(g.terms.size(), size_t(n * n));
        EXPECT_EQ(lp::reconstruct(g), t);
        EXPECT_LE(lp::total_time_ps(g, cost), lp::total_time_ps(bvn, cost)) << "n=" << n;
      }
      EXPECT_LT(lp::total_time_ps(lp::greedy_decompose(t, expensive), expensive),
                lp::total_time_ps(bvn, expensive))
          << "n=" << n;
    }
  }
}

TEST(PlannerBvn, GreedyWithoutPacketSwitchServesEverythingOnCircuits) {
  const auto t = random_matrix(12, 3, 5'000'000, 0.6);
  const auto g = lp::greedy_decompose(t, lp::CircuitCost{1'000'000, 0.05, 0});
  for (const auto& row : g.residual)
    for (int64_t x : row) EXPECT_EQ(x, 0);
  EXPECT_EQ(lp::reconstruct(g), t);
}

TEST(PlannerBvn, RejectsMalformedMatrices) {
  try {
    lp::bvn_decompose({{0, 1}, {1}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("traffic[1]"), std::string::npos);
  }
  try {
    lp::bvn_decompose({{0, -5}, {1, 0}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("traffic[0][1]"), std::string::npos);
  }
}
