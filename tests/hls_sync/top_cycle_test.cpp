// The servo's free-running HLS top, driven one call per clock cycle as the
// board top drives it, against clock_sync_step() called directly: every
// update's outputs must be the model's, appear SYNC_KERNEL_LATENCY cycles
// after the cycle that latched it, hold until the next, with each load
// strobe for exactly that one cycle and sync_busy high in between. The board
// is a small plant (oscillator offset, fibre, DAC pull, MMCM steps, coarse
// time steps) closed over the top's own actuator outputs, so the run goes
// through the coarse time set, TRACK, FINE and LOCKED, a reference loss
// (the kernel runs without DDMTD phases, holdover), its return, and host
// clears in idle and in busy cycles.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "top_driver.hpp"

namespace lightrail::sync::test {
namespace {

using top::kBeatCycles;
using top::kSilentUpdateCycles;
using top::kUpdateLatency;

constexpr int64_t kN = hwdef::DDMTD_N;
constexpr int64_t kTickFs = int64_t{hwdef::TICK_PS} * 1000;
constexpr int64_t kFibreFs = 1000000000;  // 1 us each way
constexpr int64_t kGapFs = 2000000000;    // between the board's RX and TX of an exchange

// The reference the test keeps: the model on its own state, fed what the
// kernel's contract says it latches.
struct Reference {
  ClockSyncState state{};
  uint32_t dac_loaded = ~0u;
  uint32_t clear_pending = 0;
  uint64_t last_update = 0;  // call index of the last latching cycle
  uint32_t exchanges_taken = 0;
};

class Bench {
 public:
  Bench() {
    lightrail_clock_sync_csim_reset();
    in_.link_up = true;
  }

  // The board: offset of board time over reference time, fs, and frequency.
  double theta_fs = 7.3e9;  // 7.3 us ahead: a coarse time set first
  double base_ppb = 2000;   // 2 ppm fast with the DAC at mid-scale
  uint32_t dac = 1u << (hwdef::SYNC_DAC_BITS - 1);
  int exchange_every = 2;  // beats per two-way exchange
  bool link_up = true;
  uint32_t clear_next_idle = 0;  // a host clear to present in the next idle cycle
  uint32_t clear_next_busy = 0;  // ... in the next busy cycle (the top holds it in RTL)

  int mismatches = 0;
  int updates = 0;
  bool locked_seen = false;
  bool stepped = false;
  bool holdover_seen = false;
  uint64_t calls = 0;
  TopOut last{};

  void run_cycles(uint64_t n) {
    for (uint64_t k = 0; k < n; ++k) cycle();
  }

  // The SYNC_* registers the top and the model both read.
  TopIn& registers() { return in_; }

  // ap_rst_n: the kernel and the board top's counters restart.
  void reset() {
    lightrail_clock_sync_csim_reset();
    ref_ = Reference{};
    cycles_since_reset_ = 0;
    in_.exchanges = 0;
    in_.t1_fs = in_.t2_fs = in_.t3_fs = in_.t4_fs = 0;
    busy_left_ = 0;
    shown_ = ClockSyncOut{};
    beat_phase_ = 0;
  }

