#include "lightrail/planner/data_movement.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <stdexcept>

namespace lightrail::planner {
namespace {

// The replay's state is ranks x blocks x ranks bits; beyond 128 MiB the
// check is refused rather than exhausting memory.
constexpr uint64_t kMaxStateWords = uint64_t{1} << 24;

// For every (rank, block): the set of ranks whose input is summed in it.
class State {
 public:
  State(int ranks, int blocks) : n_(ranks), b_(blocks), words_((ranks + 63) / 64) {
    bits_.assign(size_t(ranks) * blocks * words_, 0);
  }
  uint64_t* at(int rank, int block) { return &bits_[(size_t(rank) * b_ + block) * words_]; }
  void set(int rank, int block, int contributor) {
    at(rank, block)[contributor / 64] |= 1ull << (contributor % 64);
  }
  bool has(int rank, int block, int contributor) {
    return (at(rank, block)[contributor / 64] >> (contributor % 64)) & 1;
  }
  int words() const { return words_; }

 private:
  int n_, b_, words_;
  std::vector<uint64_t> bits_;
};

}  // namespace

std::string check_data_movement(const CollectivePlan& p) {
  const int n = p.ranks;
  const int k = p.ports_per_rank;
  if (n < 1 || p.blocks < 0 || k < 1) {
    throw std::invalid_argument(
        fmt::format("check_data_movement: {} ranks, {} blocks, {} ports per rank", n, p.blocks, k));
  }
  // In double: the product of three counts may pass uint64.
  const double words = double(n) * double(p.blocks) * double((int64_t{n} + 63) / 64);
  if (words > double(kMaxStateWords)) {
    throw std::invalid_argument(fmt::format(
        "check_data_movement: {} ranks x {} blocks need {:.4g} words of state, more than the {} it may use",
        n, p.blocks, words, kMaxStateWords));
  }
  State s(n, int(p.blocks));  // at most kMaxStateWords
  // Initial data.
  for (int r = 0; r < n; ++r) {
    switch (p.kind) {
      case Collective::kAllReduce:
      case Collective::kReduceScatter:
        for (int b = 0; b < p.blocks; ++b) s.set(r, b, r);
        break;
      case Collective::kAllGather:
      case Collective::kSendRecv:
        s.set(r, r, r);
        break;
      case Collective::kAllToAll:
        for (int d = 0; d < n; ++d) s.set(r, r * n + d, r);
        break;
    }
  }
  const int w = s.words();
  for (size_t ri = 0; ri < p.rounds.size(); ++ri) {
    const Round& round = p.rounds[ri];
    const Matching& m = p.configs.at(round.config);
    if (round.transfers.empty() && n > 1) return fmt::format("round {}: plan has no transfers listed", ri);
    // Every transfer reads the state before the round (simultaneous sends).
    State before = s;
    for (const Transfer& t : round.transfers) {
      const int tx = t.src * k + t.port;
      const int rx = m.dest.at(tx);
      if (rx == kIdle || rx / k != t.dst) {
        return fmt::format(
            "round {}: rank {} sends to rank {} but its port {} has {}", ri, t.src, t.dst, t.port,
            rx == kIdle ? std::string("no circuit") : fmt::format("a circuit to rank {}", rx / k));
      }
      for (int blk : t.blocks) {
        const uint64_t* from = before.at(t.src, blk);
        uint64_t* to = s.at(t.dst, blk);
        for (int i = 0; i < w; ++i) {
          if (t.reduce && (to[i] & from[i])) {
            return fmt::format(
                "round {}: rank {} adds block {} into rank {} twice over the same contribution", ri, t.src,
                blk, t.dst);
          }
          to[i] |= from[i];
        }
      }
    }
  }
  auto lacks = [&](int r, int b, int c) {
    return fmt::format("after {} rounds rank {} block {} lacks the contribution of rank {}", p.rounds.size(),
                       r, b, c);
  };
  for (int r = 0; r < n; ++r) {
    switch (p.kind) {
      case Collective::kAllReduce:
      case Collective::kAllGather:
        for (int b = 0; b < p.blocks; ++b) {
          for (int c = 0; c < n; ++c) {
            const int need = p.kind == Collective::kAllGather ? b : c;
            if (!s.has(r, b, need)) return lacks(r, b, need);
            if (p.kind == Collective::kAllGather) break;
          }
        }
        break;
      case Collective::kReduceScatter:
        for (int c = 0; c < n; ++c)
          if (!s.has(r, r, c)) return lacks(r, r, c);
        break;
      case Collective::kAllToAll:
        for (int src = 0; src < n; ++src)
          if (!s.has(r, src * n + r, src)) return lacks(r, src * n + r, src);
        break;
      case Collective::kSendRecv: {
        const bool reverse = p.algorithm == Algorithm::kPipelineReverse;
        const int from = reverse ? r + 1 : r - 1;
        if (from >= 0 && from < n && !s.has(r, from, from)) return lacks(r, from, from);
        break;
      }
    }
  }
  return {};
}

}  // namespace lightrail::planner
