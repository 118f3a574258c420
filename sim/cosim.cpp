#include "cosim.hpp"

#include <algorithm>
#include <cerrno>
#include <ctime>
#include <limits>
#include <map>
#include <systemc>
#include <thread>

#include "rtl_coverage.hpp"

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <fmt/format.h>

#include "lightrail/capabilities.hpp"
#include "lightrail/hwdef.hpp"

namespace lightrail::sim {

// The board's system clock: one process per board, one activation per cycle
// (an SC_METHOD with next_trigger: the cheapest SystemC process there is).
// With clock distribution on, the edges come from the board's oscillator.
struct Cosim::Clock : sc_core::sc_module {
  Board& board;
  HostLink& link;
  SyncEngine* sync;
  uint64_t period_fs;
  sc_core::sc_time period;
  uint64_t next_fs = 0;
  const uint64_t* end_fs;                  // where the current sc_start ends (absolute fs)
  double* wait_cpu_s;                      // CPU time spent waiting for the host
  std::pair<double, uint64_t>* free_from;  // thread CPU time and cycles when the host last let go
  const std::vector<std::unique_ptr<Board>>* boards;
  bool batch = false;     // run several cycles per activation (a lone board on an ideal clock)
  bool windowed = false;  // partitioned: the host is met at window boundaries, not here
  static constexpr int kBatchCycles = 32;

  SC_HAS_PROCESS(Clock);
  Clock(sc_core::sc_module_name name, Board& b, HostLink& l, uint64_t period_fs_, SyncEngine* s,
        const uint64_t* end, double* wait_cpu, std::pair<double, uint64_t>* free,
        const std::vector<std::unique_ptr<Board>>* all)
      : sc_module(name),
        board(b),
        link(l),
        sync(s),
        period_fs(period_fs_),
        period(double(period_fs_), sc_core::SC_FS),
        end_fs(end),
        wait_cpu_s(wait_cpu),
        free_from(free),
        boards(all) {
    SC_METHOD(tick);
    if (sync) next_fs = uint64_t(sync->next_edge_fs(board.id()));
    // The DDMTD's helper clock is played lazily (SyncEngine::before_edge);
    // its first edge is placed here, as at time 0.
    if (sync && sync->has_ddmtd(board.id())) sync->next_dmtd_edge_fs(board.id());
  }

  void tick() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    if (sync && now < next_fs) {  // before this oscillator's first edge
      next_trigger(sc_core::sc_time(double(next_fs - now), sc_core::SC_FS));
      return;
    }
    if (windowed) {
      one_cycle(now);
      return;
    }
    link.now_fs.store(now, std::memory_order_relaxed);
    if (link.must_wait(now)) {
      // Waiting for the host is not the board's work: kept out of cpu_s.
      const double cpu0 = thread_cpu_s();
      while (link.must_wait(now)) std::this_thread::sleep_for(std::chrono::microseconds(20));
      *wait_cpu_s += thread_cpu_s() - cpu0;
      free_from->first = thread_cpu_s();  // the board runs on its own from here, unless the host acts again
      free_from->second = 0;
      for (const auto& b : *boards) free_from->second += b->cycles();
    }
    if (link.stop.load(std::memory_order_relaxed)) {
      sc_core::sc_stop();
      return;
    }
    if (!sync) {
      board.cycle(now, period_fs);
      // An ideal clock shares nothing with other boards: while the host
      // cannot act (no request in flight, the barrier it set not reached,
      // the run's end not reached), run the next cycles in this activation.
      // A SystemC activation costs as much as a tenth of a board cycle.
      // One board only: with several, the cycle in which a board took a
      // host request depended on the run (four_boards.json; probably the
      // order of boards within an instant, which the batches' lengths set),
      // so they keep one cycle per activation and stay deterministic.
      uint64_t t = now + period_fs;
      const uint64_t limit =
          batch ? std::min(*end_fs, link.barrier_fs.load(std::memory_order_acquire)) : uint64_t{0};
      for (int k = 1;
           k < kBatchCycles && t < limit && link.outstanding.load(std::memory_order_acquire) == 0 &&
           !link.stop.load(std::memory_order_relaxed);
           ++k, t += period_fs) {
        link.now_fs.store(t, std::memory_order_relaxed);
        board.cycle(t, period_fs);
      }
      next_trigger(t - now == period_fs ? period : sc_core::sc_time(double(t - now), sc_core::SC_FS));
      return;
    }
    one_cycle(now);
  }

