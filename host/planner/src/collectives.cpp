#include "lightrail/planner/collectives.hpp"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>
#include <unordered_map>

#include "lightrail/json_text.hpp"
#include "lightrail/planner/limits.hpp"

namespace lightrail::planner {
namespace {

int floor_log2(int n) {
  int l = 0;
  while ((2 << l) <= n) ++l;
  return l;
}
int ceil_log2(int n) {
  int l = 0;
  while ((1 << l) < n) ++l;
  return l;
}
int mod(int a, int n) { return ((a % n) + n) % n; }

// Transfers name blocks by int.
constexpr int64_t kMaxTransferBlocks = std::numeric_limits<int>::max();

uint64_t hash_of(const std::vector<int>& v) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the entries
  for (int x : v) h = (h ^ static_cast<uint32_t>(x)) * 1099511628211ull;
  return h;
}

// Collects the distinct configurations of a plan and its rounds.
class Builder {
 public:
  Builder(CollectivePlan& plan, bool with_transfers, int64_t max_configs)
      : p_(plan), xfer_(with_transfers), max_configs_(max_configs) {}

  // rank_dest[r] = the rank that r's ports in `ports` reach (or kIdle).
  // Ports outside `ports` of the same call stay idle; several calls with
  // disjoint port sets are merged with `merge`.
  Matching on_ports(const std::vector<int>& rank_dest, const std::vector<int>& ports) const {
    Matching m;
    m.dest.assign(static_cast<size_t>(p_.ranks) * p_.ports_per_rank, kIdle);
    merge(m, rank_dest, ports);
    return m;
  }
  void merge(Matching& m, const std::vector<int>& rank_dest, const std::vector<int>& ports) const {
    const int k = p_.ports_per_rank;
    for (int r = 0; r < p_.ranks; ++r) {
      if (rank_dest[r] == kIdle) continue;
      for (int port : ports) m.dest[r * k + port] = rank_dest[r] * k + port;
    }
  }
  std::vector<int> all_ports() const {
    std::vector<int> v(p_.ports_per_rank);
    for (int i = 0; i < p_.ports_per_rank; ++i) v[i] = i;
    return v;
  }

  int config(Matching m) {
    // Indexed by hash, compared against the stored configuration: no
    // second copy of every configuration.
    std::vector<int>& same = index_[hash_of(m.dest)];
    for (int id : same)
      if (p_.configs[id].dest == m.dest) return id;
    // The bound callers plan memory with (max_configurations) must hold.
    if (int64_t(p_.configs.size()) >= max_configs_) {
      throw std::logic_error(fmt::format("{} {} n={}: more than {} configurations", to_string(p_.algorithm),
                                         to_string(p_.kind), p_.ranks, max_configs_));
    }
    verify_one_to_one(m, fmt::format("{} {} n={} configs[{}]", to_string(p_.algorithm), to_string(p_.kind),
                                     p_.ranks, p_.configs.size()));
    const int id = static_cast<int>(p_.configs.size());
    same.push_back(id);
    p_.configs.push_back(std::move(m));
    return id;
  }
  Round& round(int config, double fraction) {
    p_.rounds.push_back(Round{config, fraction, {}});
    return p_.rounds.back();
  }
  void send(Round& r, int src, int dst, std::vector<int> blocks, bool reduce, int port = 0) {
    if (xfer_) r.transfers.push_back(Transfer{src, dst, port, std::move(blocks), reduce});
  }
  bool transfers() const { return xfer_; }

