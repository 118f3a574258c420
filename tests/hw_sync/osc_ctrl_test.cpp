// Oscillator control (hw/osc_ctrl.sv): the VCXO DAC serial writer against a
// model of the AD5662's input shift register, and the MMCM dynamic phase
// shift handshake against a model of the MMCM's PS interface.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "Vhw_sync_osc_ctrl.h"
#include "lightrail/hwdef.hpp"
#include "rtl_coverage.hpp"
#include "verilated.h"

namespace {

constexpr int kDiv = 12;  // the model's DIV (default)
constexpr int kHalf = kDiv / 2;
constexpr int kFrameBits = 24;
constexpr int kPsdoneLatency = 12;  // PSCLK cycles from PSEN to PSDONE (UG572)
constexpr int kPsTimeout = 64;      // the model's PS_TIMEOUT (default)
static_assert(lightrail::hwdef::SYNC_DAC_BITS == 16, "the AD5662 frame holds a 16-bit word");

// The DAC side of the wire: shifts DIN on SCLK falling edges while SYNC is
// low, updates on the 24th, and measures every setup/hold in clk_i cycles.
struct DacModel {
  std::vector<uint32_t> frames;  // 24-bit frames that updated the DAC
  int bad_frames = 0;            // SYNC rose after a number of falls other than 24
  int min_sync_to_first_fall = 1 << 30;
  int min_last_fall_to_sync_rise = 1 << 30;
  int min_sync_high = 1 << 30;  // between frames
  int min_din_setup = 1 << 30;  // DIN unchanged before a falling edge
  int min_din_hold = 1 << 30;   // DIN unchanged after a falling edge
  int min_sclk_low = 1 << 30;
  int min_sclk_high = 1 << 30;

  void Sample(int64_t cycle, bool sclk, bool sync_n, bool din) {
    if (started_) {
      if (din != din_) {
        din_change_ = cycle;
        if (last_fall_ >= 0 && pending_hold_) {
          min_din_hold = std::min<int>(min_din_hold, static_cast<int>(cycle - last_fall_));
          pending_hold_ = false;
        }
      }
      if (sync_n != sync_n_) {
        if (!sync_n) {  // frame starts
          if (sync_rise_ >= 0) min_sync_high = std::min<int>(min_sync_high, cycle - sync_rise_);
          sync_fall_ = cycle;
          shift_ = 0;
          falls_ = 0;
        } else {
          sync_rise_ = cycle;
          if (falls_ == kFrameBits) {
            frames.push_back(shift_);
            min_last_fall_to_sync_rise =
                std::min<int>(min_last_fall_to_sync_rise, static_cast<int>(cycle - last_fall_));
          } else {
            ++bad_frames;
          }
          pending_hold_ = false;  // DIN after SYNC rises is not sampled
        }
      }
      if (sclk != sclk_) {
        const int held = static_cast<int>(cycle - sclk_edge_);
        if (sclk_ && !sclk) {  // falling edge: the DAC samples DIN
          if (sclk_edge_ >= 0) min_sclk_high = std::min(min_sclk_high, held);
          if (!sync_n) {
            if (falls_ == 0) {
              min_sync_to_first_fall =
                  std::min<int>(min_sync_to_first_fall, static_cast<int>(cycle - sync_fall_));
            }
            min_din_setup = std::min<int>(min_din_setup, static_cast<int>(cycle - din_change_));
            shift_ = ((shift_ << 1) | (din ? 1u : 0u)) & 0xFFFFFFu;
            ++falls_;
            last_fall_ = cycle;
            pending_hold_ = true;
          }
        } else {
          min_sclk_low = std::min(min_sclk_low, held);
        }
        sclk_edge_ = cycle;
      }
    }
    started_ = true;
    sclk_ = sclk;
    sync_n_ = sync_n;
    din_ = din;
  }

 private:
  bool started_ = false;
  bool sclk_ = true, sync_n_ = true, din_ = false;
  int64_t sync_fall_ = -1, sync_rise_ = -1, last_fall_ = -1, din_change_ = 0, sclk_edge_ = -1;
  bool pending_hold_ = false;
  uint32_t shift_ = 0;
  int falls_ = 0;
};

// The MMCM's PS interface: samples PSEN/PSINCDEC on PSCLK rising edges,
// answers PSDONE for one cycle kPsdoneLatency cycles later, then applies
// the step. A PSEN while a shift is in progress is a protocol violation.
struct MmcmModel {
  bool answering = true;    // false: an MMCM in reset, PSDONE never comes
  int violations = 0;       // PSEN while a shift was in progress
  int64_t phase_steps = 0;  // + = output clock delayed (increments)
  int psen_count = 0;
  std::vector<int> incdec;  // PSINCDEC of every accepted PSEN
  std::vector<int64_t> psen_cycles;
  std::vector<int64_t> psdone_cycles;
  bool psdone = false;  // drives psdone_i during the current cycle

