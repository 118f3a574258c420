// What the model can represent: the largest jobs plan in bounded memory,
// larger ones and overflowing times are refused naming the field and the
// limit, never wrapped or exhausting memory.
#include "lightrail/planner/limits.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "error_of.hpp"
#include "lightrail/planner/bvn.hpp"
#include "lightrail/planner/collectives.hpp"
#include "lightrail/planner/data_movement.hpp"
#include "lightrail/planner/experiments.hpp"
#include "lightrail/planner/fabric.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/job.hpp"
#include "lightrail/planner/opus.hpp"
#include "lightrail/planner/to_schedule.hpp"

namespace lp = lightrail::planner;

namespace {

#define EXPECT_HAS(haystack, needle) EXPECT_NE((haystack).find(needle), std::string::npos) << (haystack)

lp::Fabric rail_of(int ports) {
  lp::Fabric f;
  f.rails = 8;
  f.ocs_radix = ports;
  return f;
}

// One rank per node, one phase over every rank.
lp::Job world(int gpus, lp::Collective c, lp::Algorithm a, int64_t bytes) {
  lp::Job job = lp::cnn_preset(gpus, 1);
  job.phases[0].collective = c;
  job.phases[0].algorithm = a;
  job.phases[0].dimension = lp::Dimension::kWorld;
  job.phases[0].bytes = bytes;
  return job;
}

}  // namespace

TEST(PlannerLimits, AMillionGpusPlanInBoundedMemory) {
  // Used to build one full rail configuration per ring round (31,000 x
  // 131,072 ports) and die of std::bad_alloc.
  const lp::Job job = lp::gpt_preset(lp::kMaxGpus);
  const lp::OpusPlan plan = lp::plan_opus(job, rail_of(lp::kMaxGpus / 8));
  ASSERT_EQ(plan.rails.size(), 8u);
  for (const auto& rp : plan.rails) {
    EXPECT_EQ(rp.ports, lp::kMaxGpus / 8);
    EXPECT_EQ(rp.configs.size(), 3u);  // pipeline forward, backward, data ring
    EXPECT_EQ(rp.phases[2].round_config.size(), 2u * (job.data - 1));
  }
  EXPECT_GT(lp::photonic_iteration(plan, true).total_ps(), 0);
  // The plan needs no more than that; board schedules would (ports per board).
  EXPECT_HAS(error_of([&] { lp::to_schedules(plan, lightrail::DeviceCapabilities::reference()); }),
             "fabric.ocs_radix: rail 0 needs 131072 switch ports");
}

TEST(PlannerLimits, MoreGpusThanThePlannerHoldsAreRefused) {
  lp::Job job = lp::cnn_preset(16, 1);
  job.gpus = job.data = lp::kMaxGpus + 1;
  EXPECT_HAS(error_of([&] { lp::validate(job); }),
             "job.gpus: 1048577 is beyond the planner's limit of 1048576");
}

TEST(PlannerLimits, SweepsBeyondThePlannersTimeAreRefusedBeforeTheyRun) {
  // Each of these used to run for hours: every phase or sweep point walks every rank.
  lp::Job job = lp::cnn_preset(lp::kMaxGpus, 1);
  job.phases.resize(257, job.phases[0]);
  EXPECT_HAS(error_of([&] { lp::validate(job); }),
             "job.phases: 257 phases x 1048576 GPUs = 269484032 rank-phases");
  const nlohmann::json big(lp::kMaxGpus);
  EXPECT_HAS(error_of([&] {
               lp::run_experiment({{"kind", "opus"}, {"gpus", std::vector<nlohmann::json>(12, big)}});
             }),
             "experiment: 12 sizes of gpt x 7 reconfiguration_us = 3.02e+08");
  EXPECT_HAS(error_of([&] {
               lp::run_experiment(
                   {{"kind", "pas"}, {"nodes_per_job", {big}}, {"megabytes", std::vector<double>(30, 1.0)}});
             }),
             "experiment: 2 patterns x 1 nodes_per_job x 30 megabytes x 5 densities");
  EXPECT_HAS(
      error_of([&] {
        lp::run_experiment(
            {{"kind", "fastconv"}, {"jobs", std::vector<nlohmann::json>(300, {{"nodes", big}})}});
      }),
      "experiment: 300 jobs = 3.146e+08 rank-phase evaluations, beyond the planner's limit of 268435456");
  EXPECT_HAS(error_of([&] {
               lp::run_experiment({{"kind", "fastconv"},
                                   {"epoch_s", 0.01},
                                   {"jobs", std::vector<nlohmann::json>(2000, {{"iterations", 100000}})}});
             }),
             "jobs; the simulation takes at most 100000000 steps x jobs");
}

