// Fine-edge output stage (hw/fine_edge_stage.sv) against a reference written
// from docs/hw.md, "Fine-edge output stage": the events of cycle t shape the
// serializer word of cycle t+1; a fall at tick f makes ticks >= f low, a rise
// at tick r makes ticks >= r high, the later event wins from its tick on, and
// on one tick the fall applies first, then the rise.
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "Vhw_fine_edge_bench.h"
#include "lightrail/hwdef.hpp"
#include "rtl_coverage.hpp"
#include "verilated.h"

namespace {

using lightrail::hwdef::FINE_STEPS;
using lightrail::hwdef::WAVELENGTH_BITS;

// The events the sequencer presents for one port in one cycle.
struct Events {
  std::optional<uint32_t> fall;
  std::optional<uint32_t> rise;
  std::optional<uint32_t> sel_fine;
  uint32_t sel_value = 0;
};

Events Fall(uint32_t f) { return {f, std::nullopt, std::nullopt}; }
Events Rise(uint32_t r) { return {std::nullopt, r, std::nullopt}; }
Events FallAndRise(uint32_t f, uint32_t r) { return {f, r, std::nullopt}; }

// Gate level on every tick of a cycle, bit k = tick k (the docs' rules, tick by tick).
uint32_t ReferenceWord(bool carried, const Events& e) {
  uint32_t word = 0;
  for (uint32_t k = 0; k < FINE_STEPS; ++k) {
    // The last fall and rise at or before tick k; -1: none yet.
    const int fall = e.fall && *e.fall <= k ? static_cast<int>(*e.fall) : -1;
    const int rise = e.rise && *e.rise <= k ? static_cast<int>(*e.rise) : -1;
    bool level = carried;
    if (fall >= 0 || rise >= 0) level = rise >= fall;  // a tie: the rise applies last
    if (level) word |= 1u << k;
  }
  return word;
}

std::string Describe(bool carried, const Events& e) {
  std::string s = carried ? "carried high" : "carried low";
  if (e.fall) s += ", fall at " + std::to_string(*e.fall);
  if (e.rise) s += ", rise at " + std::to_string(*e.rise);
  return s;
}

class FineEdgeBench {
 public:
  FineEdgeBench() {
    model_.rst_ni = 0;
    Cycle({});
    model_.rst_ni = 1;
  }
  ~FineEdgeBench() {
    model_.final();
    lightrail::rtl_coverage::write(context_, "hw_fine_edge");
  }

  // Presents the events during one cycle and returns with the outputs of the next.
  void Cycle(const Events& e) {
    model_.fall_valid_i = e.fall.has_value();
    model_.fall_fine_i = e.fall.value_or(0);
    model_.rise_valid_i = e.rise.has_value();
    model_.rise_fine_i = e.rise.value_or(0);
    model_.sel_valid_i = e.sel_fine.has_value();
    model_.sel_fine_i = e.sel_fine.value_or(0);
    model_.sel_value_i = e.sel_value;
    model_.clk_i = 0;
    model_.eval();
    presented_word_ = model_.gate_ser_o;  // still the previous cycle's outputs
    model_.clk_i = 1;
    model_.eval();
  }

  // Forces the level carried into the next cycle (all ticks of this word).
  void Carry(bool high) {
    Cycle(high ? Rise(0) : Fall(0));
    ASSERT_EQ(word(), high ? ~0u : 0u) << "setting the carried level";
  }

  uint32_t word() const { return model_.gate_ser_o; }
  uint32_t word_before_edge() const { return presented_word_; }
  Vhw_fine_edge_bench& m() { return model_; }