 private:
  CollectivePlan& p_;
  bool xfer_;
  int64_t max_configs_;
  std::unordered_map<uint64_t, std::vector<int>> index_;
};

std::vector<int> shift_dest(int n, int k) {
  std::vector<int> d(n);
  for (int i = 0; i < n; ++i) d[i] = mod(i + k, n);
  return d;
}

// Ring all-reduce / reduce-scatter / all-gather in direction `dir`, on the
// blocks [base, base + n), `stripes` data paths in parallel.
void ring(Builder& b, CollectivePlan& p, int config, int dir, int base, double fraction, bool rs, bool ag,
          std::vector<Round*>* shared_rounds) {
  const int n = p.ranks;
  size_t next_shared = 0;
  auto get_round = [&]() -> Round& {
    if (shared_rounds && next_shared < shared_rounds->size()) return *(*shared_rounds)[next_shared++];
    return b.round(config, fraction);
  };
  if (rs) {
    for (int t = 0; t < n - 1; ++t) {
      Round& r = get_round();
      if (b.transfers())
        for (int i = 0; i < n; ++i) b.send(r, i, mod(i + dir, n), {base + mod(i - dir * (t + 1), n)}, true);
    }
  }
  if (ag) {
    for (int t = 0; t < n - 1; ++t) {
      Round& r = get_round();
      // After the reduce-scatter (or at the start of an all-gather) rank i
      // holds block i complete.
      if (b.transfers())
        for (int i = 0; i < n; ++i) b.send(r, i, mod(i + dir, n), {base + mod(i - dir * t, n)}, false);
    }
  }
}

void plan_ring(Builder& b, CollectivePlan& p) {
  const int n = p.ranks;
  p.blocks = n;
  const int c = b.config(b.on_ports(shift_dest(n, 1), b.all_ports()));
  const double f = 1.0 / (n * p.ports_per_rank);
  ring(b, p, c, +1, 0, f, p.kind != Collective::kAllGather, p.kind != Collective::kReduceScatter, nullptr);
}

void plan_bidirectional_ring(Builder& b, CollectivePlan& p) {
  const int n = p.ranks;
  const int k = p.ports_per_rank;
  p.blocks = 2 * n;  // first half clockwise, second half counter-clockwise
  if (k >= 2) {
    std::vector<int> even, odd;
    for (int port = 0; port < k; ++port) (port % 2 ? odd : even).push_back(port);
    Matching m = b.on_ports(shift_dest(n, 1), even);
    b.merge(m, shift_dest(n, -1), odd);
    const int c = b.config(std::move(m));
    const double f = 1.0 / (2.0 * n * (k / 2));
    ring(b, p, c, +1, 0, f, true, true, nullptr);
    std::vector<Round*> rounds;
    for (Round& r : p.rounds) rounds.push_back(&r);
    // The counter-clockwise half runs in the same rounds on the odd ports.
    const size_t before = p.rounds.size();
    ring(b, p, c, -1, n, f, true, true, &rounds);
    if (p.rounds.size() != before) throw std::logic_error("bidirectional ring rounds diverged");
    for (Round& r : p.rounds)
      for (Transfer& t : r.transfers)
        if (t.dst == mod(t.src - 1, n) && t.blocks[0] >= n) t.port = 1;
  } else {
    const int cw = b.config(b.on_ports(shift_dest(n, 1), {0}));
    const int ccw = b.config(b.on_ports(shift_dest(n, -1), {0}));
    const double f = 1.0 / (2.0 * n);
    ring(b, p, cw, +1, 0, f, true, true, nullptr);
    ring(b, p, ccw, -1, n, f, true, true, nullptr);
  }
}

// MPICH's fold: of the first 2r ranks the even ones hand their data to the
// odd neighbour and sit out; the remaining 2^L ranks run the power-of-two
// algorithm.
struct Fold {
  int p2 = 0, r = 0, levels = 0;
  int old_rank(int j) const { return j < r ? 2 * j + 1 : j + r; }
};
Fold make_fold(int n) {
  Fold f;
  f.levels = floor_log2(n);
  f.p2 = 1 << f.levels;
  f.r = n - f.p2;
  return f;
}
std::vector<int> fold_dest(int n, const Fold& f) {
  std::vector<int> d(n, kIdle);
  for (int i = 0; i < f.r; ++i) {
    d[2 * i] = 2 * i + 1;
    d[2 * i + 1] = 2 * i;
  }
  return d;
}
std::vector<int> xor_dest(int n, const Fold& f, int k) {
  std::vector<int> d(n, kIdle);
  for (int j = 0; j < f.p2; ++j) d[f.old_rank(j)] = f.old_rank(j ^ (1 << k));
  return d;
}

void plan_recursive(Builder& b, CollectivePlan& p, bool halving) {
  const int n = p.ranks;
  const Fold f = make_fold(n);
  const double stripes = p.ports_per_rank;
  p.blocks = halving ? f.p2 : 1;
  std::vector<int> all(p.blocks);
  for (int i = 0; i < p.blocks; ++i) all[i] = i;
  int fold_config = -1;
  if (f.r > 0) {
    fold_config = b.config(b.on_ports(fold_dest(n, f), b.all_ports()));
    Round& r = b.round(fold_config, 1.0 / stripes);
    for (int i = 0; i < f.r; ++i) b.send(r, 2 * i, 2 * i + 1, all, true);
  }
  std::vector<int> step_config(f.levels);
  for (int k = 0; k < f.levels; ++k) step_config[k] = b.config(b.on_ports(xor_dest(n, f, k), b.all_ports()));
  if (!halving) {
    for (int k = 0; k < f.levels; ++k) {
      Round& r = b.round(step_config[k], 1.0 / stripes);
      if (b.transfers())
        for (int j = 0; j < f.p2; ++j) b.send(r, f.old_rank(j), f.old_rank(j ^ (1 << k)), {0}, true);
    }
  } else {
    std::vector<int> lo(f.p2, 0), hi(f.p2, f.p2);
    for (int k = f.levels - 1; k >= 0; --k) {  // reduce-scatter, halving
      Round& r = b.round(step_config[k], (f.p2 >> (f.levels - k)) / (double(f.p2) * stripes));
      std::vector<int> nlo = lo, nhi = hi;
      for (int j = 0; j < f.p2; ++j) {
        const int mid = (lo[j] + hi[j]) / 2;
        const bool upper = j & (1 << k);
        std::vector<int> give;
        for (int x = upper ? lo[j] : mid; x < (upper ? mid : hi[j]); ++x) give.push_back(x);
        b.send(r, f.old_rank(j), f.old_rank(j ^ (1 << k)), std::move(give), true);
        nlo[j] = upper ? mid : lo[j];
        nhi[j] = upper ? hi[j] : mid;
      }
      lo.swap(nlo);
      hi.swap(nhi);
    }
    for (int k = 0; k < f.levels; ++k) {  // all-gather, doubling back
      Round& r = b.round(step_config[k], (1 << k) / (double(f.p2) * stripes));
      std::vector<int> nlo = lo, nhi = hi;
      for (int j = 0; j < f.p2; ++j) {
        std::vector<int> own;
        for (int x = lo[j]; x < hi[j]; ++x) own.push_back(x);
        b.send(r, f.old_rank(j), f.old_rank(j ^ (1 << k)), std::move(own), false);
        const int partner = j ^ (1 << k);
        nlo[j] = std::min(lo[j], lo[partner]);
        nhi[j] = std::max(hi[j], hi[partner]);
      }
      lo.swap(nlo);
      hi.swap(nhi);
    }
  }
  if (f.r > 0) {
    Round& r = b.round(fold_config, 1.0 / stripes);
    for (int i = 0; i < f.r; ++i) b.send(r, 2 * i + 1, 2 * i, all, false);
  }
}

// Heap-ordered binary tree: parent(i) = (i-1)/2; left children are odd.
// A rank has one transmitter per port, so the left and right child edges of
// a level go in separate rounds (one configuration each per direction).
void plan_binary_tree(Builder& b, CollectivePlan& p) {
  const int n = p.ranks;
  p.blocks = 1;
  const int depth = floor_log2(n);
  std::vector<int> up_left(n, kIdle), up_right(n, kIdle), down_left(n, kIdle), down_right(n, kIdle);
  for (int i = 1; i < n; ++i) {
    const int parent = (i - 1) / 2;
    (i % 2 ? up_left : up_right)[i] = parent;
    (i % 2 ? down_left : down_right)[parent] = i;
  }
  const auto ports = b.all_ports();
  const int ul = b.config(b.on_ports(up_left, ports));
  const int ur = n > 2 ? b.config(b.on_ports(up_right, ports)) : -1;
  const int dl = b.config(b.on_ports(down_left, ports));
  const int dr = n > 2 ? b.config(b.on_ports(down_right, ports)) : -1;
  const double f = 1.0 / p.ports_per_rank;
  auto level = [&](int l, int config, bool odd, bool up) {
    const int first = (1 << l) - 1, last = std::min(n - 1, (2 << l) - 2);
    bool any = false;
    for (int i = first; i <= last; ++i) any = any || (i % 2 == 1) == odd;
    if (!any) return;
    Round& r = b.round(config, f);
    for (int i = first; i <= last; ++i) {
      if ((i % 2 == 1) != odd) continue;
      if (up) {
        b.send(r, i, (i - 1) / 2, {0}, true);
      } else {
        b.send(r, (i - 1) / 2, i, {0}, false);
      }
    }
  };
  for (int l = depth; l >= 1; --l) {
    level(l, ul, true, true);
    level(l, ur, false, true);
  }
  for (int l = 1; l <= depth; ++l) {
    level(l, dl, true, false);
    level(l, dr, false, false);
  }
}

void plan_direct(Builder& b, CollectivePlan& p) {
  const int n = p.ranks;
  p.blocks = int64_t{n} * n;  // block s*n+d goes from s to d
  for (int k = 1; k < n; ++k) {
    Round& r = b.round(b.config(b.on_ports(shift_dest(n, k), b.all_ports())), 1.0 / (n * p.ports_per_rank));
    if (b.transfers())
      for (int i = 0; i < n; ++i) b.send(r, i, mod(i + k, n), {i * n + mod(i + k, n)}, false);
  }
}

void plan_bruck(Builder& b, CollectivePlan& p) {
  const int n = p.ranks;
  p.blocks = int64_t{n} * n;
  std::vector<std::vector<int>> held(b.transfers() ? n : 0);
  for (size_t i = 0; i < held.size(); ++i)
    for (int d = 0; d < n; ++d) held[i].push_back(int(i) * n + d);
  for (int k = 0; k < ceil_log2(n); ++k) {
    int count = 0;  // blocks whose remaining distance has bit k set
    for (int d = 0; d < n; ++d) count += (d >> k) & 1;
    Round& r = b.round(b.config(b.on_ports(shift_dest(n, 1 << k), b.all_ports())),
                       double(count) / (n * p.ports_per_rank));
    if (!b.transfers()) continue;
    std::vector<std::vector<int>> next(n);
    for (int i = 0; i < n; ++i) {
      std::vector<int> go;
      for (int blk : held[i]) ((mod(blk % n - i, n) >> k) & 1 ? go : next[i]).push_back(blk);
      for (int blk : go) next[mod(i + (1 << k), n)].push_back(blk);
      b.send(r, i, mod(i + (1 << k), n), std::move(go), false);
    }
    held.swap(next);
  }
}

void plan_pipeline(Builder& b, CollectivePlan& p, bool reverse) {
  const int n = p.ranks;
  const int k = p.ports_per_rank;
  p.blocks = n;
  std::vector<int> fwd(n, kIdle), bwd(n, kIdle);
  for (int i = 0; i + 1 < n; ++i) {
    fwd[i] = i + 1;
    bwd[i + 1] = i;
  }
  Matching m;
  double f = 1.0;
  int port = 0;
  if (k >= 2) {
    // Forward on even ports, backward on odd: one configuration serves both
    // passes, so the pipeline never reconfigures between them.
    std::vector<int> even, odd;
    for (int q = 0; q < k; ++q) (q % 2 ? odd : even).push_back(q);
    m = b.on_ports(fwd, even);
    b.merge(m, bwd, odd);
    f = 1.0 / (reverse ? odd.size() : even.size());
    port = reverse ? 1 : 0;
  } else {
    m = b.on_ports(reverse ? bwd : fwd, {0});
  }
  Round& r = b.round(b.config(std::move(m)), f);
  for (int i = 0; i + 1 < n; ++i) {
    if (reverse) {
      b.send(r, i + 1, i, {i + 1}, false, port);
    } else {
      b.send(r, i, i + 1, {i}, false, port);
    }
  }
}

}  // namespace

