#include "board_harness.hpp"

#include <cstdlib>

namespace lightrail::seq::test {

using namespace hwdef;

std::ostream& operator<<(std::ostream& os, const Edge& e) {
  static const char* const kNames[] = {"select", "fall", "rise"};
  os << kNames[static_cast<int>(e.kind)] << "(port " << e.port << " @" << e.tick;
  if (e.kind == EdgeKind::kSelect) os << " -> " << e.value;
  return os << ")";
}

uint16_t test_tune(uint32_t from, uint32_t to) {
  if (from == to) return 0;
  return static_cast<uint16_t>(4 + (from > to ? from - to : to - from));
}

Board::Board() {
  bank_[0].assign(MEM_BANK0_WORDS, 0);
  bank_[1].assign(MEM_BANK1_WORDS, 0);
  for (uint32_t a = 0; a < WAVELENGTHS; ++a) {
    for (uint32_t b = 0; b < WAVELENGTHS; ++b) {
      SequencerIn in;
      in.tune_we = true;
      in.tune_addr = static_cast<uint16_t>(a * WAVELENGTHS + b);
      in.tune_wdata = test_tune(a, b);
      cycle(in);
    }
  }
  // Board time starts once calibration is loaded, so tests can name small
  // absolute times (the kernel holds no state tied to earlier ticks).
  now_ = 0;
}

void Board::write_tune(uint32_t from, uint32_t to, uint16_t ticks) {
  SequencerIn in;
  in.tune_we = true;
  in.tune_addr = static_cast<uint16_t>(from * WAVELENGTHS + to);
  in.tune_wdata = ticks;
  cycle(in);
}

void Board::load_bank(int bank, const std::vector<uint32_t>& words) { bank_[bank] = words; }

const SequencerOut& Board::cycle(SequencerIn in) {
  in.now_ticks = now_;
  for (int b = 0; b < 2; ++b) {
    for (uint32_t w = 0; w < BANK_LINE_WORDS; ++w) {
      in.bank_rdata[b][w] = bank_[b][size_t{raddr_[b]} * BANK_LINE_WORDS + w];
    }
  }
  sequencer_step(state_, in, out_);
  raddr_[0] = out_.bank_raddr[0];
  raddr_[1] = out_.bank_raddr[1];
  const uint64_t window = now_ + uint64_t{OUTPUT_LATENCY_CYCLES} * FINE_STEPS;
  for (uint32_t p = 0; p < PORTS; ++p) {
    const uint32_t bit = 1u << p;
    if (out_.sel_valid & bit) emit({EdgeKind::kSelect, p, window + out_.sel_fine[p], out_.sel_value[p]});
    if (out_.fall_valid & bit) emit({EdgeKind::kFall, p, window + out_.fall_fine[p]});
    if (out_.rise_valid & bit) emit({EdgeKind::kRise, p, window + out_.rise_fine[p]});
  }
  now_ += FINE_STEPS;
  return out_;
}

void Board::reset(uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; ++i) {
    sequencer_reset(state_);
    raddr_[0] = raddr_[1] = 0;
    out_ = SequencerOut{};
  }
  now_ = 0;
}

void Board::emit(const Edge& e) {
  if (record) edges.push_back(e);
  if (on_edge) on_edge(e);
}

void Board::run(uint64_t cycles) {
  for (uint64_t i = 0; i < cycles; ++i) cycle();
}

void Board::run_until_tick(uint64_t tick) {
  while (now_ < tick) cycle();
}

uint32_t Board::inactive_crc() const {
  const int inactive = status(STATUS_ACTIVE_BANK_MASK) ? 0 : 1;
  return bank_[inactive][IMG_HDR_CRC];
}

void Board::commit_epoch() {
  SequencerIn in;
  in.commit = true;
  in.commit_crc = inactive_crc();
  cycle(in);
}

void Board::commit_at(uint64_t ticks) {
  SequencerIn in;
  in.commit = true;
  in.commit_at_time = true;
  in.commit_ticks = ticks;
  in.commit_crc = inactive_crc();
  cycle(in);
}

void Board::cancel() {
  SequencerIn in;
  in.cancel = true;
  cycle(in);
}

void Board::trigger() {
  SequencerIn in;
  in.trigger = true;
  cycle(in);
}

void Board::trigger_at(uint64_t ticks) {
  SequencerIn in;
  in.trigger_at = true;
  in.trigger_ticks = ticks;
  cycle(in);
}

void Board::stop() {
  SequencerIn in;
  in.stop = true;
  cycle(in);
}

std::vector<Edge> Board::edges_of(uint32_t port) const {
  std::vector<Edge> r;
  for (const Edge& e : edges) {
    if (e.port == port) r.push_back(e);
  }
  return r;
}

std::vector<uint64_t> Board::ticks_of(EdgeKind kind, uint32_t port) const {
  std::vector<uint64_t> r;
  for (const Edge& e : edges) {
    if (e.port == port && e.kind == kind) r.push_back(e.tick);
  }
  return r;
}

std::vector<std::pair<uint64_t, bool>> Board::gate_of(uint32_t port) const {
  // Per output cycle (board time starts at 0, so cycles start at multiples
  // of FINE_STEPS): a fall at f makes ticks >= f low, a rise at r ticks >= r
  // high, the later one winning from its tick on (the fall first on a tie).
  std::vector<std::pair<uint64_t, bool>> changes;
  bool level = false;
  size_t i = 0;
  while (i < edges.size()) {
    const uint64_t cycle = edges[i].tick / FINE_STEPS;
    int fall = -1, rise = -1;
    for (; i < edges.size() && edges[i].tick / FINE_STEPS == cycle; ++i) {
      const Edge& e = edges[i];
      const int fine = static_cast<int>(e.tick % FINE_STEPS);
      if (e.port == port && e.kind == EdgeKind::kFall) fall = fine;
      if (e.port == port && e.kind == EdgeKind::kRise) rise = fine;
    }
    const bool carried = level;
    for (int k = 0; k < static_cast<int>(FINE_STEPS); ++k) {
      const bool fallen = fall >= 0 && k >= fall, risen = rise >= 0 && k >= rise;
      const bool bit = fall <= rise ? ((carried && !fallen) || risen) : ((carried || risen) && !fallen);
      if (bit != level) changes.emplace_back(cycle * FINE_STEPS + static_cast<uint64_t>(k), bit);
      level = bit;
    }
  }
  return changes;
}

}  // namespace lightrail::seq::test
