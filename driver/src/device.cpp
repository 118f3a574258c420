#include "lightrail/device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>
#include <utility>

#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"
#include "lightrail/image_crc.hpp"
#include "lightrail/validate.hpp"

namespace lightrail {
namespace {

namespace hw = hwdef;

// The flags a commit can raise; each means the commit was dropped.
constexpr uint32_t kCommitFlags = hw::ERROR_BAD_MAGIC_MASK | hw::ERROR_BAD_VERSION_MASK |
                                  hw::ERROR_BAD_BOUNDS_MASK | hw::ERROR_BAD_CRC_MASK |
                                  hw::ERROR_COMMIT_LATE_MASK | hw::ERROR_COMMIT_MISMATCH_MASK |
                                  hw::ERROR_COMMIT_FAR_MASK | hw::ERROR_COMMIT_BUSY_MASK;
constexpr int64_t kCommitHorizonPs = int64_t{hw::COMMIT_HORIZON_S} * 1000000000000;
// Reads of TRIGGERED_AT while TRIGGERS keeps moving (event steps of a few
// cycles each) before status() settles for a boundary newer than its count.
constexpr int kTriggerReadAttempts = 3;
// Reads of TRIGGERS after a jump while an event step waits (each read takes
// longer than the few cycles a jump's fetch adds).
constexpr int kJumpReadAttempts = 4;

uint32_t random_token() {
  std::random_device rd;
  uint32_t t = 0;
  while (t == 0) t = rd();
  return t;
}

uint32_t field(uint32_t value, uint32_t mask, uint32_t lsb) { return (value & mask) >> lsb; }

uint32_t bank_base(uint32_t bank) { return bank == 0 ? hw::MEM_BANK0_BASE : hw::MEM_BANK1_BASE; }

}  // namespace

std::vector<std::string> error_flag_names(uint32_t value) {
  std::vector<std::string> names;
  for (const hw::Flag& f : hw::ERROR_FLAGS) {
    if (value & f.mask) names.emplace_back(f.name);
  }
  return names;
}

Device Device::open(const std::string& uri) { return Device(open_transport(uri)); }

Device::Device(std::unique_ptr<Transport> transport)
    : transport_(std::move(transport)), token_(random_token()) {
  uri_ = transport_->uri();
  read_capabilities();
}

Device::~Device() { release_quietly(); }

void Device::release_quietly() noexcept {
  if (!transport_ || !holds_lease_) return;
  try {
    release();
  } catch (const std::exception&) {
    // The lease expires by itself; a destructor must not throw.
  }
}

Device::Device(Device&& other) noexcept
    : transport_(std::move(other.transport_)),
      uri_(std::move(other.uri_)),
      caps_(std::move(other.caps_)),
      board_id_(other.board_id_),
      commit_timeout_(other.commit_timeout_),
      token_(other.token_),
      holds_lease_(std::exchange(other.holds_lease_, false)),
      claimed_at_(other.claimed_at_),
      lease_ttl_(other.lease_ttl_),
      staged_(std::exchange(other.staged_, std::nullopt)) {}

Device& Device::operator=(Device&& other) noexcept {
  if (this == &other) return *this;
  // The board this Device writes is left as the destructor leaves it.
  release_quietly();
  transport_ = std::move(other.transport_);
  uri_ = std::move(other.uri_);
  caps_ = std::move(other.caps_);
  board_id_ = other.board_id_;
  commit_timeout_ = other.commit_timeout_;
  token_ = other.token_;
  holds_lease_ = std::exchange(other.holds_lease_, false);
  claimed_at_ = other.claimed_at_;
  lease_ttl_ = other.lease_ttl_;
  staged_ = std::exchange(other.staged_, std::nullopt);
  return *this;
}

BoardTime Device::from_ticks(uint64_t ticks) const {
  return board_time_ps(static_cast<int64_t>(ticks) * caps_.tick_ps());
}

void Device::set_lease_token(uint32_t token) {
  if (token == 0) throw Error(fmt::format("{}: a lease token must not be 0 (0 means free)", uri_));
  if (holds_lease_) release();
  token_ = token;
}

LeaseInfo Device::lease() {
  const uint32_t words = (hw::REG_LEASE_TTL_MS - hw::REG_LEASE_OWNER) / 4 + 1;
  const std::vector<uint32_t> r = transport_->read_block(hw::REG_LEASE_OWNER, words);
  auto reg = [&](uint32_t offset) { return r.at((offset - hw::REG_LEASE_OWNER) / 4); };
  LeaseInfo l;
  l.owner = reg(hw::REG_LEASE_OWNER);
  l.mine = l.owner != 0 && l.owner == token_;
  const uint64_t expires = (uint64_t{reg(hw::REG_LEASE_EXPIRES_HI)} << 32) | reg(hw::REG_LEASE_EXPIRES_LO);
  l.expires = l.owner != 0 ? from_ticks(expires) : BoardTime();
  l.ttl = std::chrono::milliseconds(reg(hw::REG_LEASE_TTL_MS));
  return l;
}

void Device::take_lease(uint32_t reg, std::chrono::milliseconds ttl) {
  if (ttl.count() < 1 || ttl.count() > hw::LEASE_TTL_MAX_MS) {
    throw Error(
        fmt::format("{}: lease lifetime {} ms is outside 1..{} ms", uri_, ttl.count(), hw::LEASE_TTL_MAX_MS));
  }
  if (ttl != lease_ttl_ || !holds_lease_) {
    transport_->write32(hw::REG_LEASE_TTL_MS, static_cast<uint32_t>(ttl.count()));
    lease_ttl_ = ttl;
  }
  // The board refuses a claim with SLVERR while another token holds it; a
  // holder that lets go between that refusal and our look is retried.
  for (int attempt = 0;; ++attempt) {
    try {
      transport_->write32(reg, token_);
      break;
    } catch (const TransportError&) {
      const LeaseInfo l = lease();
      if (l.mine) throw;                          // the refusal was something else
      if (l.owner == 0 && attempt < 3) continue;  // released in between
      if (l.owner == 0) throw;
      holds_lease_ = false;
      const int64_t left_ms = std::max<int64_t>(
          0, std::chrono::duration_cast<std::chrono::milliseconds>(l.expires - time()).count());
      throw LeaseError(fmt::format("{}: another writer holds this board (lease token 0x{:08X}, {} ms of "
                                   "board time left); nothing was changed. Wait for it, or break the lease "
                                   "deliberately if its holder is gone (lightrail lease break --device {})",
                                   uri_, l.owner, left_ms, uri_),
                       l.owner);
    }
  }
  holds_lease_ = true;
  claimed_at_ = std::chrono::steady_clock::now();
}

void Device::claim(std::chrono::milliseconds ttl) { take_lease(hw::REG_LEASE_CLAIM, ttl); }

void Device::break_lease(std::chrono::milliseconds ttl) { take_lease(hw::REG_LEASE_BREAK, ttl); }

void Device::ensure_lease() {
  if (holds_lease_ && std::chrono::steady_clock::now() - claimed_at_ < lease_ttl_ / 2) return;
  take_lease(hw::REG_LEASE_CLAIM, lease_ttl_);
}

void Device::release() {
  if (!holds_lease_) return;
  holds_lease_ = false;
  try {
    transport_->write32(hw::REG_LEASE_RELEASE, token_);
  } catch (const TransportError&) {
    // Expired and taken by another since: it is not ours to release.
    if (lease().owner == token_) throw;
  }
}

void Device::throw_lease_lost(const std::string& what) {
  holds_lease_ = false;
  const LeaseInfo l = lease();
  throw LeaseError(
      fmt::format("{}: {} refused: this program no longer holds the lease (held by {}); "
                  "nothing was changed",
                  uri_, what,
                  l.owner == 0 ? std::string("nobody: it expired") : fmt::format("token 0x{:08X}", l.owner)),
      l.owner);
}

void Device::read_capabilities() {
  const uint32_t words = (hw::REG_CAP_BUILD_TIME - hw::REG_CAP_MAGIC) / 4 + 1;
  const std::vector<uint32_t> cap = transport_->read_block(hw::REG_CAP_MAGIC, words);
  auto at = [&](uint32_t reg) { return cap.at((reg - hw::REG_CAP_MAGIC) / 4); };
  if (at(hw::REG_CAP_MAGIC) != hw::CAP_MAGIC_VALUE) {
    throw FormatError(
        fmt::format("{}: capability magic at 0x{:05X} is 0x{:08X}, not 0x{:08X} ('LRAL'): not a "
                    "lightrail board",
                    uri_, hw::REG_CAP_MAGIC, at(hw::REG_CAP_MAGIC), hw::CAP_MAGIC_VALUE));
  }
  if (at(hw::REG_CAP_VERSION) != hw::REGMAP_VERSION) {
    throw FormatError(
        fmt::format("{}: register map version {} (CAP_VERSION) is not the {} this driver speaks", uri_,
                    at(hw::REG_CAP_VERSION), hw::REGMAP_VERSION));
  }
  caps_.ports = at(hw::REG_CAP_PORTS);
  caps_.wavelengths = at(hw::REG_CAP_WAVELENGTHS);
  caps_.max_steps = at(hw::REG_CAP_MAX_STEPS);
  caps_.max_configs = at(hw::REG_CAP_MAX_CONFIGS);
  caps_.fine_steps = at(hw::REG_CAP_FINE_STEPS);
  caps_.clk_period_ps = at(hw::REG_CAP_CLK_PERIOD_PS);
  caps_.min_step_cycles = at(hw::REG_CAP_MIN_STEP_CYCLES);
  board_id_ = at(hw::REG_CAP_BOARD_ID);
  caps_.build.source_hash = uint64_t{at(hw::REG_CAP_BUILD_HASH_HI)} << 32 | at(hw::REG_CAP_BUILD_HASH_LO);
  caps_.build.build_time = at(hw::REG_CAP_BUILD_TIME);
  caps_.build.regmap_version = at(hw::REG_CAP_VERSION);

  // What the image layout and tune memory can hold bounds what a board may claim.
  auto check = [&](const char* name, uint64_t value, uint64_t lo, uint64_t hi) {
    if (value < lo || value > hi) {
      throw FormatError(fmt::format("{}: capability {} = {} is outside what this driver supports ({}..{})",
                                    uri_, name, value, lo, hi));
    }
  };
  check("CAP_PORTS", caps_.ports, 1, hw::IMG_CONFIG_WORDS * (32 / hw::IMG_PORT_BITS));
  check("CAP_WAVELENGTHS", caps_.wavelengths, 1, hw::WAVELENGTHS);
  check("CAP_MAX_STEPS", caps_.max_steps, 1, hw::MAX_STEPS);
  check("CAP_MAX_CONFIGS", caps_.max_configs, 1, hw::MAX_CONFIGS);
  check("CAP_FINE_STEPS", caps_.fine_steps, 1, 1u << 16);
  check("CAP_CLK_PERIOD_PS", static_cast<uint64_t>(caps_.clk_period_ps), 1, 1u << 30);
  if (caps_.clk_period_ps % caps_.fine_steps != 0) {
    throw FormatError(fmt::format("{}: CAP_CLK_PERIOD_PS {} is not a multiple of CAP_FINE_STEPS {}", uri_,
                                  caps_.clk_period_ps, caps_.fine_steps));
  }

  // tune(a,b) sits at a*WAVELENGTHS+b of the memory whatever W the board uses.
  const uint32_t w = caps_.wavelengths;
  const uint32_t span = (w - 1) * hw::WAVELENGTHS + w;
  const std::vector<uint32_t> table = transport_->read_block(hw::MEM_TUNE_BASE, span);
  caps_.tune_ticks.assign(size_t{w} * w, 0);
  for (uint32_t a = 0; a < w; ++a) {
    for (uint32_t b = 0; b < w; ++b) {
      caps_.tune_ticks[size_t{a} * w + b] = static_cast<uint16_t>(table[a * hw::WAVELENGTHS + b] & 0xFFFFu);
    }
  }
}

void Device::stage(const Schedule& schedule) {
  std::vector<Problem> problems = validate(schedule, caps_);
  if (!problems.empty()) throw ValidationError(std::move(problems));
  const std::vector<uint32_t> image = build_image(schedule, caps_);
  ensure_lease();
  // A lease broken by another writer since the last claim: say so before
  // writing into what may now be its staging.
  if (lease().owner != token_) throw_lease_lost("staging");
  staged_.reset();

  const uint32_t status = transport_->read32(hw::REG_STATUS);
  if (status & (hw::STATUS_COMMIT_PENDING_MASK | hw::STATUS_VERIFY_BUSY_MASK)) {
    throw BoardBusyError(fmt::format(
        "{}: a commit is {} on the inactive bank, which the board keeps locked; "
        "nothing was written (cancel it first, or wait for its swap)",
        uri_, (status & hw::STATUS_VERIFY_BUSY_MASK) ? "being verified" : "waiting for its swap boundary"));
  }
  const uint32_t active = field(status, hw::STATUS_ACTIVE_BANK_MASK, hw::STATUS_ACTIVE_BANK_LSB);
  const uint32_t bank = 1 - active;
  const uint32_t base = bank_base(bank);

  const std::vector<ImageSpan> spans = image_spans(image);
  for (const ImageSpan& span : spans) {
    try {
      transport_->write_block(base + 4u * span.first_word,
                              std::vector<uint32_t>(image.begin() + span.first_word,
                                                    image.begin() + span.first_word + span.words));
    } catch (const TransportError& e) {
      // SLVERR from a bank that became locked under this stage: another
      // writer committed or started it (the lease was broken).
      if (transport_->read32(hw::REG_ERROR) & hw::ERROR_LOCKED_WRITE_MASK) {
        throw Error(
            fmt::format("{}: bank {} refused the write (ERROR.LOCKED_WRITE: it became locked while "
                        "staging; another writer?): {}",
                        uri_, bank, e.what()));
      }
      throw;
    }
  }
  std::vector<uint32_t> readback(image.size(), 0);
  for (const ImageSpan& span : spans) {
    const std::vector<uint32_t> got = transport_->read_block(base + 4u * span.first_word, span.words);
    for (uint32_t i = 0; i < span.words; ++i) {
      const uint32_t word = span.first_word + i;
      if (got[i] != image[word]) {
        throw VerifyError(
            fmt::format("{}: bank {} word {} (address 0x{:05X}) reads back 0x{:08X}, wrote 0x{:08X}", uri_,
                        bank, word, base + 4 * word, got[i], image[word]));
      }
      readback[word] = got[i];
    }
  }
  const uint32_t crc = image_crc(readback);
  if (crc != readback[hw::IMG_HDR_CRC]) {
    throw VerifyError(fmt::format("{}: bank {} CRC word reads 0x{:08X}, the image computes to 0x{:08X}", uri_,
                                  bank, readback[hw::IMG_HDR_CRC], crc));
  }
  staged_ = Staged{bank, crc, readback[hw::IMG_HDR_GENERATION]};
}

CommitTicket Device::commit(CommitAt when) {
  if (!staged_) {
    throw Error(
        fmt::format("{}: nothing staged by this program to commit (stage a schedule first); nothing "
                    "was written",
                    uri_));
  }
  if (when.time) {
    const int64_t at = to_ps(*when.time);
    if (at < 0) throw Error(fmt::format("{}: commit time {} ps is negative", uri_, at));
    const int64_t now = to_ps(time());
    if (at - now > kCommitHorizonPs) {
      throw Error(
          fmt::format("{}: commit time {} ps is {} s ahead of board time {} ps, beyond the board's "
                      "horizon of {} s; the commit was not sent",
                      uri_, at, (at - now) / 1000000000000, now, hw::COMMIT_HORIZON_S));
    }
  }
  ensure_lease();
  // Clear stale commit flags so that what follows is this commit's verdict.
  transport_->write32(hw::REG_ERROR, kCommitFlags);
  CommitTicket ticket;
  ticket.uri = uri_;
  if (when.time) {
    const int64_t at = to_ps(*when.time);
    const int64_t tick = caps_.tick_ps();
    const auto ticks = static_cast<uint64_t>(at / tick + (at % tick >= (tick + 1) / 2 ? 1 : 0));
    ticket.at = from_ticks(ticks);
    transport_->write32(hw::REG_COMMIT_TIME_LO, static_cast<uint32_t>(ticks));
    transport_->write32(hw::REG_COMMIT_TIME_HI, static_cast<uint32_t>(ticks >> 32));
    transport_->write32(hw::REG_COMMIT_MODE, hw::COMMIT_MODE_AT_TIME_MASK);
  } else {
    transport_->write32(hw::REG_COMMIT_MODE, 0);
  }
  transport_->write32(hw::REG_COMMIT_CRC, staged_->crc);
  const uint32_t swaps_before = transport_->read32(hw::REG_SWAPS);
  try {
    transport_->write32(hw::REG_COMMIT, token_);
  } catch (const TransportError&) {
    if (lease().mine) throw;
    throw_lease_lost("the commit");
  }
  const Staged staged = *staged_;
  staged_.reset();  // one commit per stage: the bank is the board's now
  ticket.generation = staged.generation;
  ticket.swaps_before = swaps_before;

  const auto deadline = std::chrono::steady_clock::now() + commit_timeout_;
  for (int polls = 0;; ++polls) {
    if (!(transport_->read32(hw::REG_STATUS) & hw::STATUS_VERIFY_BUSY_MASK)) break;
    if (std::chrono::steady_clock::now() > deadline) {
      throw Error(
          fmt::format("{}: the board was still verifying the committed bank after {} ms (STATUS.VERIFY_BUSY)",
                      uri_, commit_timeout_.count()));
    }
    // A full bank verifies in about 2,100 cycles (~8.5 us at 250 MHz): poll
    // briskly, then back off so a stuck board does not load the host.
    if (polls > 10) std::this_thread::sleep_for(std::chrono::microseconds(polls > 2000 ? 1000 : 10));
  }
  const uint32_t errors = transport_->read32(hw::REG_ERROR) & kCommitFlags;
  if (errors != 0) {
    transport_->write32(hw::REG_ERROR, errors);
    std::vector<std::string> names;
    std::string detail;
    for (const hw::Flag& f : hw::ERROR_FLAGS) {
      if (!(errors & f.mask)) continue;
      names.emplace_back(f.name);
      detail += fmt::format("{}{} ({})", detail.empty() ? "" : ", ", f.name, f.meaning);
    }
    throw CommitError(fmt::format("{}: the board refused the commit: {}", uri_, detail), std::move(names));
  }
  // Accepted means waiting for its boundary, or already swapped in with
  // this Device's image.
  const bool pending = transport_->read32(hw::REG_STATUS) & hw::STATUS_COMMIT_PENDING_MASK;
  const bool swapped = transport_->read32(hw::REG_SWAPS) != swaps_before &&
                       transport_->read32(hw::REG_GENERATION) == staged.generation;
  if (!pending && !swapped) {
    throw CommitError(fmt::format("{}: the board dropped the commit without a verdict (a STOP or a cancel "
                                  "came in between); stage and commit again",
                                  uri_),
                      {"IGNORED"});
  }
  return ticket;
}

Swap Device::wait_for_swap(const CommitTicket& ticket, std::chrono::milliseconds timeout) {
  if (ticket.uri != uri_) {
    throw Error(fmt::format("{}: the commit ticket is for {}, not this board", uri_, ticket.uri));
  }
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + timeout;
  for (;;) {
    Status s = status();
    if (s.swaps != ticket.swaps_before) {
      // A status read is several registers in a row: the swap can land
      // between GENERATION and SWAPS, so a generation that is not the
      // ticket's is read once more before anything is concluded.
      if (s.generation != ticket.generation) s = status();
      // One writer commits at a time (the lease), so the next swap is this
      // commit's unless the bank was replaced by another writer meanwhile.
      if (s.generation != ticket.generation) {
        throw CommitError(fmt::format("{}: the board swapped to generation {} at {} ps, not to this "
                                      "commit's generation {}",
                                      uri_, s.generation, to_ps(s.last_swap), ticket.generation),
                          {"OTHER_GENERATION"});
      }
      return {s.last_swap, s.generation};
    }
    if (!s.commit_pending && !s.verify_busy) {
      // Neither waiting nor swapped: a cancel or a STOP dropped it.
      throw CommitError(fmt::format("{}: the commit of generation {} was dropped before its swap ({}); the "
                                    "previous schedule runs on",
                                    uri_, ticket.generation, s.cancelled ? "cancelled" : "a STOP or a reset"),
                        {s.cancelled ? "CANCELLED" : "DROPPED"});
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) {
      throw TimeoutError(fmt::format(
          "{}: no swap to generation {} within {} ms (board time now {} ps, commit time {}); the commit "
          "stays armed",
          uri_, ticket.generation, timeout.count(), to_ps(s.board_time),
          ticket.at ? fmt::format("{} ps", to_ps(*ticket.at)) : std::string("the next epoch boundary")));
    }
    // Board time runs no faster than host time (a co-simulated board's runs
    // slower), so sleeping the board time left never sleeps past the swap
    // on hardware; the poll never sleeps longer than 50 ms nor past the
    // deadline, and not under 1 ms.
    std::chrono::steady_clock::duration nap = std::chrono::milliseconds(50);
    if (ticket.at && *ticket.at > s.board_time) {
      nap = std::min(
          nap, std::chrono::duration_cast<std::chrono::steady_clock::duration>(*ticket.at - s.board_time));
    }
    nap = std::max<std::chrono::steady_clock::duration>(std::min(nap, deadline - now),
                                                        std::chrono::milliseconds(1));
    std::this_thread::sleep_for(nap);
  }
}

CancelOutcome Device::cancel() {
  ensure_lease();
  const uint32_t before = transport_->read32(hw::REG_STATUS);
  if (!(before & (hw::STATUS_COMMIT_PENDING_MASK | hw::STATUS_VERIFY_BUSY_MASK))) {
    return CancelOutcome::kNothingPending;
  }
  try {
    transport_->write32(hw::REG_CANCEL, token_);
  } catch (const TransportError&) {
    if (lease().mine) throw;
    throw_lease_lost("the cancel");
  }
  // Not cancelled: the swap boundary had begun to leave (it may still be
  // pending for a few cycles, or already show in SWAPS).
  return (transport_->read32(hw::REG_STATUS) & hw::STATUS_CANCELLED_MASK) ? CancelOutcome::kCancelled
                                                                          : CancelOutcome::kAlreadySwapped;
}

uint64_t Device::read64(uint32_t lo_reg) {
  // Reading LO latches HI, so LO goes first.
  const uint64_t lo = transport_->read32(lo_reg);
  const uint64_t hi = transport_->read32(lo_reg + 4);
  return (hi << 32) | lo;
}

Status Device::status() {
  // One block, in address order: each LO is read before its HI.
  const uint32_t words = (hw::REG_LAST_SWAP_HI - hw::REG_STATUS) / 4 + 1;
  const std::vector<uint32_t> r = transport_->read_block(hw::REG_STATUS, words);
  auto reg = [&](uint32_t offset) { return r.at((offset - hw::REG_STATUS) / 4); };
  auto reg64 = [&](uint32_t lo) { return (uint64_t{reg(lo + 4)} << 32) | reg(lo); };
  Status s;
  const uint32_t st = reg(hw::REG_STATUS);
  s.running = st & hw::STATUS_RUNNING_MASK;
  s.active_bank = static_cast<int>(field(st, hw::STATUS_ACTIVE_BANK_MASK, hw::STATUS_ACTIVE_BANK_LSB));
  s.commit_pending = st & hw::STATUS_COMMIT_PENDING_MASK;
  s.verify_busy = st & hw::STATUS_VERIFY_BUSY_MASK;
  s.waiting_trigger = st & hw::STATUS_WAITING_TRIGGER_MASK;
  s.cancelled = st & hw::STATUS_CANCELLED_MASK;
  s.errors = error_flag_names(reg(hw::REG_ERROR));
  s.steps = reg64(hw::REG_STEPS_LO);
  s.missed = reg(hw::REG_MISSED);
  s.cur_step = reg(hw::REG_CUR_STEP);
  s.cur_config = reg(hw::REG_CUR_CONFIG);
  s.generation = reg(hw::REG_GENERATION);
  s.epochs = reg(hw::REG_EPOCHS);
  s.swaps = reg(hw::REG_SWAPS);
  s.last_swap = from_ticks(reg64(hw::REG_LAST_SWAP_LO));
  // A trigger may resolve between two reads: TRIGGERED_AT is the boundary of
  // the count read before it (or of a later trigger), never of an earlier
  // one. So TRIGGERS first, then TRIGGERED_AT with TRIGGERS again; a count
  // that moved meanwhile is read again.
  s.triggers = transport_->read32(hw::REG_TRIGGERS);
  std::vector<uint32_t> trig;
  for (int attempt = 0; attempt < kTriggerReadAttempts; ++attempt) {
    // Through TRIGGERED_STEP: the kernel sets it with TRIGGERED_AT.
    trig = transport_->read_block(hw::REG_TRIGGERED_AT_LO,
                                  (hw::REG_TRIGGERED_STEP - hw::REG_TRIGGERED_AT_LO) / 4 + 1);
    if (trig[2] == s.triggers) break;
    if (attempt + 1 < kTriggerReadAttempts) s.triggers = trig[2];
  }
  s.last_trigger = from_ticks((uint64_t{trig[1]} << 32) | trig[0]);
  s.last_trigger_step = trig.back();
  s.board_time = from_ticks(reg64(hw::REG_TIME_LO));
  return s;
}

BoardTime Device::time() { return from_ticks(read64(hw::REG_TIME_LO)); }

void Device::trigger(std::optional<uint32_t> step) {
  ensure_lease();
  if (step) write_jump_step(*step);
  transport_->write32(hw::REG_CTRL, hw::CTRL_TRIGGER_MASK | (step ? hw::CTRL_TRIGGER_JUMP_MASK : 0u));
}

std::optional<BoardTime> Device::trigger_at(BoardTime t, std::optional<uint32_t> step) {
  if (to_ps(t) < 0) throw Error(fmt::format("{}: trigger time {} ps is negative", uri_, to_ps(t)));
  const TriggerTicket ticket = trigger_prepare(step);
  trigger_write_at(t, ticket.jump);
  return trigger_resolved(ticket);
}

// The step must be one of the running schedule's: N_STEPS of the active
// bank's header (the board checks the same, so a refusal here changes
// nothing it would have done).
void Device::write_jump_step(uint32_t step) {
  const uint32_t status = transport_->read32(hw::REG_STATUS);
  if (!(status & hw::STATUS_RUNNING_MASK)) {
    throw FormatError(fmt::format("{}: trigger", uri_),
                      {{"step", fmt::format("{}: no schedule runs, so there is no step to jump to", step)}});
  }
  const uint32_t bank = field(status, hw::STATUS_ACTIVE_BANK_MASK, hw::STATUS_ACTIVE_BANK_LSB);
  const uint32_t n_steps = transport_->read32(bank_base(bank) + 4 * hw::IMG_HDR_N_STEPS);
  if (step >= n_steps) {
    throw FormatError(fmt::format("{}: trigger", uri_),
                      {{"step", fmt::format("{} is outside the running schedule's {} steps (0..{})", step,
                                            n_steps, n_steps - 1)}});
  }
  transport_->write32(hw::REG_TRIGGER_STEP, step);
}

Device::TriggerTicket Device::trigger_prepare(std::optional<uint32_t> step) {
  ensure_lease();
  TriggerTicket ticket{transport_->read32(hw::REG_TRIGGERS), step.has_value()};
  if (step) write_jump_step(*step);
  return ticket;
}

void Device::trigger_write_at(BoardTime at, bool jump) {
  const int64_t t = to_ps(at);
  if (t < 0) throw Error(fmt::format("{}: trigger time {} ps is negative", uri_, t));
  const int64_t tick = caps_.tick_ps();
  const auto ticks = static_cast<uint64_t>(t / tick + (t % tick >= (tick + 1) / 2 ? 1 : 0));
  transport_->write_block(hw::REG_TRIGGER_TIME_LO,
                          {static_cast<uint32_t>(ticks), static_cast<uint32_t>(ticks >> 32)});
  transport_->write32(hw::REG_CTRL, hw::CTRL_TRIGGER_AT_MASK | (jump ? hw::CTRL_TRIGGER_JUMP_MASK : 0u));
}

std::optional<BoardTime> Device::trigger_resolved(const TriggerTicket& ticket) {
  // The kernel resolves a waiting event step in the cycle after the pulse;
  // a read takes longer than that. A jump resolves once its target step is
  // fetched, a few cycles later, which a long kernel pipeline can put
  // after the first read: while an event step still waits, it is to come.
  // STATUS before TRIGGERS: an event step no longer waiting has either
  // taken the jump (TRIGGERS, read after, shows it) or never waited.
  uint32_t triggers = transport_->read32(hw::REG_TRIGGERS);
  for (int attempt = 0; ticket.jump && triggers == ticket.triggers_before && attempt < kJumpReadAttempts;
       ++attempt) {
    const bool waiting = transport_->read32(hw::REG_STATUS) & hw::STATUS_WAITING_TRIGGER_MASK;
    triggers = transport_->read32(hw::REG_TRIGGERS);
    if (!waiting) break;
  }
  if (triggers == ticket.triggers_before) return std::nullopt;
  return from_ticks(read64(hw::REG_TRIGGERED_AT_LO));
}

void Device::stop() { transport_->write32(hw::REG_CTRL, hw::CTRL_STOP_MASK); }

void Device::write_tune_table(const std::vector<uint16_t>& tune_ticks) {
  const uint32_t w = caps_.wavelengths;
  if (tune_ticks.size() != size_t{w} * w) {
    throw FormatError(
        fmt::format("{}: tune table has {} entries, the device needs {} ({} wavelengths squared)", uri_,
                    tune_ticks.size(), size_t{w} * w, w));
  }
  ensure_lease();
  // Verified schedules were checked against the table as it is: the board
  // refuses tune writes while one runs or a commit is under way.
  const uint32_t status = transport_->read32(hw::REG_STATUS);
  if (status & (hw::STATUS_RUNNING_MASK | hw::STATUS_COMMIT_PENDING_MASK | hw::STATUS_VERIFY_BUSY_MASK)) {
    throw BoardBusyError(
        fmt::format("{}: the tune table cannot change while a schedule {}; stop it first "
                    "(nothing was written)",
                    uri_, (status & hw::STATUS_RUNNING_MASK) ? "runs" : "commit is under way"));
  }
  std::vector<uint32_t> words((w - 1) * hw::WAVELENGTHS + w, 0);
  for (uint32_t a = 0; a < w; ++a) {
    for (uint32_t b = 0; b < w; ++b) words[a * hw::WAVELENGTHS + b] = tune_ticks[size_t{a} * w + b];
  }
  if (w < hw::WAVELENGTHS) {
    // Rows are strided by WAVELENGTHS: leave the unused columns as they are.
    for (uint32_t a = 0; a < w; ++a) {
      transport_->write_block(hw::MEM_TUNE_BASE + 4u * a * hw::WAVELENGTHS,
                              std::vector<uint32_t>(words.begin() + a * hw::WAVELENGTHS,
                                                    words.begin() + a * hw::WAVELENGTHS + w));
    }
  } else {
    transport_->write_block(hw::MEM_TUNE_BASE, words);
  }
  caps_.tune_ticks = tune_ticks;
}

SyncStatus Device::sync_status() {
  // SYNC_CTRL .. SYNC_EXCHANGE_PERIOD are consecutive words: one block read,
  // so the fields are one moment's (one sim:// request).
  const uint32_t words = (hw::REG_SYNC_EXCHANGE_PERIOD - hw::REG_SYNC_CTRL) / 4 + 1;
  const std::vector<uint32_t> r = transport_->read_block(hw::REG_SYNC_CTRL, words);
  auto reg = [&](uint32_t offset) { return r.at((offset - hw::REG_SYNC_CTRL) / 4); };
  auto sreg = [&](uint32_t offset) { return static_cast<int64_t>(static_cast<int32_t>(reg(offset))); };
  SyncStatus s;
  const uint32_t ctrl = reg(hw::REG_SYNC_CTRL);
  const uint32_t st = reg(hw::REG_SYNC_STATUS);
  s.state_code = field(st, hw::SYNC_STATUS_STATE_MASK, hw::SYNC_STATUS_STATE_LSB);
  s.state = sync_state_name(s.state_code);
  s.enabled = ctrl & hw::SYNC_CTRL_ENABLE_MASK;
  s.use_ddmtd = ctrl & hw::SYNC_CTRL_USE_DDMTD_MASK;
  s.reference = ctrl & hw::SYNC_CTRL_REFERENCE_MASK;
  s.locked = st & hw::SYNC_STATUS_LOCKED_MASK;
  s.holdover = st & hw::SYNC_STATUS_HOLDOVER_MASK;
  s.ref_ok = st & hw::SYNC_STATUS_REF_OK_MASK;
  s.slewing = st & hw::SYNC_STATUS_SLEWING_MASK;
  s.ddmtd_active = st & hw::SYNC_STATUS_DDMTD_ACTIVE_MASK;
  s.time_valid = st & hw::SYNC_STATUS_TIME_VALID_MASK;
  s.parent_degraded = st & hw::SYNC_STATUS_PARENT_DEGRADED_MASK;
  s.parent_holdover = st & hw::SYNC_STATUS_PARENT_HOLDOVER_MASK;
  s.errors = sync_error_flag_names(reg(hw::REG_SYNC_ERROR));
  s.offset_ps = sreg(hw::REG_SYNC_OFFSET_PS);
  s.rtt_ps = reg(hw::REG_SYNC_RTT_PS);
  s.delay_ms_ps = reg(hw::REG_SYNC_DELAY_MS_PS);
  s.servo_p_ps = sreg(hw::REG_SYNC_SERVO_P_PS);
  s.servo_i_ppt = sreg(hw::REG_SYNC_SERVO_I_PPT);
  s.dac = reg(hw::REG_SYNC_DAC) & ((1u << hw::SYNC_DAC_BITS) - 1);
  s.phase_steps = static_cast<int32_t>(reg(hw::REG_SYNC_PHASE_STEPS));
  s.holdover_us = reg(hw::REG_SYNC_HOLDOVER_US);
  const uint32_t link = reg(hw::REG_SYNC_LINK);
  s.link_aligned = link & hw::SYNC_LINK_ALIGNED_MASK;
  s.parent_locked = link & hw::SYNC_LINK_PARENT_LOCKED_MASK;
  s.parent_time_valid = link & hw::SYNC_LINK_PARENT_TIME_VALID_MASK;
  s.parent_in_holdover = link & hw::SYNC_LINK_PARENT_HOLDOVER_MASK;
  s.rx_bitslide_ui = field(link, hw::SYNC_LINK_BITSLIDE_MASK, hw::SYNC_LINK_BITSLIDE_LSB);
  s.link_bad_frames = reg(hw::REG_SYNC_LINK_BAD_FRAMES);
  s.down_aligned =
      field(reg(hw::REG_SYNC_DOWN_LINK), hw::SYNC_DOWN_LINK_ALIGNED_MASK, hw::SYNC_DOWN_LINK_ALIGNED_LSB);
  s.down_bad_frames = reg(hw::REG_SYNC_DOWN_BAD_FRAMES);
  s.exchange_period_cycles = reg(hw::REG_SYNC_EXCHANGE_PERIOD);
  return s;
}

void Device::sync_set_mode(SyncMode mode) {
  const uint32_t word = sync_ctrl_word(mode);  // an unknown mode throws before anything is written
  ensure_lease();
  transport_->write32(hw::REG_SYNC_CTRL, word);
  const uint32_t got = transport_->read32(hw::REG_SYNC_CTRL);
  if (got != word) {
    throw VerifyError(
        fmt::format("{}: SYNC_CTRL (0x{:05X}) reads back 0x{:08X}, wrote 0x{:08X} (sync mode {})", uri_,
                    hw::REG_SYNC_CTRL, got, word, sync_mode_name(mode)));
  }
}

namespace {

// SYNC_CAL_DELAY_MS, _SM and _ASYM are consecutive: one block each way.
constexpr uint32_t kCalWords = (hw::REG_SYNC_CAL_ASYM_PS - hw::REG_SYNC_CAL_DELAY_MS_PS) / 4 + 1;
static_assert(kCalWords == 3, "SYNC_CAL_* registers are expected to be consecutive");
constexpr const char* kCalRegNames[kCalWords] = {"SYNC_CAL_DELAY_MS_PS", "SYNC_CAL_DELAY_SM_PS",
                                                 "SYNC_CAL_ASYM_PS"};

std::vector<uint32_t> calibration_words(const SyncCalibration& c) {
  auto word = [](uint32_t reg) { return (reg - hw::REG_SYNC_CAL_DELAY_MS_PS) / 4; };
  std::vector<uint32_t> w(kCalWords, 0);
  w[word(hw::REG_SYNC_CAL_DELAY_MS_PS)] = static_cast<uint32_t>(c.delay_rx_ps);
  w[word(hw::REG_SYNC_CAL_DELAY_SM_PS)] = static_cast<uint32_t>(c.delay_tx_ps);
  w[word(hw::REG_SYNC_CAL_ASYM_PS)] = static_cast<uint32_t>(static_cast<int32_t>(c.asymmetry_ps));
  return w;
}

}  // namespace

SyncCalibration Device::sync_calibration() {
  const std::vector<uint32_t> r = transport_->read_block(hw::REG_SYNC_CAL_DELAY_MS_PS, kCalWords);
  auto reg = [&](uint32_t offset) { return r.at((offset - hw::REG_SYNC_CAL_DELAY_MS_PS) / 4); };
  SyncCalibration c;
  c.delay_rx_ps = reg(hw::REG_SYNC_CAL_DELAY_MS_PS);
  c.delay_tx_ps = reg(hw::REG_SYNC_CAL_DELAY_SM_PS);
  c.asymmetry_ps = static_cast<int32_t>(reg(hw::REG_SYNC_CAL_ASYM_PS));
  return c;
}

void Device::sync_calibrate(const SyncCalibration& calibration) {
  std::vector<Problem> problems = validate(calibration);
  if (!problems.empty()) {
    throw FormatError(fmt::format("{}: sync calibration rejected, nothing written", uri_),
                      std::move(problems));
  }
  ensure_lease();
  // One block write: on sim:// a single request, so the servo sees at most
  // one update between the three registers.
  const std::vector<uint32_t> words = calibration_words(calibration);
  transport_->write_block(hw::REG_SYNC_CAL_DELAY_MS_PS, words);
  const std::vector<uint32_t> got = transport_->read_block(hw::REG_SYNC_CAL_DELAY_MS_PS, kCalWords);
  for (uint32_t i = 0; i < kCalWords; ++i) {
    if (got.at(i) != words[i]) {
      throw VerifyError(fmt::format("{}: {} (0x{:05X}) reads back 0x{:08X}, wrote 0x{:08X}", uri_,
                                    kCalRegNames[i], hw::REG_SYNC_CAL_DELAY_MS_PS + 4 * i, got.at(i),
                                    words[i]));
    }
  }
}

void Device::sync_set_exchange_period(uint32_t cycles) {
  // The board would clamp; a clamped rate is not the one asked for.
  if (cycles < hw::DDMTD_N + 1 || cycles > hw::SYNC_EXCHANGE_PERIOD_MAX) {
    throw FormatError(fmt::format("{}: sync exchange period rejected, nothing written", uri_),
                      {{"exchange_period_cycles",
                        fmt::format("{} is outside {}..{} (one DDMTD beat .. SYNC_EXCHANGE_PERIOD_MAX)",
                                    cycles, hw::DDMTD_N + 1, hw::SYNC_EXCHANGE_PERIOD_MAX)}});
  }
  ensure_lease();
  transport_->write32(hw::REG_SYNC_EXCHANGE_PERIOD, cycles);
  const uint32_t got = transport_->read32(hw::REG_SYNC_EXCHANGE_PERIOD);
  if (got != cycles) {
    throw VerifyError(fmt::format("{}: SYNC_EXCHANGE_PERIOD (0x{:05X}) reads back {}, wrote {}", uri_,
                                  hw::REG_SYNC_EXCHANGE_PERIOD, got, cycles));
  }
}

HealthInputs Device::health_inputs() {
  const uint32_t h = transport_->read32(hw::REG_HEALTH);
  HealthInputs out;
  out.mmcm_locked = (h & hw::HEALTH_MMCM_LOCKED_MASK) != 0;
  out.link_up = (h & hw::HEALTH_LINK_UP_MASK) != 0;
  out.temperature_c = transport_->temperature_c();
  return out;
}

std::vector<std::string> Device::clear_sticky_errors() {
  ensure_lease();
  const uint32_t errors = transport_->read32(hw::REG_ERROR);
  const uint32_t sync_errors = transport_->read32(hw::REG_SYNC_ERROR);
  std::vector<std::string> names;
  for (const std::string& n : error_flag_names(errors)) names.push_back("ERROR." + n);
  for (const std::string& n : sync_error_flag_names(sync_errors)) names.push_back("SYNC_ERROR." + n);
  if (errors != 0) transport_->write32(hw::REG_ERROR, errors);
  if (sync_errors != 0) transport_->write32(hw::REG_SYNC_ERROR, sync_errors);
  return names;
}

int Device::self_test() {
  ensure_lease();
  const uint32_t before = transport_->read32(hw::REG_SCRATCH);
  // Every bit both ways, alternating neighbours, a walking one through each
  // byte lane, and this writer's token (a word no other run writes).
  std::vector<uint32_t> patterns = {0x00000000u, 0xFFFFFFFFu, 0xAAAAAAAAu, 0x55555555u, token_};
  for (uint32_t bit = 0; bit < 32; bit += 9) patterns.push_back(1u << bit);
  for (const uint32_t p : patterns) {
    transport_->write32(hw::REG_SCRATCH, p);
    const uint32_t got = transport_->read32(hw::REG_SCRATCH);
    if (got != p) {
      transport_->write32(hw::REG_SCRATCH, before);
      throw VerifyError(
          fmt::format("{}: self-test: SCRATCH (0x{:03X}) read back 0x{:08X} after a write of "
                      "0x{:08X}: the register path is faulty",
                      uri_, hw::REG_SCRATCH, got, p));
    }
  }
  transport_->write32(hw::REG_SCRATCH, before);
  const DeviceCapabilities at_open = caps_;
  const uint32_t id_at_open = board_id_;
  read_capabilities();
  if (caps_.build != at_open.build || caps_.ports != at_open.ports ||
      caps_.wavelengths != at_open.wavelengths || caps_.max_steps != at_open.max_steps ||
      caps_.max_configs != at_open.max_configs || caps_.fine_steps != at_open.fine_steps ||
      caps_.clk_period_ps != at_open.clk_period_ps || caps_.min_step_cycles != at_open.min_step_cycles ||
      board_id_ != id_at_open) {
    throw VerifyError(
        fmt::format("{}: self-test: the capability block read differently a second time: the "
                    "register path is unstable",
                    uri_));
  }
  return static_cast<int>(patterns.size());
}

}  // namespace lightrail