int CollectivePlan::reconfigurations() const {
  int c = 0;
  for (size_t i = 1; i < rounds.size(); ++i) c += rounds[i].config != rounds[i - 1].config;
  return c;
}

int CollectivePlan::dependent_rounds() const {
  return algorithm == Algorithm::kDirect ? 1 : static_cast<int>(rounds.size());
}

bool supports(Collective kind, Algorithm a) {
  switch (a) {
    case Algorithm::kRing:
      return kind == Collective::kAllReduce || kind == Collective::kAllGather ||
             kind == Collective::kReduceScatter;
    case Algorithm::kBidirectionalRing:
    case Algorithm::kRecursiveDoubling:
    case Algorithm::kHalvingDoubling:
    case Algorithm::kBinaryTree:
      return kind == Collective::kAllReduce;
    case Algorithm::kDirect:
    case Algorithm::kBruck:
      return kind == Collective::kAllToAll;
    case Algorithm::kPipeline:
    case Algorithm::kPipelineReverse:
      return kind == Collective::kSendRecv;
  }
  return false;
}

int64_t max_configurations(Algorithm algorithm, int ranks) {
  switch (algorithm) {
    case Algorithm::kRing:
    case Algorithm::kPipeline:
    case Algorithm::kPipelineReverse:
      return 1;
    case Algorithm::kBidirectionalRing:
      return 2;
    case Algorithm::kRecursiveDoubling:
    case Algorithm::kHalvingDoubling:
      return floor_log2(ranks) + 1;  // one per level, and the fold's pairing
    case Algorithm::kBinaryTree:
      return 4;
    case Algorithm::kDirect:
      return ranks - 1;
    case Algorithm::kBruck:
      return ceil_log2(ranks);
  }
  return 0;
}