  void one_cycle(uint64_t now) {
    if (!sync) {
      board.cycle(now, period_fs);
      next_trigger(period);
      return;
    }
    sync->before_edge(board.id(), int64_t(now));
    next_fs = uint64_t(sync->next_edge_fs(board.id()));
    board.cycle(now, next_fs - now);
    sync->on_edge(board.id(), int64_t(now), board.now_ticks());
    next_trigger(sc_core::sc_time(double(next_fs - now), sc_core::SC_FS));
  }
};

Cosim::Cosim(const CosimOptions& options) : part_(Partition::world()) {
  sc_core::sc_set_time_resolution(1, sc_core::SC_FS);
  int boards = options.boards;
  if (options.sync.enabled) {
    sync_ = std::make_unique<SyncEngine>(options.sync, options.boards);
    boards = sync_->total_boards();
  }
  const bool windowed = part_.active();
  if (windowed && part_.ranks() > boards)
    throw PartitionError(fmt::format("mpirun -np {}: more ranks than the {} boards to simulate{}",
                                     part_.ranks(), boards,
                                     sync_ && options.sync.baseline ? " (PTP-only copies included)" : ""));
  if (windowed) {
    std::vector<bool> mine(static_cast<size_t>(boards));
    for (int b = 0; b < boards; ++b) mine[size_t(b)] = part_.owner(b, boards) == part_.rank();
    // The longest window: everything crossing between boards is at least
    // this old (sync) or nothing crosses (ideal clocks), when the ranks
    // only meet for the host's sake (boundary() shortens windows for it).
    constexpr uint64_t kLongestWindowFs = 500000000;  // 500 ns
    window_fs_ = kLongestWindowFs;
    if (sync_) {
      sync_->partition(mine);
      constexpr uint64_t kHourFs = 3600000000000000000;
      const int64_t ahead = sync_->lookahead_fs(int64_t(options.horizon_fs ? options.horizon_fs : kHourFs));
      if (ahead < 1000000)
        throw PartitionError(fmt::format(
            "sync.profile.fibre: the shortest link delay gives a lookahead of {} fs (less two clock "
            "periods with \"link\": \"rtl\"), under the 1 ns a partitioned run needs",
            ahead));
      window_fs_ = std::min(window_fs_, uint64_t(ahead));
    }
  }
  std::vector<BusQueue*> buses;
  for (int b = 0; b < boards; ++b) {
    if (windowed) {
      if (part_.rank() == 0) {
        mailboxes_.push_back(std::make_unique<BusQueue>());
        buses.push_back(mailboxes_.back().get());
      }
      if (part_.owner(b, boards) != part_.rank()) continue;
    }
    BoardOptions bo = options.board;
    if (!options.waveform_prefix.empty()) bo.waveform = options.waveform_prefix + std::to_string(b) + ".fst";
    boards_.push_back(std::make_unique<Board>(b, bo));
    if (sync_) {
      boards_.back()->record_boundaries();
      sync_->attach(b, boards_.back().get());
    }
    if (!windowed) buses.push_back(&boards_.back()->bus());
    clocks_.push_back(std::make_unique<Clock>(("board" + std::to_string(b)).c_str(), *boards_.back(), link_,
                                              uint64_t(hwdef::CLK_PERIOD_PS) * 1000, sync_.get(), &end_fs_,
                                              &wait_cpu_s_, &free_from_, &boards_));
    clocks_.back()->windowed = windowed;
  }
  if (clocks_.size() == 1 && !windowed) clocks_.front()->batch = true;
  calibrate();
  // The time the host starts from, before its thread can read it: else it
  // may read a boundary of the bring-up, one window earlier, on one run and
  // not on another.
  link_.now_fs.store(sim_fs(), std::memory_order_release);
  if (part_.rank() != 0) return;
  server_ = std::make_unique<BoardServer>(buses, options.port, link_, options.server);
  server_->start();
}

Board* Cosim::local(int id) const {
  for (const auto& b : boards_)
    if (b->id() == id) return b.get();
  return nullptr;
}