 private:
  VerilatedContext context_;
  Vhw_fine_edge_bench model_{&context_};
  uint32_t presented_word_ = 0;
};

std::optional<uint32_t> AnyTick(std::mt19937& rng, int none_one_in) {
  if (rng() % none_one_in == 0) return std::nullopt;
  return static_cast<uint32_t>(rng() % FINE_STEPS);
}

TEST(FineEdge, ResetLeavesTheGateLowAndTheSelectAtZero) {
  FineEdgeBench b;
  EXPECT_EQ(b.word(), 0u);
  EXPECT_EQ(b.m().sel_o, 0u);
  EXPECT_EQ(b.m().sel_fine_o, 0u);
  EXPECT_FALSE(b.m().sel_stb_o);
}

TEST(FineEdge, ARiseAtEveryTickRaisesTheGateFromThatTickOn) {
  FineEdgeBench b;
  for (uint32_t r = 0; r < FINE_STEPS; ++r) {
    b.Carry(false);
    b.Cycle(Rise(r));
    EXPECT_EQ(b.word(), ~0u << r) << "rise at " << r;
  }
}

TEST(FineEdge, AFallAtEveryTickLowersTheGateFromThatTickOn) {
  FineEdgeBench b;
  for (uint32_t f = 0; f < FINE_STEPS; ++f) {
    b.Carry(true);
    b.Cycle(Fall(f));
    EXPECT_EQ(b.word(), f == 0 ? 0u : ~0u >> (FINE_STEPS - f)) << "fall at " << f;
  }
}

// Every pair of ticks in both orders, the same tick, and one event alone, on
// both carried levels: 2 x 33 x 33 cycles against the reference.
TEST(FineEdge, EveryRiseAndFallPairInOneCycleMatchesTheDocumentedRules) {
  FineEdgeBench b;
  for (bool carried : {false, true}) {
    for (uint32_t f = 0; f <= FINE_STEPS; ++f) {
      for (uint32_t r = 0; r <= FINE_STEPS; ++r) {
        Events e;
        if (f < FINE_STEPS) e.fall = f;
        if (r < FINE_STEPS) e.rise = r;
        b.Carry(carried);
        b.Cycle(e);
        ASSERT_EQ(b.word(), ReferenceWord(carried, e)) << Describe(carried, e);
      }
    }
  }
}

TEST(FineEdge, OnTheSameTickTheFallAppliesFirstSoTheGateStaysUp) {
  FineEdgeBench b;
  for (uint32_t t = 0; t < FINE_STEPS; ++t) {
    b.Carry(true);
    b.Cycle(FallAndRise(t, t));
    EXPECT_EQ(b.word(), ~0u) << "fall and rise at " << t;
  }
}

TEST(FineEdge, IdleCyclesHoldTheCarriedLevelOnEveryTick) {
  FineEdgeBench b;
  for (bool level : {true, false}) {
    b.Carry(level);
    for (int i = 0; i < 8; ++i) {
      b.Cycle({});
      EXPECT_EQ(b.word(), level ? ~0u : 0u) << "idle cycle " << i;
    }
  }
}

// Back-to-back cycles with random events: each word follows from the previous
// one's last tick, appears exactly one cycle after its events, and the select
// is strobed for the cycle after its event and held otherwise.
TEST(FineEdge, BackToBackCyclesFollowTheReferenceOneCycleLate) {
  FineEdgeBench b;
  std::mt19937 rng(27);
  bool carried = false;
  uint32_t sel = 0;
  uint32_t sel_fine = 0;
  uint32_t expected_word = 0;
  for (int i = 0; i < 20'000; ++i) {
    Events e{AnyTick(rng, 3), AnyTick(rng, 3), AnyTick(rng, 4)};
    e.sel_value = rng() % (1u << WAVELENGTH_BITS);
    b.Cycle(e);
    ASSERT_EQ(b.word_before_edge(), expected_word) << "cycle " << i << ": the word changed before its edge";
    expected_word = ReferenceWord(carried, e);
    ASSERT_EQ(b.word(), expected_word) << "cycle " << i << ": " << Describe(carried, e);
    carried = (expected_word >> (FINE_STEPS - 1)) & 1u;
    if (e.sel_fine) {
      sel = e.sel_value;
      sel_fine = *e.sel_fine;
    }
    ASSERT_EQ(b.m().sel_stb_o, e.sel_fine.has_value()) << "cycle " << i;
    ASSERT_EQ(b.m().sel_o, sel) << "cycle " << i;
    ASSERT_EQ(b.m().sel_fine_o, sel_fine) << "cycle " << i;
  }
}

}  // namespace
