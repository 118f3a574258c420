// A queue for the probes' and the reference's per-cycle traffic: a vector
// read from a moving head, compacted when the head passes half of it, so a
// steady stream of push_back/pop_front reuses one allocation (std::deque
// allocates and frees a block every few hundred elements, which showed in
// the co-simulation's profile).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace lightrail::sim {

template <typename T>
class Fifo {
 public:
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;

  bool empty() const { return head_ == v_.size(); }
  size_t size() const { return v_.size() - head_; }
  T& front() { return v_[head_]; }
  const T& front() const { return v_[head_]; }
  T& back() { return v_.back(); }
  const T& back() const { return v_.back(); }
  void push_back(const T& x) { v_.push_back(x); }
  template <typename... A>
  void emplace_back(A&&... a) {
    v_.emplace_back(std::forward<A>(a)...);
  }
  void pop_back() { v_.pop_back(); }
  void pop_front() {
    if (++head_ == v_.size()) {
      v_.clear();
      head_ = 0;
    } else if (head_ >= 1024 && head_ * 2 >= v_.size()) {
      v_.erase(v_.begin(), v_.begin() + std::ptrdiff_t(head_));
      head_ = 0;
    }
  }
  iterator begin() { return v_.begin() + std::ptrdiff_t(head_); }
  iterator end() { return v_.end(); }
  const_iterator begin() const { return v_.begin() + std::ptrdiff_t(head_); }
  const_iterator end() const { return v_.end(); }
  iterator erase(iterator first, iterator last) { return v_.erase(first, last); }

 private:
  std::vector<T> v_;
  size_t head_ = 0;
};

}  // namespace lightrail::sim
