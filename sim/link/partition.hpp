// Boards split over the processes of an MPI job (docs/cosim.md,
// "Partitioned over processes"): which process simulates which board, and
// the two exchanges the processes make at every window boundary. Without
// mpirun (or without Open MPI at build time) there is one process and no
// windows.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace lightrail::sim {

// A job that cannot be split as asked (more ranks than boards, links too
// short for a lookahead): nothing ran.
struct PartitionError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

class Partition {
 public:
  // Joins the MPI job when the process was started by mpirun (and the build
  // has Open MPI); otherwise the process is alone. Call once, first thing.
  static void init(int* argc, char*** argv);
  static void finalize();
  // Ends every rank: one rank's error would leave the others waiting at the
  // next window boundary.
  [[noreturn]] static void abort(int code);
  static const Partition& world();

  // Started by mpirun: the run goes in windows, even on one rank, so that
  // its result is the same on any number of ranks.
  bool active() const { return active_; }
  int rank() const { return rank_; }
  int ranks() const { return ranks_; }
  // Contiguous blocks, so a chain's neighbours share a process where they can.
  int owner(int board, int boards) const { return int((int64_t(board) * ranks_) / boards); }

  // Every rank's bytes, in rank order, on every rank.
  std::vector<std::string> allgather(const std::string& mine) const;
  // Rank 0's bytes on every rank.
  std::string broadcast(const std::string& from_root) const;

 private:
  bool active_ = false;
  int rank_ = 0, ranks_ = 1;
};

// Plain values and byte strings in one buffer, read back in the same order
// (the processes run one build on one kind of machine).
class Wire {
 public:
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    buf_.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  void put_bytes(const std::string& s) {
    put(uint64_t(s.size()));
    buf_.append(s);
  }
  const std::string& bytes() const { return buf_; }
  std::string take() { return std::move(buf_); }

 private:
  std::string buf_;
};

class WireReader {
 public:
  explicit WireReader(const std::string& s) : s_(s) {}
  bool done() const { return at_ == s_.size(); }
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T v;
    std::memcpy(&v, s_.data() + at_, sizeof v);
    at_ += sizeof v;
    return v;
  }
  std::string get_bytes() {
    const auto n = get<uint64_t>();
    need(n);
    std::string out = s_.substr(at_, n);
    at_ += n;
    return out;
  }

 private:
  void need(size_t n) const {
    if (s_.size() - at_ < n) throw std::runtime_error("partition: a window's message is cut short");
  }
  const std::string& s_;
  size_t at_ = 0;
};

}  // namespace lightrail::sim
