// A queue for the probes' and the reference's per-cycle traffic: one buffer
// read from a moving head and written at a moving tail, compacted (or grown)
// only when the tail reaches its end, so a steady stream of
// push_back/pop_front reuses one allocation (std::deque allocates and frees
// a block every few hundred elements, which showed in the co-simulation's
// profile). Head and tail are plain indices: empty() and size() are a
// compare and a subtraction, not a division by the element size.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace lightrail::sim {

template <typename T>
class Fifo {
 public:
  using iterator = T*;
  using const_iterator = const T*;

  bool empty() const { return head_ == tail_; }
  size_t size() const { return tail_ - head_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  T& back() { return buf_[tail_ - 1]; }
  const T& back() const { return buf_[tail_ - 1]; }
  void push_back(const T& x) {
    if (tail_ == cap_) make_room();
    buf_[tail_++] = x;
  }
  void pop_back() { --tail_; }
  void pop_front() {
    if (++head_ == tail_) head_ = tail_ = 0;
  }
  // Drops the front up to `to` (an iterator of this queue).
  void pop_front_to(const_iterator to) {
    head_ = size_t(to - buf_.data());
    if (head_ == tail_) head_ = tail_ = 0;
  }
  iterator begin() { return buf_.data() + head_; }
  iterator end() { return buf_.data() + tail_; }
  const_iterator begin() const { return buf_.data() + head_; }
  const_iterator end() const { return buf_.data() + tail_; }
  // Removes [first, last) (iterators of this queue), keeping the order.
  iterator erase(iterator first, iterator last) {
    T* const out = std::move(last, end(), first);
    tail_ = size_t(out - buf_.data());
    if (head_ == tail_) head_ = tail_ = 0;
    return first;
  }

 private:
  // The tail reached the buffer's end: slide the queue to the front when
  // the head has passed half of it (each element moves at most once per
  // pass), else double the buffer.
  void make_room() {
    if (head_ > 0 && 2 * head_ >= tail_) {
      std::move(buf_.begin() + std::ptrdiff_t(head_), buf_.begin() + std::ptrdiff_t(tail_), buf_.begin());
      tail_ -= head_;
      head_ = 0;
    } else {
      buf_.resize(std::max<size_t>(16, 2 * buf_.size()));
      cap_ = buf_.size();
    }
  }
  std::vector<T> buf_;
  size_t head_ = 0, tail_ = 0, cap_ = 0;  // cap_: buf_.size(), kept to spare a division per push
};

}  // namespace lightrail::sim
