// The probes' and the reference's queue (sim/fifo.hpp): every check of the
// co-simulation goes through it, so its order must hold across growth and
// compaction, and erase/pop_back/pop_front_to must do what std::deque would.
#include "scenario/fifo.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>

namespace lightrail::sim {
namespace {

template <typename T>
void expect_same(const Fifo<T>& f, const std::deque<T>& d) {
  ASSERT_EQ(f.size(), d.size());
  ASSERT_EQ(f.empty(), d.empty());
  EXPECT_TRUE(std::equal(f.begin(), f.end(), d.begin()));
  if (!d.empty()) {
    EXPECT_EQ(f.front(), d.front());
    EXPECT_EQ(f.back(), d.back());
  }
}

TEST(Fifo, RandomOperationsMatchADeque) {
  Fifo<int> f;
  std::deque<int> d;
  std::mt19937 rng(7);
  int next = 0;
  for (int i = 0; i < 200000; ++i) {
    const unsigned op = rng() % 100;
    if (op < 52 || d.empty()) {  // a little more pushing than popping: growth and compaction both happen
      f.push_back(next);
      d.push_back(next++);
    } else if (op < 95) {
      f.pop_front();
      d.pop_front();
    } else if (op < 97) {
      f.pop_back();
      d.pop_back();
    } else if (op < 99) {
      const size_t n = rng() % (d.size() + 1);
      f.pop_front_to(f.begin() + n);
      d.erase(d.begin(), d.begin() + std::ptrdiff_t(n));
    } else {
      const int mod = int(rng() % 5) + 2;
      f.erase(std::remove_if(f.begin(), f.end(), [&](int x) { return x % mod == 0; }), f.end());
      d.erase(std::remove_if(d.begin(), d.end(), [&](int x) { return x % mod == 0; }), d.end());
    }
    if (i % 997 == 0) expect_same(f, d);
  }
  expect_same(f, d);
}

TEST(Fifo, DrainedQueueReusesItsBuffer) {
  Fifo<int> f;
  for (int i = 0; i < 1000; ++i) f.push_back(i);
  const int* first = &f.front();
  for (int round = 0; round < 100; ++round) {
    for (int i = 0; i < 1000; ++i) f.pop_front();
    ASSERT_TRUE(f.empty());
    for (int i = 0; i < 1000; ++i) f.push_back(i);
  }
  EXPECT_EQ(&f.front(), first);  // no reallocation in steady state
}

}  // namespace
}  // namespace lightrail::sim