 private:
  void cycle() {
    const bool blind = busy_left_ > 0;  // the kernel reads nothing in this call
    in_.cycles = uint32_t(cycles_since_reset_);
    in_.link_up = link_up;
    // One DDMTD phase per beat while the link is up.
    in_.phase_valid = link_up && beat_phase_ == 0;
    if (in_.phase_valid) {
      const double lead =
          std::fmod(std::fmod(theta_fs + kFibreFs, double(kPeriodFs)) + kPeriodFs, double(kPeriodFs));
      const int64_t tags = std::llround(lead * kN / double(kPeriodFs)) % kN;
      in_.ddmtd_phase = uint32_t((kN - tags) % kN);
    }
    // The message engine completes an exchange mid-beat every few beats.
    if (link_up && beat_phase_ == kBeatCycles / 2 && (beat_count_ % exchange_every) == 0) deliver_exchange();
    in_.clear_errors = 0;
    if (!blind && clear_next_idle) {
      in_.clear_errors = clear_next_idle;
      clear_next_idle = 0;
    } else if (blind && clear_next_busy) {
      in_.clear_errors = clear_next_busy;  // lost to the kernel by contract
      clear_next_busy = 0;
    }

    // The reference: what the kernel latches in a cycle it reads.
    bool trigger = false;
    if (!blind) {
      ref_.clear_pending |= in_.clear_errors;
      const uint64_t since = calls_since_reset() - ref_.last_update;
      trigger = in_.phase_valid || since >= kSilentUpdateCycles;
      if (trigger) {
        ClockSyncIn m;
        m.cfg = config_of(in_);
        m.clear_errors = ref_.clear_pending;
        m.elapsed_fs = int64_t(since) * kPeriodFs;
        m.ref_ok = in_.link_up;
        m.exchange_valid = in_.link_up && in_.exchanges != ref_.exchanges_taken;
        m.t1_fs = in_.t1_fs;
        m.t2_fs = in_.t2_fs;
        m.t3_fs = in_.t3_fs;
        m.t4_fs = in_.t4_fs;
        m.phase_valid = in_.link_up && in_.phase_valid;
        m.ddmtd_phase = in_.ddmtd_phase;
        m.rx_bitslide_ui = in_.rx_bitslide;
        clock_sync_step(ref_.state, m, pending_);
        ref_.clear_pending = 0;
        ref_.last_update = calls_since_reset();
        ref_.exchanges_taken = in_.exchanges;
        busy_left_ = kUpdateLatency;
      }
    }

    const TopOut o = call_top(in_);
    ++calls;
    ++cycles_since_reset_;

    // What the outputs must show after this call.
    const bool last_busy_call = blind && busy_left_ == 1;
    if (blind) --busy_left_;
    if (last_busy_call) shown_ = pending_;
    const bool busy_expected = trigger || blind;
    bool ok = o.busy == busy_expected && same_values(o, shown_);
    if (last_busy_call) {
      ok = ok && o.dac_load == (shown_.dac_word != ref_.dac_loaded) &&
           o.phase_load == (shown_.phase_steps != 0) && o.time_step_load == (shown_.time_step_ticks != 0);
      ref_.dac_loaded = shown_.dac_word;
      ++updates;
    } else {
      ok = ok && !o.dac_load && !o.phase_load && !o.time_step_load;
    }
    if (!ok && mismatches++ < 5)
      ADD_FAILURE() << "call " << calls << " (" << (blind ? "busy" : "idle") << ", update " << updates
                    << "): outputs differ from the model's; busy " << o.busy << " want " << busy_expected
                    << ", status " << o.status << " want " << shown_.status << ", dac " << o.dac_word
                    << " want " << shown_.dac_word << ", steps " << int32_t(o.phase_steps_req) << " want "
                    << shown_.phase_steps << ", loads " << o.dac_load << o.phase_load << o.time_step_load;
    last = o;

    // The board acts on the loads, as osc_ctrl and time_counter do.
    if (o.dac_load) dac = o.dac_word;
    if (o.phase_load) theta_fs += double(int32_t(o.phase_steps_req)) * in_.phase_step_fs;
    if (o.time_step_load) {
      theta_fs += double(int64_t(o.time_step)) * kTickFs;
      stepped = true;
    }
    const double ppb =
        base_ppb + (double(dac) - double(1u << (hwdef::SYNC_DAC_BITS - 1))) * in_.dac_pull_ppb / 32768.0;
    theta_fs += ppb * 1e-9 * kPeriodFs;
    ref_time_fs_ += kPeriodFs;
    const uint32_t state = (o.status & hwdef::SYNC_STATUS_STATE_MASK) >> hwdef::SYNC_STATUS_STATE_LSB;
    locked_seen = locked_seen || (o.status & hwdef::SYNC_STATUS_LOCKED_MASK);
    holdover_seen = holdover_seen || state == uint32_t(SyncMode::kHoldover);
    if (++beat_phase_ == kBeatCycles) {
      beat_phase_ = 0;
      ++beat_count_;
    }
  }

  // t1..t4 of an exchange that just finished: Sync from the reference at t1,
  // received at t2; the board's reply leaves at t3, reaches it at t4. DDMTD-
  // refined stamps resolve T/N.
  void deliver_exchange() {
    const int64_t theta = std::llround(theta_fs);
    const int64_t t4 = ref_time_fs_;
    const int64_t t3 = t4 - kFibreFs + theta;
    const int64_t t2 = t3 - kGapFs;
    const int64_t t1 = t2 - theta - kFibreFs;
    const int64_t q = kPeriodFs / kN;
    in_.t1_fs = t1 - t1 % q;
    in_.t2_fs = t2 - t2 % q;
    in_.t3_fs = t3 - t3 % q;
    in_.t4_fs = t4 - t4 % q;
    ++in_.exchanges;
  }

  uint64_t calls_since_reset() const { return cycles_since_reset_; }