  // Called at each rising edge with the design's outputs of the cycle ending.
  void Edge(int64_t cycle, bool psen, bool psincdec) {
    psdone = false;
    if (countdown_ > 0 && --countdown_ == 0) {
      psdone = true;
      phase_steps += inc_ ? 1 : -1;
      psdone_cycles.push_back(cycle + 1);
    }
    if (psen) {
      ++psen_count;
      psen_cycles.push_back(cycle);
      if (countdown_ > 0 || psdone) {
        ++violations;
      } else if (answering) {
        countdown_ = kPsdoneLatency;
        inc_ = psincdec;
        incdec.push_back(psincdec ? 1 : 0);
      }
    }
  }

 private:
  int countdown_ = 0;
  bool inc_ = false;
};

class OscBench {
 public:
  OscBench() {
    m_.rst_ni = 0;
    Cycle();
    Cycle();
    m_.rst_ni = 1;
  }
  ~OscBench() {
    m_.final();
    lightrail::rtl_coverage::write(context_, "hw_sync_osc_ctrl");
  }

  void Reset() {
    m_.rst_ni = 0;
    Cycle();
    Cycle();
    m_.rst_ni = 1;
  }

  void LoadDac(uint32_t word) {
    m_.dac_word_i = word;
    m_.dac_load_i = 1;
    Cycle();
    m_.dac_load_i = 0;
  }
  void RequestSteps(int32_t steps) {
    m_.phase_steps_i = static_cast<uint32_t>(steps);
    m_.phase_load_i = 1;
    Cycle();
    requested_ += steps;  // registered at this edge
    m_.phase_load_i = 0;
  }
  void Run(int n) {
    for (int i = 0; i < n; ++i) Cycle();
  }
  // Runs until the DAC writer and phase stepper are idle (or a limit).
  void RunUntilIdle(int limit = 100'000) {
    for (int i = 0; i < limit && (m_.dac_busy_o || pending() != 0); ++i) Cycle();
    Run(2);
  }

  int32_t pending() const { return static_cast<int32_t>(m_.steps_pending_o); }
  int32_t done_total() const { return static_cast<int32_t>(m_.steps_done_total_o); }
  int64_t requested() const { return requested_; }
  int invariant_breaks() const { return invariant_breaks_; }
  int done_pulses() const { return done_pulses_; }

  Vhw_sync_osc_ctrl& m() { return m_; }
  DacModel dac;
  MmcmModel mmcm;

 private:
  void Cycle() {
    m_.psdone_i = mmcm.psdone;
    m_.clk_i = 0;
    m_.eval();
    // Outputs of this cycle, as the DAC pins and the MMCM see them.
    if (m_.rst_ni) {
      dac.Sample(cycle_, m_.dac_sclk_o, m_.dac_sync_no, m_.dac_din_o);
      if (m_.dac_done_o) ++done_pulses_;
      // Every step requested is either completed or still pending.
      if (static_cast<int64_t>(pending()) + done_total() != requested_) ++invariant_breaks_;
    }
    const bool psen = m_.psen_o, psincdec = m_.psincdec_o;
    m_.clk_i = 1;
    m_.eval();
    if (m_.rst_ni) mmcm.Edge(cycle_, psen, psincdec);
    ++cycle_;
  }

