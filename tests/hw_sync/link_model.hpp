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

namespace hw_sync_test {

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
constexpr int64_t recovered_edge_fs(int64_t sender_edge0_fs, int64_t period_fs, int64_t m, int offset,
                                    int64_t fibre_fs) {
  return sender_edge0_fs + (m + 1) * period_fs + offset * (period_fs / 32) + fibre_fs + period_fs;
}

}  // namespace hw_sync_test