CollectivePlan plan_collective(Collective kind, Algorithm algorithm, int ranks, int ports_per_rank,
                               bool with_transfers) {
  if (ranks < 2 || ranks > kMaxGpus) {
    throw std::invalid_argument(
        fmt::format("a collective needs 2..{} ranks (the planner's limit), got {}", kMaxGpus, ranks));
  }
  if (ports_per_rank < 1 || ports_per_rank > kMaxPortsPerNic) {
    throw std::invalid_argument(
        fmt::format("ports_per_rank must be in 1..{}, got {}", kMaxPortsPerNic, ports_per_rank));
  }
  if (!supports(kind, algorithm)) {
    throw std::invalid_argument(
        fmt::format("algorithm \"{}\" does not implement \"{}\"", to_string(algorithm), to_string(kind)));
  }
  if (with_transfers && kind == Collective::kAllToAll && int64_t{ranks} * ranks > kMaxTransferBlocks) {
    throw std::invalid_argument(fmt::format(
        "transfers of an all_to_all over {} ranks: {} blocks, more than the {} transfers can name", ranks,
        int64_t{ranks} * ranks, kMaxTransferBlocks));
  }
  CollectivePlan p;
  p.kind = kind;
  p.algorithm = algorithm;
  p.ranks = ranks;
  p.ports_per_rank = ports_per_rank;
  Builder b(p, with_transfers, max_configurations(algorithm, ranks));
  switch (algorithm) {
    case Algorithm::kRing:
      plan_ring(b, p);
      break;
    case Algorithm::kBidirectionalRing:
      plan_bidirectional_ring(b, p);
      break;
    case Algorithm::kRecursiveDoubling:
      plan_recursive(b, p, false);
      break;
    case Algorithm::kHalvingDoubling:
      plan_recursive(b, p, true);
      break;
    case Algorithm::kBinaryTree:
      plan_binary_tree(b, p);
      break;
    case Algorithm::kDirect:
      plan_direct(b, p);
      break;
    case Algorithm::kBruck:
      plan_bruck(b, p);
      break;
    case Algorithm::kPipeline:
      plan_pipeline(b, p, false);
      break;
    case Algorithm::kPipelineReverse:
      plan_pipeline(b, p, true);
      break;
  }
  return p;
}

