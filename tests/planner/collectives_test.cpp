// Circuit counts of every pattern against the closed-form theory, one-to-one
// configurations, and the data each rank must end with.
#include "lightrail/planner/collectives.hpp"

#include <gtest/gtest.h>

#include "lightrail/planner/data_movement.hpp"

namespace lp = lightrail::planner;
using lp::Algorithm;
using lp::Collective;

namespace {

int flog2(int n) {
  int l = 0;
  while ((2 << l) <= n) ++l;
  return l;
}
int clog2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}
bool pow2(int n) { return (n & (n - 1)) == 0; }

struct Theory {
  int configs, rounds, reconfigurations;
};

// Textbook counts on one port per rank (see docs/control-plane.md).
Theory theory(Algorithm a, int n) {
  const int L = flog2(n);
  const int fold = pow2(n) ? 0 : 1;
  switch (a) {
    case Algorithm::kRing:
      return {1, 2 * (n - 1), 0};
    case Algorithm::kBidirectionalRing:
      return {n == 2 ? 1 : 2, 4 * (n - 1), n == 2 ? 0 : 1};
    case Algorithm::kRecursiveDoubling:
      return {L + fold, L + 2 * fold, L + 2 * fold - 1};
    case Algorithm::kHalvingDoubling:
      return {L + fold, 2 * L + 2 * fold, 2 * L - 2 + 2 * fold};
    case Algorithm::kBinaryTree: {
      const int len = L + (n > 2 ? flog2(n - 1) : 0);  // up rounds: left per level + right where present
      return {n == 2 ? 2 : 4, 2 * len, 2 * len - 1 - ((pow2(n) && n >= 4) ? 1 : 0)};
    }
    case Algorithm::kDirect:
      return {n - 1, n - 1, n - 2};
    case Algorithm::kBruck:
      return {clog2(n), clog2(n), clog2(n) - 1};
    case Algorithm::kPipeline:
    case Algorithm::kPipelineReverse:
      return {1, 1, 0};
  }
  return {};
}

Collective kind_of(Algorithm a) {
  switch (a) {
    case Algorithm::kDirect:
    case Algorithm::kBruck:
      return Collective::kAllToAll;
    case Algorithm::kPipeline:
    case Algorithm::kPipelineReverse:
      return Collective::kSendRecv;
    default:
      return Collective::kAllReduce;
  }
}

const Algorithm kAll[] = {Algorithm::kRing,
                          Algorithm::kBidirectionalRing,
                          Algorithm::kRecursiveDoubling,
                          Algorithm::kHalvingDoubling,
                          Algorithm::kBinaryTree,
                          Algorithm::kDirect,
                          Algorithm::kBruck,
                          Algorithm::kPipeline,
                          Algorithm::kPipelineReverse};

}  // namespace

TEST(PlannerCollectives, CountsEqualTheoryForEveryNFrom2To1024) {
  for (Algorithm a : kAll) {
    for (int n = 2; n <= 1024; ++n) {
      // plan_collective verifies every configuration one-to-one (throws otherwise).
      const lp::CollectivePlan p = lp::plan_collective(kind_of(a), a, n, 1, false);
      const Theory t = theory(a, n);
      ASSERT_EQ(int(p.configs.size()), t.configs) << lp::to_string(a) << " n=" << n;
      ASSERT_EQ(int(p.rounds.size()), t.rounds) << lp::to_string(a) << " n=" << n;
      ASSERT_EQ(p.reconfigurations(), t.reconfigurations) << lp::to_string(a) << " n=" << n;
      for (const auto& m : p.configs) ASSERT_NO_THROW(lp::verify_one_to_one(m, "config"));
    }
  }
}

TEST(PlannerCollectives, TwoPortsMakeBidirectionalRingAndPipelineOneConfiguration) {
  for (int n : {2, 3, 8, 13, 64}) {
    EXPECT_EQ(lp::plan_collective(Collective::kAllReduce, Algorithm::kBidirectionalRing, n, 2).configs.size(),
              1u);
    const auto fwd = lp::plan_collective(Collective::kSendRecv, Algorithm::kPipeline, n, 2);
    const auto bwd = lp::plan_collective(Collective::kSendRecv, Algorithm::kPipelineReverse, n, 2);
    EXPECT_EQ(fwd.configs[0], bwd.configs[0]) << "n=" << n;
    EXPECT_EQ(lp::check_data_movement(fwd), "");
    EXPECT_EQ(lp::check_data_movement(bwd), "");
  }
}

TEST(PlannerCollectives, DataReachesEveryRankItMust) {
  for (Algorithm a : kAll) {
    const int limit = kind_of(a) == Collective::kAllToAll ? 40 : 96;
    for (int n = 2; n <= limit; ++n) {
      for (int ports : {1, 2}) {
        const lp::CollectivePlan p = lp::plan_collective(kind_of(a), a, n, ports);
        ASSERT_EQ(lp::check_data_movement(p), "") << lp::to_string(a) << " n=" << n << " ports=" << ports;
      }
    }
  }
  for (Collective k : {Collective::kAllGather, Collective::kReduceScatter}) {
    for (int n = 2; n <= 64; ++n) {
      ASSERT_EQ(lp::check_data_movement(lp::plan_collective(k, Algorithm::kRing, n)), "") << n;
    }
  }
}

TEST(PlannerCollectives, DataCheckCatchesATransferWithoutACircuit) {
  lp::CollectivePlan p = lp::plan_collective(Collective::kAllReduce, Algorithm::kRing, 5);
  p.rounds[2].transfers[0].dst = 3;  // rank 0 has a circuit to rank 1 only
  EXPECT_NE(lp::check_data_movement(p).find("round 2: rank 0 sends to rank 3"), std::string::npos)
      << lp::check_data_movement(p);
  lp::CollectivePlan q = lp::plan_collective(Collective::kAllReduce, Algorithm::kRecursiveDoubling, 8);
  q.rounds.pop_back();
  EXPECT_NE(lp::check_data_movement(q).find("lacks"), std::string::npos);
}

TEST(PlannerCollectives, FractionsAddUpToTheBandwidthOptimalVolume) {
  // Ring and halving-doubling all-reduce move 2(n-1)/n of the data per rank.
  for (int n : {2, 4, 16, 128}) {
    for (Algorithm a : {Algorithm::kRing, Algorithm::kHalvingDoubling}) {
      double sum = 0;
      for (const auto& r : lp::plan_collective(Collective::kAllReduce, a, n, 1, false).rounds)
        sum += r.fraction;
      EXPECT_NEAR(sum, 2.0 * (n - 1) / n, 1e-9) << lp::to_string(a) << " n=" << n;
    }
  }
}

TEST(PlannerCollectives, RejectsBadArguments) {
  EXPECT_THROW(lp::plan_collective(Collective::kAllReduce, Algorithm::kRing, 1), std::invalid_argument);
  EXPECT_THROW(lp::plan_collective(Collective::kAllToAll, Algorithm::kRing, 4), std::invalid_argument);
  EXPECT_THROW(lp::algorithm_from_string("rnig"), std::invalid_argument);
  lp::Matching m{{2, 2, lp::kIdle}};
  try {
    lp::verify_one_to_one(m, "rail 3");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("rail 3: receiver 2"), std::string::npos) << e.what();
  }
}