// Bring-up: every board's tune table gets the reference laser calibration
// over its own bus, as a board's start-up would load it, before any host
// connects.
void Cosim::calibrate() {
  const auto table = reference_tune_ticks(hwdef::WAVELENGTHS, hwdef::TICK_PS);
  std::vector<BusRequest> reqs(boards_.size() * 3);
  std::vector<std::future<BusRequest::Result>> done;
  auto write = [&](size_t b, size_t slot, uint32_t addr, std::vector<uint32_t> words) {
    BusRequest& r = reqs[3 * b + slot];
    r.kind = BusRequest::Kind::kWrite;
    r.addr = addr;
    r.data = std::move(words);
    done.push_back(r.done.get_future());
    boards_[b]->bus().push(&r);
  };
  for (size_t b = 0; b < boards_.size(); ++b) {
    write(b, 0, hwdef::MEM_TUNE_BASE, std::vector<uint32_t>(table.begin(), table.end()));
    if (!sync_) continue;
    // The servo's settings, as a board's bring-up script would write them
    // (the host may change them later: `lightrail sync calibrate`).
    const sync::ClockSyncConfig c = sync_->initial_config(boards_[b]->id());
    static_assert(hwdef::REG_SYNC_EXCHANGE_PERIOD + 4 == hwdef::REG_SYNC_CAL_DELAY_MS_PS);
    write(b, 1, hwdef::REG_SYNC_EXCHANGE_PERIOD,
          {sync_->exchange_period_cycles(), uint32_t(c.cal_delay_ms_ps), uint32_t(c.cal_delay_sm_ps),
           uint32_t(c.cal_asym_ps)});
    write(b, 2, hwdef::REG_SYNC_KP,
          {c.kp_q16, c.ki_q16, c.lock_thresh_ps, c.lock_samples, c.slew_max_ns_per_s, c.dac_pull_ppb,
           c.phase_step_fs});
  }
  std::vector<BusRequest> ctrl(sync_ ? boards_.size() : 0);
  for (size_t b = 0; b < ctrl.size(); ++b) {
    const sync::ClockSyncConfig c = sync_->initial_config(boards_[b]->id());
    ctrl[b].kind = BusRequest::Kind::kWrite;
    ctrl[b].addr = hwdef::REG_SYNC_CTRL;
    ctrl[b].data = {(c.enable ? hwdef::SYNC_CTRL_ENABLE_MASK : 0u) |
                    (c.use_ddmtd ? hwdef::SYNC_CTRL_USE_DDMTD_MASK : 0u) |
                    (c.serves ? hwdef::SYNC_CTRL_SERVES_MASK : 0u) |
                    (sync_->link_reference(boards_[b]->id()) ? hwdef::SYNC_CTRL_REFERENCE_MASK : 0u)};
    done.push_back(ctrl[b].done.get_future());
    boards_[b]->bus().push(&ctrl[b]);
  }
  auto ready = [](std::future<BusRequest::Result>& d) {
    return d.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  };
  if (part_.active()) {
    // Every process runs the same windows until every board is calibrated.
    for (uint64_t t = 0;; t += window_fs_) {
      const bool mine = std::all_of(done.begin(), done.end(), ready);
      const auto all = part_.allgather(std::string(1, mine ? '1' : '0'));
      if (std::all_of(all.begin(), all.end(), [](const std::string& x) { return x == "1"; })) break;
      if (t > 1000000000000)
        throw std::runtime_error("calibrating the tune table: the bus did not answer within 1 ms");
      boundary(false, false);
      advance(window_fs_);
    }
  }
  for (auto& d : done) {
    // A few bus cycles per word; a board that takes far longer is broken.
    for (int us = 0; !ready(d); ++us) {
      if (us > 1000)
        throw std::runtime_error("calibrating the tune table: the bus did not answer within 1 ms");
      advance(1000000000);
    }
    const auto r = d.get();
    if (!r.ok) throw std::runtime_error("calibrating the tune table failed: " + r.error);
  }
}

Cosim::~Cosim() {
  rtl_coverage::write_default("cosim", part_.rank());  // boards still alive
  link_.stop = true;
  link_.ended = true;
  if (server_) server_->stop();
}

namespace {

// Host requests reach the boards through the server thread (or a scenario's
// host thread). Were the simulation thread to compete with it, or with the
// host program, for a core, board time would run on while a request waits
// for one: a delay of milliseconds of wall time, so tens of microseconds of
// board time, that no PCIe or AXI write has. Niced, the simulation yields
// the core whenever a request is ready. Linux nices threads one by one.
void yield_to_the_host() {
#ifdef __linux__
  thread_local bool done = false;
  if (done) return;
  done = true;
  const auto tid = static_cast<id_t>(syscall(SYS_gettid));
  errno = 0;
  const int now = getpriority(PRIO_PROCESS, tid);
  if (errno == 0) setpriority(PRIO_PROCESS, tid, std::min(now + 10, 19));
#endif
}

}  // namespace

