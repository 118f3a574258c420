// The electrical baseline as a Clos with ECMP and queueing: PAS's gain at
// density 1 and the 10^6-GPU electrical iteration are results of the
// network's structure and move with its parameters.
#include "lightrail/planner/clos.hpp"

#include <gtest/gtest.h>

#include "lightrail/planner/experiments.hpp"
#include "lightrail/planner/flow_model.hpp"
#include "lightrail/planner/opus.hpp"

namespace lp = lightrail::planner;
using nlohmann::json;

namespace {
lp::Fabric clos(int radix, double oversubscription) {
  lp::Fabric f;
  f.eps_switch_radix = radix;
  f.eps_oversubscription = oversubscription;
  return f;
}
// PAS's acceleration (EPS / circuits) of one ring job of `nodes` nodes, 10 MB.
double pas_gain(const json& fabric, int density, int nodes = 4) {
  const json r = lp::run_experiment({{"kind", "pas"},
                                     {"nodes_per_job", {nodes}},
                                     {"densities", {density}},
                                     {"megabytes", {10}},
                                     {"patterns", {"ring"}},
                                     {"fabric", fabric}});
  return r["rows"][0][6].get<double>();
}
}  // namespace

TEST(PlannerClos, ShapeAndHashingCollisions) {
  const lp::Fabric f = clos(64, 1);  // 32 hosts and 32 uplinks a leaf
  const lp::ClosShape s = lp::clos_shape(f, 256);
  EXPECT_EQ(s.hosts_per_leaf, 32);
  EXPECT_EQ(s.uplinks, 32);
  EXPECT_EQ(s.leaves, 8);
  EXPECT_EQ(s.tiers, 2);
  // 2 tiers reach 64 leaves, 3 tiers 64 x 32: 4,096 leaves need a fourth.
  EXPECT_EQ(lp::clos_shape(f, 65536).tiers, 3);
  EXPECT_EQ(lp::clos_shape(f, 131072).tiers, 4);
  // Inside a leaf: one hop, nothing shared.
  lp::ClosRound r = lp::clos_round(f, 256, {{0, 1, 1}});
  EXPECT_EQ(r.hops, 1);
  EXPECT_DOUBLE_EQ(r.sharing, 1);
  // One flow across: three hops, alone on its links.
  r = lp::clos_round(f, 256, {{0, 40, 1}});
  EXPECT_EQ(r.hops, 3);
  EXPECT_DOUBLE_EQ(r.sharing, 1);
  // A whole leaf to the next on a non-blocking Clos: adaptive routing
  // spreads it (nothing shared); per-flow ECMP collides (32 flows on 32
  // uplinks: the busiest carries about 3.5 on average).
  std::vector<lp::ClosFlow> leaf;
  for (int h = 0; h < 32; ++h) leaf.push_back({h, 32 + h, 1});
  EXPECT_DOUBLE_EQ(lp::clos_round(f, 256, leaf).sharing, 1);
  lp::Fabric ecmp = f;
  ecmp.eps_ecmp = true;
  r = lp::clos_round(ecmp, 256, leaf);
  EXPECT_GT(r.sharing, 2.5);
  EXPECT_LT(r.sharing, 5);
  // Oversubscribed 3:1 (48 hosts, 16 uplinks a leaf): a full leaf across
  // shares each uplink three ways, however it is routed.
  EXPECT_DOUBLE_EQ(lp::clos_shape(clos(64, 3), 256).hosts_per_leaf, 48);
  leaf.clear();
  for (int h = 0; h < 48; ++h) leaf.push_back({h, 48 + h, 1});
  EXPECT_DOUBLE_EQ(lp::clos_round(clos(64, 3), 256, leaf).sharing, 3);
}