  TopIn in_;
  Reference ref_;
  ClockSyncOut pending_{};  // the update in flight
  ClockSyncOut shown_{};    // what the outputs hold
  uint32_t busy_left_ = 0;
  uint64_t cycles_since_reset_ = 0;
  uint32_t beat_phase_ = 1;  // the first phase a beat after reset
  uint64_t beat_count_ = 0;
  int64_t ref_time_fs_ = 1000000000000;  // 1 ms: exchange stamps stay positive
};

TEST(ClockSyncTop, CycleByCycleEqualsTheModelThroughLockLossAndReturn) {
  Bench b;
  b.run_cycles(uint64_t{300} * kBeatCycles);
  EXPECT_TRUE(b.stepped) << "no coarse time set";
  EXPECT_TRUE(b.locked_seen) << "never locked; status " << b.last.status;
  EXPECT_LT(std::abs(b.theta_fs), 200e3) << "board not within 200 ps of the reference";

  // A host clear in an idle cycle reaches the next update.
  ASSERT_TRUE(b.last.error & hwdef::SYNC_ERROR_TIME_STEPPED_MASK);
  b.clear_next_idle = ~0u;
  b.run_cycles(3 * kBeatCycles);
  EXPECT_FALSE(b.last.error & hwdef::SYNC_ERROR_TIME_STEPPED_MASK);

  // Reference lost for 20 beats: no DDMTD phase, no exchange; the kernel
  // still updates every kSilentUpdateCycles (holdover counts).
  const int before = b.updates;
  b.link_up = false;
  b.run_cycles(uint64_t{20} * kBeatCycles);
  EXPECT_TRUE(b.holdover_seen);
  EXPECT_GE(b.updates - before, int(20 * kBeatCycles / kSilentUpdateCycles) - 1);
  EXPECT_TRUE(b.last.error & hwdef::SYNC_ERROR_REF_LOST_MASK);
  EXPECT_GT(b.last.holdover_us, 0u);

  // A clear in a busy cycle is not read (the board top holds it until the
  // kernel is free: docs/hw-clock-sync.md); one in an idle cycle is.
  b.clear_next_busy = hwdef::SYNC_ERROR_REF_LOST_MASK;
  b.run_cycles(3 * kBeatCycles);
  EXPECT_TRUE(b.last.error & hwdef::SYNC_ERROR_REF_LOST_MASK);
  b.clear_next_idle = hwdef::SYNC_ERROR_REF_LOST_MASK;
  b.run_cycles(3 * kBeatCycles);
  EXPECT_FALSE(b.last.error & hwdef::SYNC_ERROR_REF_LOST_MASK);

  b.link_up = true;
  b.run_cycles(uint64_t{200} * kBeatCycles);
  EXPECT_EQ(b.mismatches, 0);
  EXPECT_GT(b.updates, 500);
  EXPECT_TRUE(b.last.status & hwdef::SYNC_STATUS_LOCKED_MASK) << "not locked again; status " << b.last.status;
}

// ap_rst_n in the middle of a run (even inside an update): the kernel then
// behaves as a fresh one, counted from the reset.
TEST(ClockSyncTop, ResetMidUpdateRestartsAsAFreshServo) {
  Bench b;
  b.run_cycles(uint64_t{40} * kBeatCycles + 10);  // 9 cycles into an update's busy window
  b.reset();
  b.theta_fs = 5e9;
  b.run_cycles(uint64_t{150} * kBeatCycles);
  EXPECT_EQ(b.mismatches, 0);
  EXPECT_TRUE(b.stepped);
  EXPECT_TRUE(b.locked_seen);
}

// The servo registers reach the kernel through the top: with each one off
// its reset value (within its limits) the top still equals the model, which
// takes them straight from the registers. Mutation testing: the top dropping
// DAC_PULL survived the cases above, which run at the reset values. A top
// dropping SLEW_MAX, KI or a calibration register fails here too; one
// dropping LOCK_THRESH does not (the lock comes at the same samples).
TEST(ClockSyncTop, ServoRegistersOffTheirResetValuesReachTheKernel) {
  Bench b;
  TopIn& r = b.registers();
  r.kp = hwdef::SYNC_DEFAULT_KP_Q16 + 4096;
  r.ki = hwdef::SYNC_DEFAULT_KI_Q16 + 512;
  r.lock_thresh_ps = hwdef::SYNC_DEFAULT_LOCK_THRESH_PS * 100;  // locks early
  r.lock_samples = hwdef::SYNC_DEFAULT_LOCK_SAMPLES / 2;
  r.slew_max_ns_per_s = hwdef::SYNC_DEFAULT_SLEW_MAX_NS_PER_S / 1000;  // binds: 3 ps a beat
  r.dac_pull_ppb = hwdef::SYNC_DEFAULT_DAC_PULL_PPB * 4 / 5;
  r.phase_step_fs = hwdef::SYNC_DEFAULT_PHASE_STEP_FS - 1000;
  r.cal_delay_ms_ps = 30;
  r.cal_delay_sm_ps = 20;
  r.cal_asym_ps = 10;
  b.run_cycles(uint64_t{150} * kBeatCycles);
  EXPECT_EQ(b.mismatches, 0);
  EXPECT_GT(b.updates, 100);
  EXPECT_TRUE(b.locked_seen) << "never locked; status " << b.last.status;
}

}  // namespace
}  // namespace lightrail::sync::test
