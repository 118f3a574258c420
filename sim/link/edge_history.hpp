// A board's recent clock edges (true time, board time), so the time a board
// showed at any recent true instant can be read back: what its timestamping
// hardware would have latched, and what its recovered clock looked like at
// the far end of a fibre.
#pragma once

#include <array>
#include <cstdint>

#include "lightrail/hwdef.hpp"

namespace lightrail::sim {

class EdgeHistory {
 public:
  // 262 us at 250 MHz (1 MiB per board): an exchange reaches back three
  // one-way delays, so this covers fibres to ~17 km (SYNC_MAX_FIBRE_M is 10 km).
  static constexpr size_t kEdges = 1u << 16;

  void push(int64_t edge_fs, uint64_t ticks) {
    head_ = (head_ + 1) & (kEdges - 1);
    fs_[head_] = edge_fs;
    ticks_[head_] = ticks;
    if (count_ < kEdges) ++count_;
  }
  int64_t last_edge_fs() const { return fs_[head_]; }
  uint64_t last_ticks() const { return ticks_[head_]; }
  // The edge `age` pushes ago (0: the newest); age < kEdges.
  void recent(size_t age, int64_t* edge_fs, uint64_t* ticks) const {
    *edge_fs = fs_[slot(age)];
    *ticks = ticks_[slot(age)];
  }
  int64_t oldest_fs() const { return fs_[(head_ + kEdges + 1 - count_) & (kEdges - 1)]; }

  // The last edge at or before `t_fs`; false when it is older than the window.
  bool edge_before(int64_t t_fs, int64_t* edge_fs, uint64_t* ticks) const {
    if (count_ == 0 || t_fs < oldest_fs()) return false;
    size_t lo = 0, hi = count_ - 1;  // ages: 0 = newest
    while (lo < hi) {                // smallest age whose edge is <= t
      const size_t mid = (lo + hi) / 2;
      if (fs_[slot(mid)] <= t_fs)
        hi = mid;
      else
        lo = mid + 1;
    }
    *edge_fs = fs_[slot(lo)];
    *ticks = ticks_[slot(lo)];
    return true;
  }

  // Board time (fs) at true time `t_fs`: `fine` interpolates within the
  // cycle at the nominal rate (DDMTD-refined timestamps), else the count
  // latched at the last edge (timestamps on the system clock).
  bool board_time_fs(int64_t t_fs, bool fine, int64_t* out) const {
    int64_t e;
    uint64_t ticks;
    if (!edge_before(t_fs, &e, &ticks)) return false;
    *out = int64_t(ticks) * int64_t(hwdef::TICK_PS) * 1000 + (fine ? t_fs - e : 0);
    return true;
  }

 private:
  size_t slot(size_t age) const { return (head_ + kEdges - age) & (kEdges - 1); }
  std::array<int64_t, kEdges> fs_{};
  std::array<uint64_t, kEdges> ticks_{};
  size_t head_ = kEdges - 1, count_ = 0;
};

}  // namespace lightrail::sim