TEST(PlannerLimits, QuadraticPlansAreRefusedBeforeTheyAreBuilt) {
  // A direct all-to-all over 65,536 ranks: 65,535 configurations of 65,536
  // ports, 17 GB of port numbers.
  const lp::Job job = world(1 << 16, lp::Collective::kAllToAll, lp::Algorithm::kDirect, 1000);
  const std::string e = error_of([&] { lp::plan_opus(job, rail_of(1 << 16)); });
  EXPECT_HAS(e,
             "job.phases[0].dimension (phase \"gradients\"): a direct all_to_all over 65536 ranks has up to "
             "65535 configurations");
  EXPECT_HAS(e, "a plan holds at most 33554432 configuration entries");
  // The same at 2,048 ranks is well within.
  EXPECT_EQ(lp::plan_opus(world(2048, lp::Collective::kAllToAll, lp::Algorithm::kDirect, 1000), rail_of(2048))
                .rails[0]
                .configs.size(),
            2047u);
}

TEST(PlannerLimits, GroupsOfOneSizeInAndAcrossNodesUseTheirOwnPlans) {
  // Two GPUs per node, two ports per NIC: {0,1} sits in node 0 (scale-up,
  // one port), {2,4} spans nodes 1 and 2 on rail 0 (two ports). Both of
  // size 2 once shared one collective plan, giving a self-connected port.
  lp::Job job = lp::cnn_preset(8, 2);
  job.rail_of_local_gpu = {0, 0};
  job.phases[0].groups = {{0, 1}, {2, 4}};
  lp::Fabric f;
  f.rails = 1;
  f.ports_per_nic = 2;
  const lp::OpusPlan plan = lp::plan_opus(job, f);
  ASSERT_EQ(plan.rails.size(), 1u);
  ASSERT_EQ(plan.rails[0].configs.size(), 1u);
  const auto& dest = plan.rails[0].configs[0].dest;
  EXPECT_EQ(dest[2], 4);  // node 1 port 0 -> node 2 port 0
  EXPECT_EQ(dest[3], 5);
  EXPECT_EQ(dest[4], 2);
  EXPECT_GT(plan.scale_up[0].bytes, 0);
}

TEST(PlannerLimits, TimesBeyondTheModelAreRefusedNamingThePhase) {
  // 1 PB over 1 Mb/s links is 8e21 ps: it used to wrap and vanish.
  const lp::Job job = world(16, lp::Collective::kAllReduce, lp::Algorithm::kRing, lp::kMaxBytes);
  lp::Fabric slow = rail_of(64);
  slow.link_gbps = slow.scale_up_gbps = lp::kMinGbps;
  slow.eps_gbps = lp::kMinGbps;
  const lp::OpusPlan plan = lp::plan_opus(job, slow);
  EXPECT_HAS(error_of([&] { lp::photonic_iteration(plan, true); }),
             "job.phases[0] (gradients): circuit communication (from its bytes, fabric.link_gbps");
  EXPECT_HAS(error_of([&] { lp::photonic_iteration(plan, true); }), "beyond the model's limit of 1e+18 ps");
  EXPECT_HAS(error_of([&] { lp::electrical_iteration(plan); }), "job.phases[0] (gradients): packet-switched");
  EXPECT_HAS(error_of([&] { lp::to_schedules(plan, lightrail::DeviceCapabilities::reference()); }),
             "job.phases[0] (gradients): rail 0 step duration");
  // Reconfigurations inside a collective times the settling time: 62 x 1e18 ps.
  lp::Fabric settle = rail_of(64);
  settle.reconfiguration_ps = lp::kMaxPs;
  const lp::OpusPlan direct =
      lp::plan_opus(world(64, lp::Collective::kAllToAll, lp::Algorithm::kDirect, 1000), settle);
  EXPECT_HAS(error_of([&] { lp::photonic_iteration(direct, false); }), "exposed reconfiguration");
  // Phases each within the limit whose sum is not.
  lp::Job many = lp::cnn_preset(16, 1);
  many.phases[0].compute_ps = lp::kMaxPs;
  many.phases.resize(12, many.phases[0]);
  EXPECT_HAS(error_of([&] { lp::photonic_iteration(lp::plan_opus(many, rail_of(64)), true); }),
             "job.phases: the iteration's compute exceeds the model's limit");
}

