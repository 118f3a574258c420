// The last N of something, oldest first, in a fixed array: pushing onto a
// full ring drops the oldest. Per-cycle bookkeeping (edge history, the
// reference's boundary records) without an allocation per element (a
// std::deque of large records allocates a node for each).
#pragma once

#include <array>
#include <cstddef>
#include <utility>

namespace lightrail::sim {

template <typename T, size_t N>
class Ring {
 public:
  bool empty() const { return count_ == 0; }
  size_t size() const { return count_; }
  // i = 0 is the oldest.
  T& operator[](size_t i) { return a_[(head_ + i) % N]; }
  const T& operator[](size_t i) const { return a_[(head_ + i) % N]; }
  T& back() { return (*this)[count_ - 1]; }
  const T& back() const { return (*this)[count_ - 1]; }
  void push_back(T x) {
    a_[(head_ + count_) % N] = std::move(x);
    if (count_ < N) {
      ++count_;
    } else {
      head_ = (head_ + 1) % N;
    }
  }
  void pop_back() { --count_; }

 private:
  std::array<T, N> a_{};
  size_t head_ = 0, count_ = 0;  // a_[head_] is the oldest
};

}  // namespace lightrail::sim
