#include "link/partition.hpp"

#include <cstdlib>

#ifdef LIGHTRAIL_HAVE_MPI
#include <mpi.h>
#endif

namespace lightrail::sim {

namespace {
Partition g_world;
}  // namespace

const Partition& Partition::world() { return g_world; }

void Partition::init(int* argc, char*** argv) {
#ifdef LIGHTRAIL_HAVE_MPI
  // Only under a launcher: a singleton MPI_Init would start Open MPI's
  // run-time for a plain `lightrail-cosim run`.
  if (!std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMIX_RANK")) return;
  int provided = 0;
  // The board server and the scenario's host run in threads of rank 0, but
  // only the simulation thread calls MPI.
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_world.rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &g_world.ranks_);
  g_world.active_ = true;
#else
  (void)argc;
  (void)argv;
#endif
}

void Partition::finalize() {
#ifdef LIGHTRAIL_HAVE_MPI
  if (g_world.active_) MPI_Finalize();
  g_world.active_ = false;
#endif
}

void Partition::abort(int code) {
#ifdef LIGHTRAIL_HAVE_MPI
  if (g_world.active_) MPI_Abort(MPI_COMM_WORLD, code);
#endif
  std::exit(code);
}

std::vector<std::string> Partition::allgather(const std::string& mine) const {
  if (!active_ || ranks_ == 1) return {mine};
#ifdef LIGHTRAIL_HAVE_MPI
  const long long n = static_cast<long long>(mine.size());
  std::vector<long long> sizes(static_cast<size_t>(ranks_));
  MPI_Allgather(&n, 1, MPI_LONG_LONG, sizes.data(), 1, MPI_LONG_LONG, MPI_COMM_WORLD);
  std::vector<int> counts(static_cast<size_t>(ranks_)), offsets(static_cast<size_t>(ranks_));
  long long total = 0;
  for (int r = 0; r < ranks_; ++r) {
    if (sizes[size_t(r)] > (1ll << 30) || total > (1ll << 30))
      throw std::runtime_error("partition: a window's messages exceed 1 GiB");
    counts[size_t(r)] = int(sizes[size_t(r)]);
    offsets[size_t(r)] = int(total);
    total += sizes[size_t(r)];
  }
  std::string all(size_t(total), '\0');
  MPI_Allgatherv(mine.data(), int(n), MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE,
                 MPI_COMM_WORLD);
  std::vector<std::string> out;
  for (int r = 0; r < ranks_; ++r)
    out.push_back(all.substr(size_t(offsets[size_t(r)]), size_t(counts[size_t(r)])));
  return out;
#else
  return {mine};
#endif
}

std::string Partition::broadcast(const std::string& from_root) const {
  if (!active_ || ranks_ == 1) return from_root;
#ifdef LIGHTRAIL_HAVE_MPI
  long long n = static_cast<long long>(from_root.size());
  MPI_Bcast(&n, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (n > (1ll << 30)) throw std::runtime_error("partition: a window's control message exceeds 1 GiB");
  std::string out = rank_ == 0 ? from_root : std::string(size_t(n), '\0');
  MPI_Bcast(out.data(), int(n), MPI_BYTE, 0, MPI_COMM_WORLD);
  return out;
#else
  return from_root;
#endif
}

}  // namespace lightrail::sim