// The process's peak resident memory so far, KiB.
long max_rss_kib() {
#ifdef __linux__
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) == 0) return u.ru_maxrss;
#endif
  return -1;
}

// CPU time of the calling thread: the simulation's own work, whatever else
// the machine runs (wall time on a shared machine measures the others too).
double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void Cosim::run(std::optional<uint64_t> until_fs) {
  yield_to_the_host();
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = thread_cpu_s(), wait0 = wait_cpu_s_;
  free_from_ = {cpu0, 0};
  for (const auto& b : boards_) free_from_.second += b->cycles();
  if (part_.active()) {
    const uint64_t end = until_fs ? sim_fs() + *until_fs : std::numeric_limits<uint64_t>::max();
    while (boundary(true, sim_fs() >= end)) advance(std::min(next_window_fs_, end - sim_fs()));
    end_requests();
  } else {
    advance(until_fs);
  }
  wall_s_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu1 = thread_cpu_s();
  cpu_s_ += cpu1 - cpu0 - (wait_cpu_s_ - wait0);
  free_cpu_s_ = cpu1 - free_from_.first;
  free_cycles_ = 0;
  for (const auto& b : boards_) free_cycles_ += b->cycles();
  free_cycles_ -= free_from_.second;
  link_.stop = true;
  for (auto& b : boards_) {
    b->fail_pending("simulation ended");
    b->probe().flush();  // the report judges everything settled by the end
  }
  link_.ended = true;
}

namespace {

void put_words(Wire& w, const std::vector<uint32_t>& words) {
  w.put(uint64_t(words.size()));
  for (uint32_t x : words) w.put(x);
}

std::vector<uint32_t> get_words(WireReader& r) {
  std::vector<uint32_t> words(r.get<uint64_t>());
  for (uint32_t& x : words) x = r.get<uint32_t>();
  return words;
}

}  // namespace

bool Cosim::boundary(bool host, bool at_end) {
  const uint64_t now = sim_fs();
  // Before any answer reaches the host, which reads the time it came at.
  if (part_.rank() == 0) link_.now_fs.store(now, std::memory_order_release);
  Wire out;
  if (sync_) sync_->export_window(out);
  for (auto it = incoming_.begin(); it != incoming_.end();) {
    if (it->done.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      ++it;
      continue;
    }
    const BusRequest::Result r = it->done.get();
    out.put(it->id);
    out.put(uint8_t(r.ok));
    out.put_bytes(r.error);
    put_words(out, r.data);
    out.put_bytes(r.text);
    out.put(r.sim_fs);
    out.put(r.axi_resp);
    out.put(r.failed_word);
    it = incoming_.erase(it);
  }
  for (const std::string& part : part_.allgather(out.take())) {
    WireReader in(part);
    if (sync_) sync_->import_window(in);
    while (!in.done()) {
      const auto id = in.get<uint64_t>();
      BusRequest::Result r;
      r.ok = in.get<uint8_t>() != 0;
      r.error = in.get_bytes();
      r.data = get_words(in);
      r.text = in.get_bytes();
      r.sim_fs = in.get<uint64_t>();
      r.axi_resp = in.get<uint32_t>();
      r.failed_word = in.get<uint32_t>();
      const auto f = forwarded_.find(id);
      if (f == forwarded_.end()) continue;  // not rank 0
      BusRequest* req = f->second;
      forwarded_.erase(f);
      answer(req, std::move(r));
    }
  }
  Wire ctl;
  if (part_.rank() == 0) {
    if (host && !at_end && link_.must_wait(now)) {
      // Waiting for the host is not the boards' work: kept out of cpu_s.
      const double cpu0 = thread_cpu_s();
      while (link_.must_wait(now)) std::this_thread::sleep_for(std::chrono::microseconds(20));
      wait_cpu_s_ += thread_cpu_s() - cpu0;
    }
    ctl.put(uint8_t(at_end || link_.stop.load()));
    Wire requests;
    for (size_t b = 0; b < mailboxes_.size(); ++b)
      while (BusRequest* r = mailboxes_[b]->pop()) {
        const uint64_t id = next_request_++;
        forwarded_[id] = r;
        requests.put(id);
        requests.put(int32_t(b));
        requests.put(uint8_t(r->kind));
        requests.put(r->addr);
        requests.put(r->count);
        put_words(requests, r->data);
      }
    // The next window: one clock cycle while a host request is out, so its
    // answer comes back within a cycle of its last bus beat, as in one
    // process (a host staging a schedule makes hundreds of requests); and
    // ending at the time the host waits for, so it acts there, not up to a
    // window later. Both depend only on the host's requests and times,
    // which run the same whatever the split.
    uint64_t next =
        forwarded_.empty() ? window_fs_ : std::min<uint64_t>(window_fs_, hwdef::CLK_PERIOD_PS * 1000);
    const uint64_t barrier = link_.barrier_fs.load(std::memory_order_acquire);
    if (host && barrier > now) next = std::min(next, barrier - now);
    ctl.put(next);
    ctl.put_bytes(requests.take());
  }
  const std::string c = part_.broadcast(ctl.take());
  WireReader ctl_in(c);
  const bool stop = ctl_in.get<uint8_t>() != 0;
  next_window_fs_ = ctl_in.get<uint64_t>();
  const std::string reqs = ctl_in.get_bytes();
  WireReader in(reqs);
  while (!in.done()) {
    Incoming x;
    x.id = in.get<uint64_t>();
    const int b = in.get<int32_t>();
    x.req = std::make_unique<BusRequest>();
    x.req->kind = BusRequest::Kind(in.get<uint8_t>());
    x.req->addr = in.get<uint32_t>();
    x.req->count = in.get<uint32_t>();
    x.req->data = get_words(in);
    Board* mine = local(b);
    if (!mine) continue;
    x.done = x.req->done.get_future();
    mine->bus().push(x.req.get());
    incoming_.push_back(std::move(x));
  }
  return !stop;
}