TEST(PlannerLimits, CollectivesAndTheirChecksRefuseWhatTheyCannotHold) {
  EXPECT_HAS(error_of([] { lp::plan_collective(lp::Collective::kAllReduce, lp::Algorithm::kRing, 2, 4096); }),
             "ports_per_rank must be in 1..1024, got 4096");
  // Every algorithm stays within the configurations memory is planned for.
  for (int n : {2, 3, 5, 8, 13, 64, 100}) {
    for (auto [c, a] : {std::pair{lp::Collective::kAllReduce, lp::Algorithm::kRing},
                        {lp::Collective::kAllReduce, lp::Algorithm::kBidirectionalRing},
                        {lp::Collective::kAllReduce, lp::Algorithm::kRecursiveDoubling},
                        {lp::Collective::kAllReduce, lp::Algorithm::kHalvingDoubling},
                        {lp::Collective::kAllReduce, lp::Algorithm::kBinaryTree},
                        {lp::Collective::kAllToAll, lp::Algorithm::kDirect},
                        {lp::Collective::kAllToAll, lp::Algorithm::kBruck},
                        {lp::Collective::kSendRecv, lp::Algorithm::kPipeline},
                        {lp::Collective::kSendRecv, lp::Algorithm::kPipelineReverse}}) {
      for (int ports : {1, 2, 3}) {
        EXPECT_LE(int64_t(lp::plan_collective(c, a, n, ports, false).configs.size()),
                  lp::max_configurations(a, n))
            << lp::to_string(a) << " n=" << n;
      }
    }
  }
  // An all-to-all over 50,000 ranks has 2.5e9 blocks (used to wrap negative).
  EXPECT_EQ(lp::plan_collective(lp::Collective::kAllToAll, lp::Algorithm::kBruck, 50000, 1, false).blocks,
            int64_t{2'500'000'000});
  EXPECT_HAS(error_of([] { lp::plan_collective(lp::Collective::kAllToAll, lp::Algorithm::kBruck, 50000); }),
             "transfers of an all_to_all over 50000 ranks: 2500000000 blocks");
  // The data-movement replay's state would be 2^57 bytes.
  lp::CollectivePlan huge;
  huge.kind = lp::Collective::kAllReduce;
  huge.ranks = huge.blocks = 1 << 20;
  EXPECT_HAS(error_of([&] { lp::check_data_movement(huge); }),
             "check_data_movement: 1048576 ranks x 1048576 blocks");
}

TEST(PlannerLimits, TrafficWhoseLinesSumBeyondInt64IsNamed) {
  const int64_t big = std::numeric_limits<int64_t>::max();
  // Used to report "balanced matrix without a perfect matching".
  EXPECT_HAS(error_of([&] {
               lp::bvn_decompose({{0, big}, {0, 1}});
             }),
             "traffic[][1]: the column's bytes sum beyond");
  EXPECT_HAS(error_of([&] {
               lp::bvn_decompose({{big, 1}, {0, 0}});
             }),
             "traffic[0]: the row's bytes sum beyond");
  const lp::CircuitCost no_rate{1000, 0, 0};  // bytes used to be served in no time
  EXPECT_HAS(error_of([&] { lp::greedy_decompose({{0, 1}, {1, 0}}, no_rate); }), "cost.circuit_bytes_per_ps");
  const lp::Decomposition d = lp::bvn_decompose({{0, big / 2}, {big / 2, 0}});
  EXPECT_HAS(error_of([&] { lp::total_time_ps(d, lp::CircuitCost{0, 1e-9, 0}); }), "beyond the int64 range");
}

TEST(PlannerLimits, SwitchSizesBelowOnePortAreRefused) {
  // Used to divide by zero.
  EXPECT_HAS(error_of([] { lp::route_clos(lp::shift(20, 3), 0); }), "route_clos: boards of 0 ports");
  EXPECT_HAS(error_of([] { lp::shift(-4, 1); }), "shift: -4 ports");
  lp::Matching twice = lp::shift(20, 3);
  twice.dest[0] = twice.dest[1];
  EXPECT_HAS(error_of([&] { lp::route_clos(twice, 16); }), "route_clos: receiver");
}
