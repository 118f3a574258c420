// What the outputs should do: an independent model of the schedule semantics
// (docs/sequencer.md) that turns the decoded image and the swap times into
// expected per-port events and the windows in which a sender may transmit.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "board/image.hpp"
#include "scenario/fifo.hpp"
#include "scenario/ring.hpp"

namespace lightrail::sim {

enum EventKind { kSel = 0, kFall = 1, kRise = 2, kEventKinds = 3 };

struct ExpectedEvent {
  uint64_t tick;
  uint64_t boundary;  // the step boundary this event belongs to
  int value;          // wavelength for kSel
};

// The packets a sender sends in one window on `port` to the receiver its
// schedule intends: packet i during [start[i], end[i]] (ticks), one at each
// end of the window (one only when the window holds no more). Kept as one
// entry per window: half the queue traffic of one per packet.
struct Packet {
  uint64_t start[2], end[2];
  uint64_t boundary;  // boundary that closed the window
  int port;
  int wavelength;
  uint32_t count;   // packets in the window: 1 or 2
  uint32_t judged;  // packets the probes have judged so far
};

class Reference {
 public:
  // `tune` is the calibration table as the host wrote it (ticks, a*W+b).
  Reference(const std::vector<uint16_t>& tune, uint64_t margin_ticks, uint64_t packet_ticks);

  // The image starts (from idle) or takes over (a swap) at boundary `tick`:
  // everything generated for boundaries at or after it is withdrawn first.
  void start(std::shared_ptr<const DecodedImage> image, uint64_t tick);
  // STOP reached the kernel in the cycle whose outputs start at tick
  // `window`: the first boundary at or after it (the next one the board has
  // not taken) ends the schedule. Its edges already out (an early retune)
  // stand, every port still lit falls exactly at it, nothing rises. During
  // an event step that boundary is the board's, taken from its first fall,
  // and may not come before the step's minimum end or `window`. With every
  // port dark (no fall to take it from) it is the earliest of those.
  void stop(uint64_t window);
  uint64_t stops = 0;             // STOP boundaries generated
  uint64_t stops_mid_retune = 0;  // ... of which some edges were already out
  // The board was reset in the cycle that starts at `tick`: nothing it was
  // to do from then on can happen. Drops the expected events and the send
  // windows at or after it and stops, so the probe judges what came before.
  void cut(uint64_t tick);
  // Generates every boundary up to `tick`.
  void generate_until(uint64_t tick);
  // A cycle of the board's outputs starts at `tick`: where a guard window
  // would open and close in one cycle the output stage cannot make it.
  void set_cycle_start(uint64_t tick) { cycle_phase_ = tick % hwdef::FINE_STEPS; }

  bool running() const { return running_; }
  // An event-triggered step is running: its end is the board's (trigger time
  // plus the kernel's lead), so the first edge of the next boundary tells
  // when it is; everything is then judged against that boundary.
  bool waiting_event() const { return running_ && s_.waiting_event; }
  // Whether a boundary at `tick` is behind the reference: not the end of an
  // event step it still waits to resume (it resumes from the first edge
  // that changes a port, which may come steps later).
  bool resolved_through(uint64_t tick) const { return !waiting_event() || s_.event_due_tick > tick; }
  // The minimum end of the event step it waits on.
  uint64_t event_due_tick() const { return s_.event_due_tick; }
  // Boundaries into event-triggered steps generated since the last call.
  std::vector<uint64_t> take_event_starts() { return std::exchange(event_starts_, {}); }
  // The boundary an edge of `port` implies for the pending transition, or
  // UINT64_MAX when the transition has no such edge.
  uint64_t boundary_from_edge(int port, int kind, uint64_t tick) const;
  void resume_at(uint64_t tick);
  // The board's trigger jumps: the event step it waits on goes on to `step`
  // (CTRL.TRIGGER_JUMP) instead of the next one; a step beyond the image
  // (no jump) changes nothing.
  void jump(uint32_t step);
  uint64_t board_timed_boundaries = 0;
  uint64_t event_rule_errors = 0;  // ended before its minimum duration
  // Boundaries generated so far that are still in the history window.
  bool is_boundary(uint64_t tick, bool* epoch_end) const;
  uint64_t first_boundary_at_or_after(uint64_t tick, bool epoch_only) const;  // UINT64_MAX if unknown
  uint64_t max_tune_ticks() const { return max_tune_; }

  std::array<std::array<Fifo<ExpectedEvent>, kEventKinds>, hwdef::PORTS> events;
  Fifo<Packet> packets;     // windows, in the order they closed
  uint64_t boundaries = 0;  // generated, net of withdrawals

 private:
  struct State {
    PortConfig config;                               // in effect before next_tick
    PortConfig select;                               // laser select per port
    std::array<int64_t, hwdef::PORTS> window_start;  // open send window start, -1 if none
    uint32_t next_step = 0;
    uint64_t next_tick = 0;
    bool waiting_event = false;  // next_tick unknown until the board ends the step
    uint64_t event_min_tick = 0;
    uint64_t event_due_tick = 0;  // the waiting step's own minimum end (event_min_tick moves on)
    bool stop_pending = false;    // the boundary the board ends the event step at is a STOP
  };
  PortConfig next_config() const;
  PortConfig config_of(uint32_t step) const;  // all dark past a one-shot's end
  struct Record {
    uint64_t tick;
    bool epoch_end;
    State before;
    std::shared_ptr<const DecodedImage> image;
    bool running;
    std::vector<std::pair<int, ExpectedEvent>> dropped_rises;  // earlier rises this boundary cancelled
  };
  using Kept = std::array<std::array<std::vector<ExpectedEvent>, kEventKinds>, hwdef::PORTS>;
  void withdraw_from(uint64_t tick);
  void emit_boundary();
  void emit_stop(uint64_t tick, const Kept& kept);
  void close_window(int port, uint64_t end, uint64_t boundary);
  // The boundary being generated falls on a lit `port` at `fall` and raises
  // it again at `rise` (none: UINT64_MAX). True when the port's last guard
  // rise no longer happens (docs/sequencer.md, "Neighbouring boundaries"):
  // that rise is withdrawn, kept with the boundary's record for a rollback,
  // and the fall is no edge either: the port stays dark.
  bool drop_guard_window(int port, uint64_t fall, uint64_t rise);
  bool same_cycle(uint64_t a, uint64_t b) const {
    return (a + hwdef::FINE_STEPS - cycle_phase_) / hwdef::FINE_STEPS ==
           (b + hwdef::FINE_STEPS - cycle_phase_) / hwdef::FINE_STEPS;
  }
  uint64_t tune(int a, int b) const { return tune_[size_t(a) * hwdef::WAVELENGTHS + size_t(b)]; }

  const std::vector<uint16_t>& tune_;
  uint64_t margin_, packet_ticks_, max_tune_ = 0;
  std::shared_ptr<const DecodedImage> image_;
  State s_{};
  std::vector<uint64_t> event_starts_;  // for take_event_starts()
  bool running_ = false;
  static constexpr size_t kHistory = 256;  // boundaries kept for rollback and swap checks
  Ring<Record, kHistory> history_;
  uint64_t cycle_phase_ = 0;
};

}  // namespace lightrail::sim