// At density 1 a 4-node job sits on one leaf: the oversubscribed core never
// carries it, and PAS gains only the latency, whatever eps_oversubscription
// says. Scattered among 16 jobs it crosses the core, and the gain grows with
// the oversubscription. Hop latency moves the density-1 gain.
TEST(PlannerClos, PasGainAtDensityOneIsAResultOfTheNetwork) {
  json fabric = {{"rails", 1},
                 {"ocs_radix", 64},
                 {"link_gbps", 100},
                 {"eps_gbps", 100},
                 {"reconfiguration_us", 25},
                 {"eps_oversubscription", 2},
                 {"eps_switch_radix", 16}};
  const double g1 = pas_gain(fabric, 1);
  EXPECT_LT(g1, 1.2) << "not the oversubscription input (2)";
  EXPECT_GT(g1, 1.0) << "circuits still save the switch latency";
  fabric["eps_oversubscription"] = 4;
  EXPECT_DOUBLE_EQ(pas_gain(fabric, 1), g1);
  const double g16_at4 = pas_gain(fabric, 16);
  fabric["eps_oversubscription"] = 2;
  const double g16_at2 = pas_gain(fabric, 16);
  EXPECT_GT(g16_at2, g1);
  EXPECT_GT(g16_at4, g16_at2);
  fabric["eps_hop_latency_ps"] = 50'000'000;  // 50 us a switch
  EXPECT_GT(pas_gain(fabric, 1), g1 + 0.01);
  // A job too big for one leaf (16 nodes, 10 hosts a leaf) crosses the core
  // even alone.
  fabric["eps_hop_latency_ps"] = 500'000;
  EXPECT_GT(pas_gain(fabric, 1, 16), g1);
}

// The 10^6-GPU electrical iteration: on a Clos the data ring's rounds that
// leave a leaf cross 5 switches (3 tiers), so it is slower than one ideal
// switch, and it moves with the hop latency and the radix.
TEST(PlannerClos, MillionGpuElectricalIterationFollowsTheClos) {
  lp::Fabric f = clos(0, 1);
  f.ocs_radix = 131072;
  const lp::OpusPlan plan = lp::plan_opus(lp::gpt_preset(1 << 20), f);
  const int64_t flat = lp::electrical_iteration(plan).total_ps();
  auto on = [&](int radix, int64_t hop_ps) {
    lp::OpusPlan p = plan;
    p.fabric.eps_switch_radix = radix;
    p.fabric.eps_hop_latency_ps = hop_ps;
    return lp::electrical_iteration(p).total_ps();
  };
  const int64_t c128 = on(128, 500'000);
  EXPECT_GT(c128, flat);
  EXPECT_GT(on(128, 1'000'000), c128);
  EXPECT_NE(on(32, 500'000), c128);
}

// Per-flow ECMP hashing collides where adaptive routing spreads: PAS gains
// more over an ECMP network (the paper's baseline) at high density.
TEST(PlannerClos, PasGainsMoreOverEcmpThanOverAdaptiveRouting) {
  json fabric = {{"rails", 1},
                 {"ocs_radix", 64},
                 {"link_gbps", 100},
                 {"eps_gbps", 100},
                 {"reconfiguration_us", 25},
                 {"eps_oversubscription", 2},
                 {"eps_switch_radix", 16}};
  const double adaptive = pas_gain(fabric, 16);
  fabric["eps_routing"] = "ecmp";
  EXPECT_GT(pas_gain(fabric, 16), adaptive + 0.5);
}

// The 10^6-GPU comparison as a result: against the job's own ring on the
// electrical network photonic rails look faster; against the electrical
// network's fastest algorithm per phase (its 2 x 14 halving-doubling rounds
// instead of the ring's 32,766) they cost more.
TEST(PlannerClos, MillionGpuComparisonIsAgainstTheBestElectricalAlgorithm) {
  const json row = lp::run_experiment(
      {{"kind", "opus"},
       {"gpus", {1 << 20}},
       {"reconfiguration_us", {10000}},
       {"fabric", {{"rails", 8}, {"ocs_radix", 256}, {"eps_switch_radix", 128}}}})["rows"][0];
  EXPECT_LT(row[6].get<double>(), row[2].get<double>());
  EXPECT_LT(row[4].get<double>(), 0) << "against the ring: photonic faster";
  EXPECT_GT(row[7].get<double>(), 0) << "against the best electrical: photonic slower";
}

TEST(PlannerClos, BadElectricalNetworkFieldsAreNamed) {
  auto error = [](const json& j) {
    try {
      lp::fabric_from_json(j);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  EXPECT_NE(error({{"eps_switch_radix", 3}})
                .find("fabric.eps_switch_radix: 3 is out of range (0 (one ideal "
                      "switch) or 4..65536)"),
            std::string::npos);
  EXPECT_NE(error({{"eps_routing", "spray"}})
                .find("fabric.eps_routing: unknown routing \"spray\" (one of: "
                      "adaptive, ecmp)"),
            std::string::npos);
  EXPECT_NE(error({{"eps_hop_latency_ps", -1}}).find("fabric.eps_hop_latency_ps"), std::string::npos);
  EXPECT_EQ(
      lp::to_json(lp::fabric_from_json({{"eps_routing", "ecmp"}, {"eps_switch_radix", 64}}))["eps_routing"],
      "ecmp");
}