// What the run leaves unanswered fails, as a board's would.
void Cosim::end_requests() {
  auto fail = [](BusRequest* r) {
    BusRequest::Result res;
    res.ok = false;
    res.error = "simulation ended";
    answer(r, std::move(res));
  };
  for (auto& [id, r] : forwarded_) fail(r);
  forwarded_.clear();
  for (auto& m : mailboxes_)
    while (BusRequest* r = m->pop()) fail(r);
}

void Cosim::advance(std::optional<uint64_t> fs) {
  if (fs) {
    end_fs_ = sim_fs() + *fs;
    sc_core::sc_start(sc_core::sc_time(double(*fs), sc_core::SC_FS));
  } else {
    end_fs_ = std::numeric_limits<uint64_t>::max();
    sc_core::sc_start();
  }
}

uint64_t Cosim::sim_fs() const { return sc_core::sc_time_stamp().value(); }

nlohmann::json Cosim::report() const {
  // This process's part; in a partitioned run, every rank's, merged on rank 0.
  nlohmann::json boards = nlohmann::json::array(), boundaries = nlohmann::json::array();
  for (const auto& b : boards_) {
    boards.push_back(b->figures());
    if (sync_ && !sync_->is_baseline(b->id())) boundaries.push_back(b->probe().boundaries());
  }
  const nlohmann::json mine = {{"boards", boards},
                               {"boundaries", boundaries},
                               {"sync", sync_ ? sync_->partial_report() : nlohmann::json(nullptr)},
                               {"ok", correct()},
                               {"max_rss_kib", max_rss_kib()}};
  std::vector<nlohmann::json> parts;
  if (part_.active()) {
    for (const std::string& p : part_.allgather(mine.dump())) parts.push_back(nlohmann::json::parse(p));
    if (part_.rank() != 0) return nullptr;
  } else {
    parts.push_back(mine);
  }
  std::map<int, nlohmann::json> by_board;
  bool ok = true;
  for (const auto& p : parts) {
    for (const auto& f : p["boards"]) by_board[f["board"].get<int>()] = f;
    ok = ok && p["ok"].get<bool>();
  }
  boards = nlohmann::json::array();
  uint64_t cycles = 0, switch_events = 0, missed = 0, unexpected = 0, misdelivered = 0, dark = 0, packets = 0,
           delivered = 0;
  double err = 0;
  for (auto& [id, f] : by_board) {
    cycles += f["cycles"].get<uint64_t>();
    switch_events += f["switch_events"].get<uint64_t>();
    missed += f["missed_steps"].get<uint64_t>();
    unexpected += f["unexpected_events"].get<uint64_t>();
    misdelivered += f["misdelivered_packets"].get<uint64_t>();
    dark += f["dark_violations"].get<uint64_t>();
    packets += f["packets_sent"].get<uint64_t>();
    delivered += f["packets_delivered"].get<uint64_t>();
    err = std::max(err, f["timing_error_ps_max"].get<double>());
    boards.push_back(std::move(f));
  }
  nlohmann::json r = {{"switch_events", switch_events},
                      {"timing_error_ps_max", err},
                      {"missed_steps", missed},
                      {"unexpected_edges", unexpected},
                      {"misdelivered_packets", misdelivered},
                      {"dark_violations", dark},
                      {"packets_sent", packets},
                      {"packets_delivered", delivered},
                      {"board_cycles", cycles},
                      {"board_cycles_per_s", wall_s_ > 0 ? double(cycles) / wall_s_ : 0.0},
                      {"sim_time_ps", double(sim_fs()) / 1000.0},
                      {"wall_s", wall_s_},
                      {"cpu_s", cpu_s_},
                      {"boards", boards},
                      {"sync", sync_ ? sync_report(parts) : nlohmann::json(nullptr)},
                      {"ok", ok}};
  if (part_.active()) {
    // Each rank's boards and peak memory (the process's, its SystemC kernel
    // and every clock model included), for memory per board.
    nlohmann::json boards_per_rank = nlohmann::json::array(), rss = nlohmann::json::array();
    for (const auto& p : parts) {
      boards_per_rank.push_back(p["boards"].size());
      rss.push_back(p["max_rss_kib"]);
    }
    r["partition"] = {{"ranks", part_.ranks()},
                      {"window_ps", double(window_fs_) / 1000.0},
                      {"boards_per_rank", boards_per_rank},
                      {"max_rss_kib_per_rank", rss}};
  } else {
    // Since the host last held the simulation (its last action's end): the
    // boards running on their own. (A partitioned run's ranks do not share
    // that instant.)
    r["free_running"] = {{"cycles", free_cycles_}, {"cpu_s", free_cpu_s_}};
  }
  return r;
}

