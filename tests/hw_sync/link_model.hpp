// The timing link at bit level, for the benches of the sync message engine
// (sync_link_test.cpp: the engine alone; link_pair_test.cpp: two board tops).
//
// A word in the transmitter's register during cycle k leaves bit 0 first
// from the next rising edge, one bit per unit interval (T / 32), and arrives
// a fibre delay later. The receiver's CDR locked on bit `offset` of the
// words: its raw word m holds the sender's bits 32 m + offset .. + 31, and is
// presented at the recovered edge one period after its first bit arrived.
#pragma once

#include <cstdint>
#include <deque>

#include "lightrail/hwdef.hpp"

namespace hw_sync_test {

constexpr int64_t kT = int64_t{lightrail::hwdef::CLK_PERIOD_PS} * 1000;  // board clock period, fs
constexpr int64_t kUi = kT / lightrail::hwdef::SYNC_LINK_WORD_BITS;      // unit interval, fs
constexpr int64_t kTickFs = int64_t{lightrail::hwdef::TICK_PS} * 1000;
// Fixed delay of a stamp pair each way on this link: the word's cycle before
// it leaves, the period from its first bit's arrival to its presentation,
// and the engine's 3-cycle receive pipeline (hw/sync_link_rx.sv).
constexpr int64_t kFixedFs = 5 * kT;
// A recovered edge this close to a board clock edge: the engine's sampler
// sees the two in an order the benches draw at random (metastability).
constexpr int64_t kMetaWindowFs = 200'000;

// What one transmitter sent, cycle by cycle (long enough for any fibre here).
class WordLog {
 public:
  void push(uint32_t word) {
    words_.push_back(word);
    if (words_.size() > kKeep) {
      words_.pop_front();
      ++first_;
    }
  }
  // The word of cycle k; 0 (no light) before the transmitter started.
  uint32_t at(int64_t k) const {
    if (k < first_ || k >= first_ + int64_t(words_.size())) return 0;
    return words_[size_t(k - first_)];
  }
  // The cycle of the next word to be logged.
  int64_t end() const { return first_ + int64_t(words_.size()); }
  // The receiver's raw word m, its CDR locked on bit `offset` (0..31).
  uint32_t received(int64_t m, int offset) const {
    const uint64_t pair = uint64_t(at(m)) | uint64_t(at(m + 1)) << 32;
    return uint32_t(pair >> offset);
  }

 private:
  static constexpr size_t kKeep = size_t{1} << 16;  // cycles: 262 us, beyond 50 km of fibre
  std::deque<uint32_t> words_;
  int64_t first_ = 0;
};

// The recovered edge that presents raw word m, the sender's first rising
// edge at sender_edge0_fs (word k leaves from its edge k + 1).
constexpr int64_t recovered_edge_fs(int64_t sender_edge0_fs, int64_t m, int offset, int64_t fibre_fs) {
  return sender_edge0_fs + (m + 1) * kT + offset * kUi + fibre_fs + kT;
}

// One exchange as a follower publishes it, and when (true time, fs).
struct Exchange {
  uint64_t t1, t2, t3, t4;
  int slide;
  int64_t at_fs = 0;
  bool fine = false;  // the engine says both receive stamps were refined (exchange_fine)
};

// The follower's offset from its reference and the fibre's round trip, as
// the servo computes them (docs/clock-sync.md, "Units and signs") with the
// fixed delays calibrated exactly, the reported slide added to the forward
// delay and the fibre's asymmetry (forward minus backward) asym_fs.
inline double fibre_rtt_fs(const Exchange& x) {
  return double(int64_t(x.t2 - x.t1)) + double(int64_t(x.t4 - x.t3)) - double(2 * kFixedFs + x.slide * kUi);
}
inline double servo_offset_fs(const Exchange& x, int64_t asym_fs) {
  const double forward = double(kFixedFs + x.slide * kUi) + (fibre_rtt_fs(x) + double(asym_fs)) / 2;
  return double(int64_t(x.t2 - x.t1)) - forward;
}

}  // namespace hw_sync_test