  VerilatedContext context_;
  Vhw_sync_osc_ctrl m_{&context_};
  int64_t cycle_ = 0;
  int64_t requested_ = 0;
  int invariant_breaks_ = 0;
  int done_pulses_ = 0;
};

// The AD5662 frame: 6 don't-care bits (0), PD1 PD0 = 00 (normal), D15..D0.
uint32_t Frame(uint32_t word) { return word & 0xFFFFu; }

void ExpectDacTiming(const DacModel& d) {
  EXPECT_EQ(d.bad_frames, 0) << "SYNC rose after a number of SCLK falls other than 24";
  // Half an SCLK period for every setup and hold (exact: also proves each was measured).
  EXPECT_EQ(d.min_sync_to_first_fall, kHalf);
  EXPECT_EQ(d.min_last_fall_to_sync_rise, kHalf);
  EXPECT_EQ(d.min_din_setup, kHalf);
  EXPECT_EQ(d.min_din_hold, kHalf);
  EXPECT_EQ(d.min_sclk_low, kHalf);  // SCLK = clk / DIV, 50 % duty
  EXPECT_EQ(d.min_sclk_high, kHalf);
}

TEST(OscCtrlDac, FramesCarryTheWordMsbFirstWithAd5662FramingAndTiming) {
  OscBench b;
  // 0x8001 tells MSB-first from LSB-first; 0xA5C3 is asymmetric in every nibble.
  const std::vector<uint32_t> words = {0x8001, 0xA5C3, 0xFFFF, 0x0000};
  for (uint32_t w : words) {
    b.LoadDac(w);
    EXPECT_TRUE(b.m().dac_busy_o || b.dac.frames.size() > 0);
    b.RunUntilIdle();
    EXPECT_EQ(b.m().dac_sync_no, 1);
    EXPECT_EQ(b.m().dac_sclk_o, 1) << "SCLK idles high";
  }
  ASSERT_EQ(b.dac.frames.size(), words.size());
  for (size_t i = 0; i < words.size(); ++i) {
    EXPECT_EQ(b.dac.frames[i], Frame(words[i])) << "frame " << i;
  }
  EXPECT_EQ(b.done_pulses(), static_cast<int>(words.size()));
  ExpectDacTiming(b.dac);
}

// Reset returns the DAC pins to idle (SYNC and SCLK high) and drops a word
// that was waiting: nothing is sent until the next load.
TEST(OscCtrlDac, ResetIdlesThePinsAndDropsAWaitingWord) {
  OscBench b;
  b.Run(4);
  EXPECT_EQ(b.m().dac_sync_no, 1) << "SYNC idles high after reset";
  EXPECT_EQ(b.m().dac_sclk_o, 1);
  b.LoadDac(0x1234);
  b.Run(8);           // its frame is on the pins
  b.LoadDac(0x4321);  // waits for that frame to end
  ASSERT_TRUE(b.m().dac_busy_o);
  b.Reset();
  EXPECT_EQ(b.m().dac_sync_no, 1);
  EXPECT_EQ(b.m().dac_busy_o, 0) << "no word waits after reset";
  const size_t frames = b.dac.frames.size();
  b.Run(2000);
  EXPECT_EQ(b.dac.frames.size(), frames) << "the dropped word was sent after reset";
  EXPECT_EQ(b.m().dac_sync_no, 1);
}

TEST(OscCtrlDac, AFrameTakes24SclkPeriodsPlusTheSyncHighGap) {
  OscBench b;
  b.LoadDac(0x1234);
  int busy = 0;
  while (b.m().dac_busy_o && busy < 10'000) {
    b.Run(1);
    ++busy;
  }
  // Busy from the load (one cycle waiting) to the end of the one-period
  // SYNC-high gap after the frame.
  EXPECT_EQ(busy, 1 + (kFrameBits + 1) * kDiv);
  ASSERT_EQ(b.dac.frames.size(), 1u);
  EXPECT_EQ(b.dac.frames[0], 0x1234u);
}

TEST(OscCtrlDac, WordsArrivingWhileBusyAreKeptAndTheLatestIsSentNext) {
  OscBench b;
  b.LoadDac(0x1111);
  b.Run(5 * kDiv);
  ASSERT_TRUE(b.m().dac_busy_o);
  b.LoadDac(0x2222);  // superseded
  b.Run(kDiv);
  b.LoadDac(0x3333);  // latest: sent next
  b.RunUntilIdle();
  // Back to back: a word loaded during the SYNC-high gap waits for it.
  b.LoadDac(0x4444);
  b.Run(kFrameBits * kDiv + kHalf + 2);  // into the gap of 0x4444's frame
  ASSERT_TRUE(b.m().dac_busy_o);
  ASSERT_EQ(b.m().dac_sync_no, 1);
  b.LoadDac(0x5555);
  b.RunUntilIdle();
  ASSERT_EQ(b.dac.frames.size(), 4u);
  EXPECT_EQ(b.dac.frames[0], 0x1111u);
  EXPECT_EQ(b.dac.frames[1], 0x3333u);
  EXPECT_EQ(b.dac.frames[2], 0x4444u);
  EXPECT_EQ(b.dac.frames[3], 0x5555u);
  ExpectDacTiming(b.dac);  // including SYNC high >= one period between frames
  EXPECT_GE(b.dac.min_sync_high, kDiv);
}

TEST(OscCtrlPhase, PositiveStepsAdvanceWithOnePsenPerStepAndPsincdecLow) {
  OscBench b;
  b.RequestSteps(7);
  b.RunUntilIdle();
  EXPECT_EQ(b.mmcm.psen_count, 7);
  EXPECT_EQ(b.mmcm.violations, 0) << "PSEN before the previous PSDONE";
  ASSERT_EQ(b.mmcm.incdec.size(), 7u);
  for (int v : b.mmcm.incdec) EXPECT_EQ(v, 0) << "advance = decrement";
  // Each PSEN after the previous PSDONE, and the first right after the request.
  ASSERT_EQ(b.mmcm.psdone_cycles.size(), 7u);
  for (size_t i = 1; i < b.mmcm.psen_cycles.size(); ++i) {
    EXPECT_GT(b.mmcm.psen_cycles[i], b.mmcm.psdone_cycles[i - 1]) << "PSEN " << i;
    EXPECT_EQ(b.mmcm.psen_cycles[i], b.mmcm.psdone_cycles[i - 1] + 1) << "no idle gap " << i;
  }
  EXPECT_EQ(b.mmcm.phase_steps, -7) << "output clock 7 steps earlier";
  EXPECT_EQ(b.done_total(), 7);
  EXPECT_EQ(b.pending(), 0);
  EXPECT_EQ(b.m().psen_o, 0);
  EXPECT_EQ(b.invariant_breaks(), 0);
  EXPECT_EQ(b.m().ps_timeout_o, 0);
}

TEST(OscCtrlPhase, NegativeStepsRetardWithPsincdecHigh) {
  OscBench b;
  b.RequestSteps(-4);
  EXPECT_EQ(b.pending(), -4);
  b.RunUntilIdle();
  EXPECT_EQ(b.mmcm.psen_count, 4);
  EXPECT_EQ(b.mmcm.violations, 0);
  for (int v : b.mmcm.incdec) EXPECT_EQ(v, 1) << "retard = increment";
  EXPECT_EQ(b.mmcm.phase_steps, 4);
  EXPECT_EQ(b.done_total(), -4);
  EXPECT_EQ(b.pending(), 0);
  EXPECT_EQ(b.invariant_breaks(), 0);
}

TEST(OscCtrlPhase, RequestsArrivingMidSequenceAccumulate) {
  OscBench b;
  b.RequestSteps(5);
  b.Run(2 * (kPsdoneLatency + 1) + 6);  // two steps done, the third in flight
  EXPECT_EQ(b.done_total(), 2);
  b.RequestSteps(4);
  b.Run(kPsdoneLatency + 1);
  b.RequestSteps(-3);  // opposite sign: nets out of what is left
  // A request in the cycle PSDONE arrives is not lost either.
  while (!b.mmcm.psdone) b.Run(1);
  b.RequestSteps(2);
  b.RunUntilIdle();
  EXPECT_EQ(b.done_total(), 5 + 4 - 3 + 2);
  EXPECT_EQ(b.mmcm.phase_steps, -(5 + 4 - 3 + 2));
  EXPECT_EQ(b.pending(), 0);
  EXPECT_EQ(b.mmcm.violations, 0);
  EXPECT_EQ(b.invariant_breaks(), 0) << "pending + done != requested in some cycle";
  // Netting happens before issuing: no step is taken only to be undone, so
  // the PSEN count equals the net count here (every request kept its sign).
  EXPECT_EQ(b.mmcm.psen_count, 8);
}

TEST(OscCtrlPhase, AnUnansweredStepTimesOutIsFlaggedAndRetried) {
  OscBench b;
  b.mmcm.answering = false;
  b.RequestSteps(2);
  b.Run(kPsTimeout + 4);
  EXPECT_EQ(b.m().ps_timeout_o, 1);
  EXPECT_EQ(b.done_total(), 0) << "a step without PSDONE is not counted";
  EXPECT_EQ(b.pending(), 2);
  b.mmcm.answering = true;
  b.RunUntilIdle();
  EXPECT_EQ(b.done_total(), 2);
  EXPECT_EQ(b.mmcm.phase_steps, -2);
  EXPECT_EQ(b.m().ps_timeout_o, 1) << "sticky until reset";
}

TEST(OscCtrlPhase, HugeRequestsSaturateInsteadOfWrappingTheSign) {
  OscBench b;
  b.RequestSteps(INT32_MAX);
  b.RequestSteps(INT32_MAX);
  EXPECT_EQ(b.pending(), INT32_MAX);
  b.Run(5);
  EXPECT_EQ(b.mmcm.incdec.at(0), 0) << "still advancing";
}

}  // namespace
