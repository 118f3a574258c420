#include "scenario/reference.hpp"

#include <algorithm>
#include <limits>

namespace lightrail::sim {

using hwdef::PORTS;

namespace {}

Reference::Reference(const std::vector<uint16_t>& tune, uint64_t margin_ticks, uint64_t packet_ticks)
    : tune_(tune), margin_(margin_ticks), packet_ticks_(packet_ticks) {
  s_.config.fill(kDarkPort);
  s_.select.fill(0);
  s_.window_start.fill(-1);
}

void Reference::withdraw_from(uint64_t tick) {
  std::vector<std::pair<int, ExpectedEvent>> restore;
  while (!history_.empty() && history_.back().tick >= tick) {
    const Record& r = history_.back();
    s_ = r.before;
    running_ = r.running;
    image_ = r.image;
    restore.insert(restore.end(), r.dropped_rises.begin(), r.dropped_rises.end());
    history_.pop_back();
    --boundaries;
  }
  for (auto& kinds : events)
    for (auto& q : kinds)
      while (!q.empty() && q.back().boundary >= tick) q.pop_back();
  // Rises the withdrawn boundaries had cancelled happen again, oldest first.
  std::sort(restore.begin(), restore.end(),
            [](const auto& x, const auto& y) { return x.second.tick < y.second.tick; });
  for (const auto& [port, e] : restore)
    if (e.boundary < tick) events[size_t(port)][kRise].push_back(e);
  packets.erase(
      std::remove_if(packets.begin(), packets.end(), [&](const Packet& p) { return p.boundary >= tick; }),
      packets.end());
}

void Reference::stop(uint64_t window) {
  if (!running_) return;  // idle: a STOP only cancels a queued activation
  // Early edges already out may belong to a boundary up to the largest tune
  // after the window: it must exist to keep them.
  generate_until(window + max_tune_);
  // The first boundary at or after the window: generated already, or the
  // next one when its time is known (not the end of an event step).
  uint64_t b = std::numeric_limits<uint64_t>::max();
  for (size_t i = history_.size(); i-- > 0 && history_[i].tick >= window;) b = history_[i].tick;
  if (b == std::numeric_limits<uint64_t>::max() && !s_.waiting_event && s_.next_tick >= window)
    b = s_.next_tick;
  if (b == std::numeric_limits<uint64_t>::max()) {
    // The next boundary ends an event step: the board's, no earlier than
    // the step's minimum end or this window.
    if (s_.waiting_event) {
      s_.stop_pending = true;
      s_.event_min_tick = std::max(s_.event_min_tick, window);
      // With every port dark that boundary changes no output, so no edge
      // will resume the reference: it is taken at the earliest time allowed
      // (no output tells a later one apart), else the reference would run
      // on after the board stopped and judge its next start wrong.
      if (std::all_of(s_.config.begin(), s_.config.end(), [](int w) { return w == kDarkPort; })) {
        resume_at(s_.event_min_tick);
        generate_until(s_.next_tick);
      }
    }
    return;
  }
  Kept kept;
  bool any_kept = false;
  for (int p = 0; p < int(PORTS); ++p)
    for (int k = 0; k < kEventKinds; ++k)
      for (const ExpectedEvent& e : events[p][k])
        if (e.boundary == b && e.tick < window) {
          kept[p][k].push_back(e);
          any_kept = true;
        }
  stops_mid_retune += any_kept;
  withdraw_from(b);
  emit_stop(b, kept);
}

void Reference::emit_stop(uint64_t T, const Kept& kept) {
  history_.push_back({T, false, s_, image_, running_, {}});
  ++boundaries;
  ++stops;
  for (int p = 0; p < int(PORTS); ++p) {
    for (const ExpectedEvent& e : kept[p][kSel]) {
      events[p][kSel].push_back(e);
      s_.select[p] = e.value;
    }
    if (s_.config[p] == kDarkPort) continue;
    if (!kept[p][kFall].empty()) {
      // An early retune already out: it may have cancelled the last rise.
      const ExpectedEvent& fall = kept[p][kFall].front();
      if (drop_guard_window(p, fall.tick, std::numeric_limits<uint64_t>::max())) continue;
      events[p][kFall].push_back(fall);
      close_window(p, fall.tick, T);
    } else {
      events[p][kFall].push_back({T, T, 0});
      close_window(p, T, T);
    }
  }
  s_.config.fill(kDarkPort);
  s_.window_start.fill(-1);
  s_.waiting_event = false;
  s_.stop_pending = false;
  running_ = false;
}

void Reference::start(std::shared_ptr<const DecodedImage> image, uint64_t tick) {
  withdraw_from(tick);
  max_tune_ = *std::max_element(tune_.begin(), tune_.end());
  image_ = std::move(image);
  s_.next_step = 0;
  s_.next_tick = tick;
  s_.waiting_event = false;
  s_.stop_pending = false;
  running_ = true;
}

void Reference::generate_until(uint64_t tick) {
  while (running_ && !s_.waiting_event && s_.next_tick <= tick) emit_boundary();
}

PortConfig Reference::config_of(uint32_t step) const {
  PortConfig c;
  if (step >= image_->steps.size()) {
    c.fill(kDarkPort);
  } else {
    c = image_->configs[image_->steps[step].config];
  }
  return c;
}

PortConfig Reference::next_config() const {
  if (!s_.stop_pending) return config_of(s_.next_step);
  PortConfig dark;
  dark.fill(kDarkPort);
  return dark;
}

uint64_t Reference::boundary_from_edge(int port, int kind, uint64_t tick) const {
  const uint64_t none = std::numeric_limits<uint64_t>::max();
  // Edges before the step's minimum end (less the earliest tuning) belong to
  // boundaries already judged; so does every rise before it, such as the
  // guard after the step's own start (with the largest guards, within the
  // tuning of its end).
  if (tick + max_tune_ < s_.event_min_tick || (kind == kRise && tick < s_.event_min_tick)) return none;
  // The board's boundary may change no port (the next step keeps the
  // configuration): then the first edge is of a later boundary, a known
  // number of step durations after it.
  PortConfig from = s_.config, to = next_config();
  uint32_t step = s_.next_step;
  uint64_t later = 0;
  for (size_t hops = 0; from == to && !s_.stop_pending && hops < image_->steps.size(); ++hops) {
    if (step >= image_->steps.size() || image_->steps[step].event) return none;
    later += image_->steps[step].duration_ticks;
    if (++step == image_->steps.size() && image_->cyclic) step = 0;
    from = to;
    to = config_of(step);
  }
  const int a = from[port], b = to[port];
  uint64_t boundary = none;
  if (a != kDarkPort && b != kDarkPort && a != b) {
    boundary = kind == kRise ? tick - image_->guard_ticks : tick + tune(a, b);  // select and fall, tune early
  } else if (a != kDarkPort && b == kDarkPort) {
    if (kind == kFall) boundary = tick;
  } else if (a == kDarkPort && b != kDarkPort) {
    if (kind == kRise) boundary = tick - image_->guard_ticks;
    if (kind == kSel) boundary = tick + tune(s_.select[port], b);
  }
  return boundary == none ? none : boundary - later;
}

void Reference::jump(uint32_t step) {
  if (waiting_event() && step < image_->steps.size()) s_.next_step = step;
}

void Reference::resume_at(uint64_t tick) {
  s_.waiting_event = false;
  s_.next_tick = tick;
  ++board_timed_boundaries;
  if (tick < s_.event_min_tick) ++event_rule_errors;
}

bool Reference::drop_guard_window(int port, uint64_t fall, uint64_t rise) {
  auto& rises = events[size_t(port)][kRise];
  if (rises.empty() || history_.empty()) return false;
  const ExpectedEvent last = rises.back();  // the rise that opened the port's window
  // At or after the fall it would light the port while it retunes; in the
  // cycle of the next rise, the window is shorter than the cycle and the
  // output stage takes one fall and one rise per cycle.
  if (last.tick < fall && (rise == std::numeric_limits<uint64_t>::max() || !same_cycle(last.tick, rise)))
    return false;
  rises.pop_back();
  history_.back().dropped_rises.push_back({port, last});
  s_.window_start[size_t(port)] = -1;
  return true;
}

void Reference::close_window(int port, uint64_t end, uint64_t boundary) {
  const int64_t start = s_.window_start[port];
  s_.window_start[port] = -1;
  if (start < 0) return;
  const uint64_t from = uint64_t(start) + margin_, to = end - margin_;
  if (end < margin_ || to < from + packet_ticks_) return;  // window too short for a packet
  const int wl = s_.config[port];
  // One packet at each end of the window: they catch late falls and early
  // rises as well as a laser that has not settled.
  const bool two = to - packet_ticks_ > from + packet_ticks_;
  packets.push_back(
      {{from, to - packet_ticks_}, {from + packet_ticks_, to}, boundary, port, wl, two ? 2u : 1u, 0});
}

void Reference::emit_boundary() {
  const uint64_t T = s_.next_tick;
  if (s_.stop_pending) return emit_stop(T, {});
  const DecodedImage& img = *image_;
  const bool ends = s_.next_step >= img.steps.size();  // one-shot program finished
  const PortConfig next = config_of(s_.next_step);
  // A boundary that starts step 0 ends an epoch (or starts the first); a
  // one-shot's end ends its only pass.
  history_.push_back({T, s_.next_step == 0 || ends, s_, image_, running_, {}});
  ++boundaries;

  for (int p = 0; p < int(PORTS); ++p) {
    const int a = s_.config[p], b = next[p];
    auto& ev = events[p];
    if (a != kDarkPort && b != kDarkPort && a != b) {
      const uint64_t t = tune(a, b);
      ev[kSel].push_back({T - t, T, b});
      if (!drop_guard_window(p, T - t, T + img.guard_ticks)) {
        ev[kFall].push_back({T - t, T, 0});
        close_window(p, T - t, T);
      }
      ev[kRise].push_back({T + img.guard_ticks, T, 0});
      s_.select[p] = b;
    } else if (a != kDarkPort && b == kDarkPort) {
      if (!drop_guard_window(p, T, std::numeric_limits<uint64_t>::max())) {
        ev[kFall].push_back({T, T, 0});
        close_window(p, T, T);
      }
    } else if (a == kDarkPort && b != kDarkPort) {
      if (s_.select[p] != b) {
        ev[kSel].push_back({T - tune(s_.select[p], b), T, b});
        s_.select[p] = b;
      }
      ev[kRise].push_back({T + img.guard_ticks, T, 0});
    }
    if (b != kDarkPort && (a != b)) s_.window_start[p] = int64_t(T + img.guard_ticks);
  }
  s_.config = next;

  if (ends) {
    running_ = false;
    return;
  }
  const auto& step = img.steps[s_.next_step];
  s_.next_tick = T + step.duration_ticks;
  if (step.event) {  // ends at the board's boundary after a trigger
    s_.waiting_event = true;
    s_.event_min_tick = s_.next_tick;
    s_.event_due_tick = s_.next_tick;
    event_starts_.push_back(T);
  }
  if (++s_.next_step == img.steps.size() && img.cyclic) s_.next_step = 0;
}

bool Reference::is_boundary(uint64_t tick, bool* epoch_end) const {
  for (size_t i = history_.size(); i-- > 0;) {
    const Record& r = history_[i];
    if (r.tick == tick) {
      if (epoch_end) *epoch_end = r.epoch_end;
      return true;
    }
    if (r.tick < tick) break;
  }
  if (running_ && s_.next_tick == tick) {
    if (epoch_end) *epoch_end = s_.next_step == 0 || s_.next_step >= image_->steps.size();
    return true;
  }
  return false;
}

uint64_t Reference::first_boundary_at_or_after(uint64_t tick, bool epoch_only) const {
  uint64_t best = std::numeric_limits<uint64_t>::max();
  for (size_t i = history_.size(); i-- > 0 && history_[i].tick >= tick;)
    if (!epoch_only || history_[i].epoch_end) best = history_[i].tick;
  if (best == std::numeric_limits<uint64_t>::max() && running_ && s_.next_tick >= tick &&
      (!epoch_only || s_.next_step == 0))
    best = s_.next_tick;
  return best;
}

void Reference::cut(uint64_t tick) {
  for (auto& kinds : events) {
    for (auto& q : kinds) {
      Fifo<ExpectedEvent> kept;
      for (const ExpectedEvent& e : q)
        if (e.tick < tick) kept.push_back(e);
      q = std::move(kept);
    }
  }
  // A window's packets that end before the cut stay (its second may not).
  Fifo<Packet> kept;
  for (Packet p : packets) {
    if (p.end[0] >= tick) continue;
    if (p.count == 2 && p.end[1] >= tick) {
      p.count = 1;
      p.judged = std::min(p.judged, 1u);
    }
    kept.push_back(p);
  }
  packets = std::move(kept);
  running_ = false;
}

}  // namespace lightrail::sim
