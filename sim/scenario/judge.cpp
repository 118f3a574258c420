#include "scenario/judge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "lightrail/hwdef.hpp"

namespace lightrail::sim {

using nlohmann::json;

namespace {

// What the scenario expects of every link change (expect.link_change_*).
void check_link_changes(const json& changes, const json& e, json& unmet) {
  for (const json& c : changes) {
    const std::string what = fmt::format("sync: link change of board {} at {:.0f} us", c["board"].get<int>(),
                                         c["at_us"].get<double>());
    const bool keep = e.value("link_change_lock_kept", true);
    if (e.contains("link_change_lock_kept") && c["lock_kept"].get<bool>() != keep)
      unmet.push_back(what +
                      (keep ? fmt::format(": lock lost {:.1f} us after it", c["unlocked_at_us"].get<double>())
                            : ": lock kept where a re-acquire was expected"));
    if (!keep && e.contains("relock_us_max") &&
        !(c["relock_us"].get<double>() >= 0 &&
          c["relock_us"].get<double>() <= e["relock_us_max"].get<double>()))
      unmet.push_back(fmt::format("{}: re-locked after {} us (at most {})", what, c["relock_us"].dump(),
                                  e["relock_us_max"].get<double>()));
    for (const json& flag : e.value("link_change_flags", json::array())) {
      bool raised = false;
      for (const json& f : c["flags_raised"]) raised = raised || f == flag;
      if (!raised)
        unmet.push_back(fmt::format("{}: {} not raised (raised {})", what, flag.get<std::string>(),
                                    c["flags_raised"].dump()));
    }
    const bool judge = e.contains("link_change_recovery_us_max") ||
                       e.contains("link_change_overshoot_ps_max") ||
                       e.contains("link_change_shift_error_ps_max");
    if (!judge) continue;
    if (!c["judged"].get<bool>()) {
      unmet.push_back(
          what + ": too close to the run's end or start to judge (needs 100 us before and 200 us after)");
      continue;
    }
    if (!c["settled"].get<bool>()) unmet.push_back(what + ": never settled within its window");
    auto need_max = [&](const char* key, const char* field, const char* unit) {
      if (!e.contains(key)) return;
      const double have = std::fabs(c[field].get<double>()), limit = e[key].get<double>();
      if (!(have <= limit))
        unmet.push_back(fmt::format("{}: {} {:.4g} {} (at most {:.4g})", what, field, have, unit, limit));
    };
    need_max("link_change_recovery_us_max", "recovery_us", "us");
    need_max("link_change_overshoot_ps_max", "overshoot_ps", "ps");
    if (e.contains("link_change_shift_error_ps_max")) {
      const double err = c["measured_shift_ps"].get<double>() - c["model_shift_ps"].get<double>();
      if (!(std::fabs(err) <= e["link_change_shift_error_ps_max"].get<double>()))
        unmet.push_back(fmt::format("{}: settled {:.4g} ps off the two-way model's shift of {:.4g} ps", what,
                                    err, c["model_shift_ps"].get<double>()));
    }
  }
}

}  // namespace

json unmet_expectations(const Scenario& sc, const json& report) {
  // The scenario's own expectations, per board.
  json unmet = json::array();
  const json& e = sc.expect;
  for (const json& b : report["boards"]) {
    auto need = [&](const char* what, uint64_t have, uint64_t want, bool exact) {
      if (exact ? have != want : have < want)
        unmet.push_back(fmt::format("board {}: {} {} ({} {})", b["board"].get<int>(), what, have,
                                    exact ? "expected" : "want at least", want));
    };
    if (e.contains("swaps")) need("swaps", b["swaps"].size(), e["swaps"].get<uint64_t>(), true);
    if (e.contains("swap_generations")) {
      json got = json::array();
      for (const json& sw : b["swaps"]) got.push_back(sw["generation"]);
      if (got != e["swap_generations"])
        unmet.push_back(fmt::format("board {}: swap generations {} (expected {})", b["board"].get<int>(),
                                    got.dump(), e["swap_generations"].dump()));
    }
    if (e.contains("rejected_banks"))
      need("rejected banks", b["rejected_banks"].size(), e["rejected_banks"].get<uint64_t>(), true);
    if (e.contains("min_steps"))
      need("steps", b["steps_executed"].get<uint64_t>(), e["min_steps"].get<uint64_t>(), false);
    if (e.contains("min_switch_events"))
      need("switch events", b["switch_events"].get<uint64_t>(), e["min_switch_events"].get<uint64_t>(),
           false);
    if (e.contains("stops")) need("stops", b["stops"].get<uint64_t>(), e["stops"].get<uint64_t>(), true);
    if (e.contains("min_stops_mid_retune"))
      need("stops mid-retune", b["stops_mid_retune"].get<uint64_t>(),
           e["min_stops_mid_retune"].get<uint64_t>(), false);
    if (e.contains("min_board_timed_boundaries"))
      need("board-timed boundaries", b["board_timed_boundaries"].get<uint64_t>(),
           e["min_board_timed_boundaries"].get<uint64_t>(), false);
  }
  if (report["sync"].is_object()) {
    const json& sy = report["sync"];
    auto stat = [&](const json& st, const char* k) { return st.contains(k) ? st[k].get<double>() : 1e300; };
    auto need_max = [&](const std::string& what, double have, double limit) {
      if (!(have <= limit))
        unmet.push_back(fmt::format("sync: {} {:.4g} (at most {:.4g})", what, have, limit));
    };
    if (e.contains("sync_p99_ps_max"))
      need_max("p99 |offset| ps", stat(sy["offset_ps"], "p99"), e["sync_p99_ps_max"]);
    if (e.contains("sync_rms_ps_max"))
      need_max("rms offset ps", stat(sy["offset_ps"], "rms"), e["sync_rms_ps_max"]);
    if (e.contains("lock_time_us_max")) {
      if (sy["lock_time_us"].is_number())
        need_max("lock time us", sy["lock_time_us"].get<double>(), e["lock_time_us_max"]);
      else
        for (const json& b : sy["boards"])
          if (!b["ptp_only"].get<bool>() && b["lock_time_us"].get<double>() < 0) {
            bool saturated = false;
            for (const json& f : b["servo_errors"]) saturated = saturated || f == "DAC_SATURATED";
            unmet.push_back(fmt::format(
                "sync: board {} never locked{}", b["board"].get<int>(),
                saturated ? " (DAC_SATURATED: its oscillator is beyond the DAC's pull range)" : ""));
          }
      // Locked means locked over the whole measurement window, not locked
      // once: a board may be unlocked only in a declared reference loss and
      // the re-lock time allowed after it (relock_us_max, else none).
      const double window_from_us = double(sc.sync.measure_from_ps) * 1e-6;
      const double end_us = report.contains("sim_time_ps") ? report["sim_time_ps"].get<double>() * 1e-6
                                                           : double(sc.duration_ps) * 1e-6;
      const double relock_allow_us = e.contains("relock_us_max") ? e["relock_us_max"].get<double>() : 0.0;
      for (const json& b : sy["boards"]) {
        if (b["ptp_only"].get<bool>()) continue;
        const int board = b["board"].get<int>();
        if (b["lock_events_dropped"].get<uint64_t>() > 0) {
          unmet.push_back(
              fmt::format("sync: board {} changed lock more than {} times", board, b["lock_events"].size()));
          continue;
        }
        auto excused = [&](double t_us) {
          for (const RefLoss& l : sc.sync.ref_loss)
            if (l.board == board && t_us >= double(l.at_ps) * 1e-6 &&
                t_us < double(l.at_ps + l.for_ps) * 1e-6 + relock_allow_us)
              return true;
          for (const CdrRelock& r : sc.sync.cdr_relocks)
            if (r.board == board && t_us >= double(r.at_ps) * 1e-6 &&
                t_us < double(r.at_ps + r.down_ps) * 1e-6 + relock_allow_us)
              return true;
          // A change of the link the scenario expects to cost the lock.
          if (!e.value("link_change_lock_kept", true))
            for (const LinkChange& c : sc.sync.link_changes)
              if (c.board == board && t_us >= double(c.at_ps) * 1e-6 &&
                  t_us < double(c.at_ps) * 1e-6 + relock_allow_us)
                return true;
          return false;
        };
        // Unlocked spans from the LOCKED changes, clipped to the window.
        bool locked = false;
        double since = 0;
        std::vector<std::pair<double, double>> spans;
        auto close = [&](double until) {
          const double a = std::max(since, window_from_us), z = std::min(until, end_us);
          if (!locked && z > a) spans.emplace_back(a, z);
        };
        for (const json& ev : b["lock_events"]) {
          const double at = ev["at_us"].get<double>();
          close(at);
          locked = ev["locked"].get<bool>();
          since = at;
        }
        close(end_us);
        for (const auto& [a, z] : spans) {
          // The first microsecond of the span no declared loss excuses.
          double t = a;
          while (t < z && excused(t)) t += 1.0;
          if (t < z) {
            unmet.push_back(
                fmt::format("sync: board {} was not locked from {:.0f} us to {:.0f} us, inside the "
                            "measurement window",
                            board, t, z));
            break;
          }
        }
      }
    }
    if (e.contains("baseline_noise_ratio_min")) {
      const double ratio = sy.contains("baseline") ? sy["baseline"].value("noise_ratio", 0.0) : 0.0;
      if (ratio < e["baseline_noise_ratio_min"].get<double>())
        unmet.push_back(
            fmt::format("sync: PTP-only baseline noise only {:.3g}x the synchronised boards' (want {})",
                        ratio, e["baseline_noise_ratio_min"].get<double>()));
    }
    if (e.contains("slew_ns_per_s_max"))
      for (const json& b : sy["boards"])
        if (!b["ptp_only"].get<bool>())
          need_max(fmt::format("board {} slew ns/s (measured at its PPS)", b["board"].get<int>()),
                   b["max_slew_ns_per_s"].get<double>(), e["slew_ns_per_s_max"]);
    if (e.contains("sync_mean_ps")) {
      const double mean = stat(sy["offset_ps"], "mean");
      const double lo = e["sync_mean_ps"].at(0).get<double>(), hi = e["sync_mean_ps"].at(1).get<double>();
      if (!(mean >= lo && mean <= hi))
        unmet.push_back(fmt::format("sync: mean offset {:.4g} ps not in [{}, {}]", mean, lo, hi));
    }
    if (e.contains("last_hop_p99_ps_max")) {
      double p99 = 1e300;
      for (const json& b : sy["boards"])
        if (!b["ptp_only"].get<bool>() && b["board"].get<int>() == sc.boards - 1)
          p99 = stat(b["offset_ps"], "p99");
      need_max("last hop p99 |offset| ps", p99, e["last_hop_p99_ps_max"]);
    }
    if (e.contains("std_growth_per_hop_max"))
      need_max("spread growth per hop",
               sy.contains("std_growth_per_hop") ? sy["std_growth_per_hop"].get<double>() : 1e300,
               e["std_growth_per_hop_max"]);
    if (e.contains("std_growth_beyond_sqrt_per_hop_max"))
      need_max("spread growth per hop beyond sqrt(hop)",
               sy.contains("std_growth_beyond_sqrt_per_hop")
                   ? sy["std_growth_beyond_sqrt_per_hop"].get<double>()
                   : 1e300,
               e["std_growth_beyond_sqrt_per_hop_max"]);
    if (e.contains("slot_skew_p99_ps_max"))
      need_max("step-boundary skew p99 ps",
               sy["slot_skew_ps_p99"].is_number() ? sy["slot_skew_ps_p99"].get<double>() : 1e300,
               e["slot_skew_p99_ps_max"]);
    if (e.value("holdover_within_prediction", false)) {
      if (!sy.contains("holdover"))
        unmet.push_back("sync: no holdover happened");
      else
        for (const json& h : sy["holdover"]["events"])
          if (!h["locked_at_loss"].get<bool>())
            unmet.push_back(
                fmt::format("sync: board {} was not locked when its reference was lost at {:.0f} us: "
                            "no holdover bound applies",
                            h["board"].get<int>(), h["from_us"].get<double>()));
          else if (!h["within_prediction"].get<bool>())
            unmet.push_back(fmt::format(
                "sync: board {} drifted {:.4g} ps in holdover (predicted at most {:.4g})",
                h["board"].get<int>(), h["max_drift_ps"].get<double>(), h["predicted_max_ps"].get<double>()));
    }
    // Board time never goes backwards once a board has locked, whatever the
    // scenario expects.
    for (const json& b : sy["boards"])
      if (b["board_time_backwards"].get<uint64_t>() > 0)
        unmet.push_back(
            fmt::format("sync: board {}'s time went backwards {} times after lock (first at {:.1f} us)",
                        b["board"].get<int>(), b["board_time_backwards"].get<uint64_t>(),
                        b["first_backwards_us"].get<double>()));
    if (sy.contains("link_changes")) check_link_changes(sy["link_changes"], e, unmet);
    // Sticky servo flags a healthy run must not leave (a flag on a healthy
    // board misleads whoever reads `lightrail sync status`).
    for (const json& flag : e.value("servo_flags_absent", json::array()))
      for (const json& b : sy["boards"])
        for (const json& f : b["servo_errors"])
          if (f == flag)
            unmet.push_back(
                fmt::format("sync: board {} raised {}", b["board"].get<int>(), flag.get<std::string>()));
    // The boards below a changed link stay together (docs/clock-sync.md,
    // "Boundary clocks that keep serving").
    if (e.contains("below_spread_ps_max")) {
      if (!sy.contains("below_events"))
        unmet.push_back("sync: no event with two or more boards below it to judge");
      else
        for (const json& ev : sy["below_events"])
          if (ev["pps_edges"].get<size_t>() == 0 || !ev["spread_ps_max"].is_number())
            unmet.push_back(
                fmt::format("sync: no PPS edge of every board below board {}", ev["board"].get<int>()));
          else
            need_max(fmt::format("spread of the boards below board {} after its event at {:.0f} us, ps",
                                 ev["board"].get<int>(), ev["at_us"].get<double>()),
                     ev["spread_ps_max"].get<double>(), e["below_spread_ps_max"]);
    }
    // The exchange rate kept (sync.exchange_rate_hz): no follower took more.
    if (e.contains("exchanges_max"))
      for (const json& b : sy["boards"])
        if (b["parent"].get<int>() >= 0)
          need_max(fmt::format("board {}'s exchanges", b["board"].get<int>()), b["exchanges"].get<double>(),
                   e["exchanges_max"].get<double>());
    // Exactly these boards entered holdover (each is reported), no other.
    // The follower's message engine at the end, as SYNC_LINK and
    // SYNC_LINK_BAD_FRAMES show it: aligned on its parent's frames, which say
    // locked and time valid; bad frames counted within the range.
    for (const json& b : sy["boards"]) {
      if (!b.contains("engine")) continue;
      const json& g = b["engine"];
      const int id = b["board"].get<int>();
      const uint32_t good = (1u << hwdef::SYNC_FLAG_LOCKED_BIT) | (1u << hwdef::SYNC_FLAG_TIME_VALID_BIT);
      if (e.value("engine_aligned", false) &&
          !(g["aligned"].get<bool>() && (g["parent_flags"].get<uint32_t>() & good) == good))
        unmet.push_back(fmt::format("sync: board {}'s engine: aligned {}, parent flags {}", id,
                                    g["aligned"].dump(), g["parent_flags"].dump()));
      if (e.contains("engine_bad_frames") &&
          (g["bad_frames"] < e["engine_bad_frames"][0] || g["bad_frames"] > e["engine_bad_frames"][1]))
        unmet.push_back(fmt::format("sync: board {}'s engine counted {} bad frames, expected {}", id,
                                    g["bad_frames"].dump(), e["engine_bad_frames"].dump()));
      // Every frame that reached an end with a flipped bit is counted there
      // (one may still be in the receiver's pipeline at the end), and some were.
      if (e.value("engine_counts_corrupted_frames", false))
        for (const auto& [end, counted, corrupted] :
             {std::tuple{"its", g["bad_frames"].get<uint64_t>(),
                         g["frames_corrupted_received"].get<uint64_t>()},
              std::tuple{"its reference's", g["reference_bad_frames"].get<uint64_t>(),
                         g["reference_frames_corrupted_received"].get<uint64_t>()}})
          if (corrupted == 0 || counted > corrupted || counted + 1 < corrupted)
            unmet.push_back(fmt::format("sync: board {}: {} engine counted {} bad frames of {} corrupted", id,
                                        end, counted, corrupted));
    }
    if (e.contains("holdover_boards")) {
      std::set<int> want, have;
      for (const json& x : e["holdover_boards"]) want.insert(x.get<int>());
      for (const json& b : sy["boards"])
        if (!b["ptp_only"].get<bool>() && !b["holdovers_entered"].empty()) have.insert(b["board"].get<int>());
      for (int b : have)
        if (!want.count(b)) unmet.push_back(fmt::format("sync: board {} entered holdover", b));
      for (int b : want)
        if (!have.count(b)) unmet.push_back(fmt::format("sync: board {} did not enter holdover", b));
    }
    // Flags that name a board's own link only on boards whose own link had
    // a declared event.
    if (e.contains("own_link_flags_only")) {
      std::set<int> own;
      for (const RefLoss& l : sc.sync.ref_loss) own.insert(l.board);
      for (const CdrRelock& r : sc.sync.cdr_relocks) own.insert(r.board);
      for (const LinkChange& c : sc.sync.link_changes) own.insert(c.board);
      for (const json& b : sy["boards"])
        if (!b["ptp_only"].get<bool>() && !own.count(b["board"].get<int>()))
          for (const json& f : b["servo_errors"])
            for (const json& flag : e["own_link_flags_only"])
              if (f == flag)
                unmet.push_back(fmt::format("sync: board {} raised {}, but its own link did not change",
                                            b["board"].get<int>(), flag.get<std::string>()));
    }
    if (e.contains("relock_us_max") && sy.contains("holdover"))
      for (const json& h : sy["holdover"]["events"])
        if (!h["relocked"].get<bool>() || h["relock_us"].get<double>() > e["relock_us_max"].get<double>())
          unmet.push_back(fmt::format("sync: board {} re-locked after {} us", h["board"].get<int>(),
                                      h["relock_us"].dump()));
  }
  return unmet;
}

}  // namespace lightrail::sim