// The sync engine's figures plus the step-boundary skew across the
// synchronised boards: for every boundary at least two of them switched at
// after the measurement start, the spread of the instants they switched at
// (boards of a rail run different schedules and share only some boundaries:
// the commit and the phase boundaries).
nlohmann::json Cosim::sync_report(const std::vector<nlohmann::json>& parts) const {
  std::vector<nlohmann::json> sync_parts;
  for (const auto& p : parts) sync_parts.push_back(p["sync"]);
  nlohmann::json r = sync_->merge_reports(sync_parts);
  std::map<uint64_t, std::pair<int64_t, int64_t>> span;  // tick -> (min, max) fs
  std::map<uint64_t, int> seen;
  for (const auto& p : parts)
    for (const auto& board : p["boundaries"]) {
      for (const auto& tf : board) {
        const auto tick = tf[0].get<uint64_t>();
        const auto fs = tf[1].get<int64_t>();
        auto [it, fresh] = span.try_emplace(tick, fs, fs);
        if (!fresh) it->second = {std::min(it->second.first, fs), std::max(it->second.second, fs)};
        ++seen[tick];
      }
    }
  std::vector<double> skew;
  const int64_t from = r.value("measure_from_ps", int64_t(0)) * 1000;
  for (const auto& [tick, mm] : span)
    if (seen[tick] >= 2 && mm.first >= from) skew.push_back(double(mm.second - mm.first) / 1000.0);
  std::sort(skew.begin(), skew.end());
  r["slot_skew_boundaries"] = skew.size();
  r["slot_skew_ps_p99"] =
      skew.empty() ? nlohmann::json(nullptr)
                   : nlohmann::json(skew[std::min(skew.size() - 1, size_t(0.99 * double(skew.size())))]);
  r["slot_skew_ps_max"] = skew.empty() ? nlohmann::json(nullptr) : nlohmann::json(skew.back());
  // The distribution for a picture: every skew, or, of a long run,
  // kSkewSamples order statistics evenly spaced from the least to the
  // greatest (equal shares of the boundaries between neighbours).
  constexpr size_t kSkewSamples = 2048;
  nlohmann::json samples = nlohmann::json::array();
  for (size_t i = 0, n = std::min(skew.size(), kSkewSamples); i < n; ++i)
    samples.push_back(skew[n == skew.size() ? i : i * (skew.size() - 1) / (n - 1)]);
  r["slot_skew_ps_samples"] = samples;
  return r;
}

bool Cosim::correct() const {
  return std::all_of(boards_.begin(), boards_.end(), [](const auto& b) { return b->correct(); });
}

}  // namespace lightrail::sim
