// The parts on the board that the top's oscillator-control pins drive
// (hw/osc_ctrl.sv): the VCXO's AD5662 DAC and the MMCM's dynamic phase shift.
//
// DAC: while SYNC is low, DIN is shifted in on every SCLK falling edge; the
// 24th falling edge updates the DAC register with the low 16 bits (the two
// power-down bits must be 00, normal operation); SYNC rising early aborts
// the frame (AD5662 "SYNC interrupt").
// MMCM: PSEN high in a cycle is taken at the next PSCLK (= clk_i) edge; the
// output moves one fine step (PSINCDEC = 1 delays it) and PSDONE is high for
// the one cycle 12 PSCLK cycles later (UG572).
#pragma once

#include <cstdint>

namespace lightrail::sim {

class OscPins {
 public:
  // The pins as the top drives them after a clk_i edge.
  void cycle(bool sclk, bool sync_n, bool din, bool psen, bool psincdec) {
    if (ps_busy_ && ps_wait_-- == 0) {  // PSDONE was sampled at this edge
      ps_busy_ = false;
      steps_ += ps_delay_ ? 1 : -1;
    }
    if (psen && !ps_busy_) {
      ps_busy_ = true;
      ps_delay_ = psincdec;
      ps_wait_ = kPsDoneCycles;
    } else if (psen) {
      ++psen_while_busy_;  // UG572: no PSEN before PSDONE
    }
    if (sync_n) {
      bits_ = 0;
    } else if (last_sclk_ && !sclk) {
      shift_ = (shift_ << 1) | (din ? 1u : 0u);
      if (++bits_ == kFrameBits) {
        if ((shift_ >> 16 & 3u) == 0) {
          dac_word_ = shift_ & 0xFFFFu;
          dac_ready_ = true;
        } else {
          ++bad_frames_;
        }
        bits_ = 0;
      }
    }
    last_sclk_ = sclk;
  }
  // PSDONE for the next clk_i edge.
  bool psdone() const { return ps_busy_ && ps_wait_ == 0; }

  // A DAC word that took effect since the last call.
  bool take_dac(uint32_t* word) {
    if (!dac_ready_) return false;
    dac_ready_ = false;
    *word = dac_word_;
    return true;
  }
  // Fine steps completed since the last call, + for each one that delayed.
  int take_steps() {
    const int s = steps_;
    steps_ = 0;
    return s;
  }
  uint64_t protocol_errors() const { return psen_while_busy_ + bad_frames_; }

 private:
  static constexpr int kFrameBits = 24;
  static constexpr int kPsDoneCycles = 12;
  bool last_sclk_ = true;
  int bits_ = 0;
  uint32_t shift_ = 0, dac_word_ = 0;
  bool dac_ready_ = false;
  bool ps_busy_ = false, ps_delay_ = false;
  int ps_wait_ = 0, steps_ = 0;
  uint64_t psen_while_busy_ = 0, bad_frames_ = 0;
};

}  // namespace lightrail::sim