namespace {
const std::pair<Collective, const char*> kCollectiveNames[] = {{Collective::kAllReduce, "all_reduce"},
                                                               {Collective::kAllGather, "all_gather"},
                                                               {Collective::kReduceScatter, "reduce_scatter"},
                                                               {Collective::kAllToAll, "all_to_all"},
                                                               {Collective::kSendRecv, "send_recv"}};
const std::pair<Algorithm, const char*> kAlgorithmNames[] = {
    {Algorithm::kRing, "ring"},
    {Algorithm::kBidirectionalRing, "bidirectional_ring"},
    {Algorithm::kRecursiveDoubling, "recursive_doubling"},
    {Algorithm::kHalvingDoubling, "halving_doubling"},
    {Algorithm::kBinaryTree, "binary_tree"},
    {Algorithm::kDirect, "direct"},
    {Algorithm::kBruck, "bruck"},
    {Algorithm::kPipeline, "pipeline"},
    {Algorithm::kPipelineReverse, "pipeline_reverse"}};

template <typename E, size_t N>
E from_string(const std::pair<E, const char*> (&names)[N], const std::string& name, const char* what) {
  std::string list;
  for (const auto& [e, s] : names) {
    if (name == s) return e;
    list += list.empty() ? s : std::string(", ") + s;
  }
  throw std::invalid_argument(fmt::format("unknown {} \"{}\" (one of: {})", what, printable(name), list));
}
}  // namespace

const char* to_string(Collective kind) {
  for (const auto& [e, s] : kCollectiveNames)
    if (e == kind) return s;
  return "?";
}
const char* to_string(Algorithm a) {
  for (const auto& [e, s] : kAlgorithmNames)
    if (e == a) return s;
  return "?";
}
Collective collective_from_string(const std::string& name) {
  return from_string(kCollectiveNames, name, "collective");
}
Algorithm algorithm_from_string(const std::string& name) {
  return from_string(kAlgorithmNames, name, "algorithm");
}

}  // namespace lightrail::planner
