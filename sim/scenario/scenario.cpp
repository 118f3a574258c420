#include "scenario/scenario.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <utility>

#include "cosim.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"
#include "lightrail/image_crc.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/schedule_json.hpp"
#include "lightrail/transport.hpp"

namespace lightrail::sim {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& where, const std::string& what) {
  throw std::runtime_error(fmt::format("{}: {}", where, what));
}

uint64_t positive(const json& doc, const std::string& key, const std::string& where, uint64_t fallback,
                  bool required) {
  if (!doc.contains(key)) {
    if (required) bad(where + "." + key, "missing");
    return fallback;
  }
  const json& v = doc.at(key);
  if (!v.is_number_integer() || v.get<int64_t>() < 0)
    bad(where + "." + key, "must be a non-negative integer");
  return v.get<uint64_t>();
}

// A follower's index, checked before it is narrowed to int.
int follower(const json& r, const std::string& where, const Scenario& sc) {
  const uint64_t b = positive(r, "board", where, 0, true);
  if (b < 1 || b >= uint64_t(sc.boards))
    bad(where + ".board", fmt::format("must be a follower, 1..{}", sc.boards - 1));
  return int(b);
}

void check_keys(const json& doc, const std::string& where, std::initializer_list<const char*> keys) {
  for (const auto& [k, v] : doc.items()) {
    bool known = false;
    for (const char* key : keys) known = known || k == key;
    if (!known) bad(where + "." + k, "unknown field");
  }
}

// One change of a follower's link: exactly one of a delay step, a
// temperature step or a temperature ramp (with its length), in one direction
// or both, inside the measurement window.
LinkChange parse_link_change(const json& r, const std::string& where, const Scenario& sc,
                             int64_t measure_from_ps) {
  if (!r.is_object()) bad(where, "must be an object");
  check_keys(r, where,
             {"board", "at_ps", "direction", "delay_step_ps", "temperature_step_k",
              "temperature_ramp_k_per_s", "for_ps", "comment"});
  LinkChange c;
  c.board = follower(r, where, sc);
  c.at_ps = int64_t(positive(r, "at_ps", where, 0, true));
  if (c.at_ps < measure_from_ps || uint64_t(c.at_ps) >= sc.duration_ps)
    bad(where + ".at_ps", "must be inside the measurement window, from sync.measure_from_ps to duration_ps");
  const std::string dir = r.value("direction", std::string("both"));
  if (dir != "forward" && dir != "backward" && dir != "both")
    bad(where + ".direction", "must be \"forward\" (parent to board), \"backward\" or \"both\"");
  c.forward = dir != "backward";
  c.backward = dir != "forward";
  // Limits: a re-patch of up to 2 m of fibre; a cable's temperature within
  // +-50 K; a ramp no faster than a failed cooling fan (10 K/s).
  const std::pair<const char*, double> kinds[] = {
      {"delay_step_ps", 10000}, {"temperature_step_k", 50}, {"temperature_ramp_k_per_s", 10}};
  int given = 0;
  for (const auto& [k, limit] : kinds) {
    if (!r.contains(k)) continue;
    ++given;
    const json& v = r[k];
    if (!v.is_number() || !(std::fabs(v.get<double>()) <= limit) || v.get<double>() == 0)
      bad(where + "." + k, fmt::format("must be a non-zero number within +-{}", limit));
    c.kind = k;
    c.value = v.get<double>();
  }
  if (given != 1)
    bad(where, "needs exactly one of delay_step_ps, temperature_step_k, temperature_ramp_k_per_s");
  if (c.kind == "temperature_ramp_k_per_s") {
    c.for_ps = int64_t(positive(r, "for_ps", where, 0, true));
    if (c.for_ps <= 0) bad(where + ".for_ps", "a ramp must last a positive time");
  } else if (r.contains("for_ps")) {
    bad(where + ".for_ps", "only a temperature ramp has a length");
  }
  return c;
}

SyncOptions parse_sync(const json& s, const Scenario& sc) {
  SyncOptions o;
  o.enabled = true;
  if (!s.is_object()) bad("sync", "must be an object");
  check_keys(
      s, "sync",
      {"topology", "baseline", "calibrate_asymmetry", "pps_period_ps", "measure_from_ps", "boot_skew_ps",
       "profile", "ref_loss", "link_changes", "exchange_rate_hz", "wait_for_parent_lock", "cdr_relocks",
       "bitslide_compensation", "fault_holdover_ppb", "link", "bit_error_rate", "frame_error_rate"});
  if (sc.boards < 2) bad("boards", "clock distribution needs at least 2 boards");
  o.topology = s.value("topology", o.topology);
  if (o.topology != "star" && o.topology != "chain") bad("sync.topology", "must be \"star\" or \"chain\"");
  if (o.topology == "chain" && sc.boards < 4) bad("boards", "a chain of 3 hops needs at least 4 boards");
  if (o.topology == "chain" && sc.boards - 1 > int(hwdef::SYNC_MAX_CHAIN_HOPS))
    bad("boards",
        fmt::format("a chain of {} hops is longer than the {} (SYNC_MAX_CHAIN_HOPS) the servo is designed "
                    "for (longer chains are not verified: docs/clock-sync.md, \"Cascades\")",
                    sc.boards - 1, hwdef::SYNC_MAX_CHAIN_HOPS));
  o.baseline = s.value("baseline", o.baseline);
  o.calibrate_asymmetry = s.value("calibrate_asymmetry", o.calibrate_asymmetry);
  o.pps_period_ps = int64_t(positive(s, "pps_period_ps", "sync", uint64_t(o.pps_period_ps), false));
  if (o.pps_period_ps <= 0 || o.pps_period_ps % hwdef::CLK_PERIOD_PS != 0)
    bad("sync.pps_period_ps",
        fmt::format("must be a positive multiple of the {} ps clock period", hwdef::CLK_PERIOD_PS));
  o.measure_from_ps = int64_t(positive(s, "measure_from_ps", "sync", uint64_t(o.measure_from_ps), false));
  if (uint64_t(o.measure_from_ps) >= sc.duration_ps)
    bad("sync.measure_from_ps", "must be before duration_ps");
  o.boot_skew_ps = int64_t(positive(s, "boot_skew_ps", "sync", uint64_t(o.boot_skew_ps), false));
  if (o.boot_skew_ps > 1000000000)
    bad("sync.boot_skew_ps", "must be 0..1000000000 ps (each board idles that long before it runs)");
  if (s.contains("link")) {
    if (!s["link"].is_string() || (s["link"] != "model" && s["link"] != "rtl"))
      bad("sync.link",
          "must be \"model\" (the fibre model times the exchange) or \"rtl\" (the board tops' "
          "message engines over the fibre model)");
    o.link = s["link"].get<std::string>();
  }
  if (s.contains("bit_error_rate")) {
    const json& v = s["bit_error_rate"];
    if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= 1e-3) || o.link != "rtl")
      bad("sync.bit_error_rate",
          "must be a probability per bit, 0..0.001, with sync.link \"rtl\" (bits are carried)");
    o.bit_error_rate = v.get<double>();
  }
  if (s.contains("frame_error_rate")) {
    const json& v = s["frame_error_rate"];
    if (!v.is_number() || !(v.get<double>() >= 0 && v.get<double>() <= 0.5) || o.link != "rtl")
      bad("sync.frame_error_rate",
          "must be a probability per payload word, 0..0.5, with sync.link \"rtl\" (frames are carried)");
    o.frame_error_rate = v.get<double>();
  }
  if (s.contains("wait_for_parent_lock")) {
    if (!s["wait_for_parent_lock"].is_boolean()) bad("sync.wait_for_parent_lock", "must be true or false");
    o.wait_for_parent_lock = s["wait_for_parent_lock"].get<bool>();
  }
  if (s.contains("fault_holdover_ppb")) {
    const json& v = s["fault_holdover_ppb"];
    if (!v.is_number() || !(std::fabs(v.get<double>()) <= 10000))
      bad("sync.fault_holdover_ppb", "must be a number of ppb, -10000..10000");
    o.fault_holdover_ppb = v.get<double>();
  }
  if (s.contains("exchange_rate_hz")) {
    const json& v = s["exchange_rate_hz"];
    // From one a second (PTP's default Sync interval) to one per servo update.
    // At most one per servo update: one DDMTD beat of DDMTD_N + 1 cycles.
    const double per_update_hz = 1e12 / (double(hwdef::CLK_PERIOD_PS) * double(hwdef::DDMTD_N + 1));
    if (!v.is_number() || !(v.get<double>() >= 1 && v.get<double>() <= per_update_hz))
      bad("sync.exchange_rate_hz",
          fmt::format("must be a number of exchanges per second, 1..{:.0f} (one per servo update)",
                      per_update_hz));
    o.exchange_rate_hz = v.get<double>();
  }
  if (s.contains("profile")) {
    try {
      o.profile = clock::load_profile(s["profile"], "sync.profile");
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(e.what());
    }
  }
  if (s.contains("ref_loss")) {
    if (!s["ref_loss"].is_array()) bad("sync.ref_loss", "must be an array");
    for (size_t i = 0; i < s["ref_loss"].size(); ++i) {
      const json& r = s["ref_loss"][i];
      const std::string where = fmt::format("sync.ref_loss[{}]", i);
      check_keys(r, where, {"board", "at_ps", "for_ps"});
      const uint64_t at = positive(r, "at_ps", where, 0, true), len = positive(r, "for_ps", where, 0, true);
      RefLoss loss{follower(r, where, sc), int64_t(at), int64_t(len)};
      if (len == 0 || at > sc.duration_ps || len > sc.duration_ps - at)
        bad(where + ".for_ps", "the outage must be positive and end by duration_ps (it may last to the end)");
      o.ref_loss.push_back(loss);
    }
  }
  if (s.contains("bitslide_compensation")) {
    if (!s["bitslide_compensation"].is_boolean()) bad("sync.bitslide_compensation", "must be true or false");
    o.bitslide_compensation = s["bitslide_compensation"].get<bool>();
  }
  if (s.contains("cdr_relocks")) {
    if (!s["cdr_relocks"].is_array()) bad("sync.cdr_relocks", "must be an array");
    for (size_t i = 0; i < s["cdr_relocks"].size(); ++i) {
      const json& r = s["cdr_relocks"][i];
      const std::string where = fmt::format("sync.cdr_relocks[{}]", i);
      if (!r.is_object()) bad(where, "must be an object");
      check_keys(r, where, {"board", "at_ps", "down_ps", "slide_ui", "comment"});
      const int board = follower(r, where, sc);
      const uint64_t at = positive(r, "at_ps", where, 0, true);
      const uint64_t down = positive(r, "down_ps", where, 20000000, false);  // 20 us without light
      const uint64_t slide = positive(r, "slide_ui", where, 0, true);
      if (at < uint64_t(o.measure_from_ps) || at >= sc.duration_ps)
        bad(where + ".at_ps",
            "must be inside the measurement window, from sync.measure_from_ps to duration_ps");
      if (down == 0 || down > sc.duration_ps - at)
        bad(where + ".down_ps", "the outage must be positive and end by duration_ps");
      if (slide >= hwdef::SYNC_LINK_WORD_BITS)
        bad(where + ".slide_ui", fmt::format("must be 0..{} (a bit of the link's {}-bit word)",
                                             hwdef::SYNC_LINK_WORD_BITS - 1, hwdef::SYNC_LINK_WORD_BITS));
      o.cdr_relocks.push_back({board, int64_t(at), int64_t(down), int(slide)});
    }
  }
  if (s.contains("link_changes")) {
    if (!s["link_changes"].is_array()) bad("sync.link_changes", "must be an array");
    for (size_t i = 0; i < s["link_changes"].size(); ++i)
      o.link_changes.push_back(parse_link_change(
          s["link_changes"][i], fmt::format("sync.link_changes[{}]", i), sc, o.measure_from_ps));
  }
  return o;
}

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

const Schedule& Scenario::schedule(const std::string& name) const {
  for (const auto& [n, s] : schedules)
    if (n == name) return s;
  throw std::runtime_error("no schedule named '" + name + "'");
}

Schedule generate_schedule(const json& r, const std::string& where) {
  check_keys(r, where,
             {"steps", "step_ps", "configs", "guard_ps", "cyclic", "seed", "generation", "event_every"});
  Schedule s;
  const uint64_t steps = positive(r, "steps", where, 0, true);
  const uint64_t step_ps = positive(r, "step_ps", where, 0, true);
  const uint64_t configs = positive(r, "configs", where, 8, false);
  if (steps == 0) bad(where + ".steps", "must be at least 1");
  if (configs < 2) bad(where + ".configs", "must be at least 2");
  s.guard_ps = int64_t(positive(r, "guard_ps", where, 250, false));
  s.cyclic = r.value("cyclic", true);
  s.generation = uint32_t(positive(r, "generation", where, 1, false));
  std::mt19937 rng(uint32_t(positive(r, "seed", where, 1, false)));
  std::uniform_int_distribution<int> wavelength(0, int(hwdef::WAVELENGTHS) - 1), dark(0, 7);
  for (uint64_t c = 0; c < configs; ++c) {
    Configuration cfg;
    cfg.name = "c" + std::to_string(c);
    for (uint32_t p = 0; p < hwdef::PORTS; ++p)
      cfg.wavelength.push_back(dark(rng) == 0 ? kDark : wavelength(rng));
    s.configs.push_back(std::move(cfg));
  }
  // Consecutive steps always change configuration, so every boundary switches.
  // Every event_every-th step waits for a trigger (0: none).
  const uint64_t event_every = positive(r, "event_every", where, 0, false);
  for (uint64_t i = 0; i < steps; ++i)
    s.steps.push_back(
        {uint32_t(i % configs), int64_t(step_ps), event_every > 0 && i % event_every == event_every - 1});
  return s;
}

Scenario load_scenario(const std::string& path) {
  json doc;
  try {
    doc = read_json_file(path, path);  // strict: duplicate keys, trailing junk
  } catch (const Error& e) {
    throw std::runtime_error(e.what());
  }
  Scenario sc;
  sc.path = path;
  const auto dir = std::filesystem::path(path).parent_path();
  try {
    if (!doc.is_object()) bad("scenario", "must be an object");
    check_keys(doc, "scenario",
               {"lightrail_scenario", "boards", "duration_ps", "waveform", "traffic", "schedules", "actions",
                "expect", "inject_fault", "sync", "host", "comment", "kernel_latency"});
    if (doc.value("lightrail_scenario", 0) != 1) bad("lightrail_scenario", "must be 1");
    sc.boards = int(positive(doc, "boards", "scenario", 1, false));
    // A board costs about a megabyte and a board cycle a microsecond: 1024
    // boards are a fabric's worth (split over ranks), not a typo's.
    if (sc.boards < 1 || sc.boards > int(kMaxBoards)) bad("boards", fmt::format("must be 1..{}", kMaxBoards));
    sc.duration_ps = positive(doc, "duration_ps", "scenario", 0, true);
    if (doc.contains("kernel_latency")) {
      sc.kernel_latency = int(positive(doc, "kernel_latency", "scenario", 0, true));
      if (sc.kernel_latency > int(kMaxKernelLatency))
        bad("kernel_latency", fmt::format("must be 0..{} cycles", kMaxKernelLatency));
    }
    if (sc.duration_ps == 0) bad("duration_ps", "must be positive");
    if (doc.contains("waveform")) {
      if (!doc["waveform"].is_string()) bad("waveform", "must be a file prefix (string)");
      sc.waveform_prefix = doc["waveform"].get<std::string>();
    }
    if (doc.contains("traffic")) {
      const json& t = doc["traffic"];
      check_keys(t, "traffic", {"packet_ps", "margin_ps"});
      sc.packet_ps = positive(t, "packet_ps", "traffic", sc.packet_ps, false);
      sc.margin_ps = positive(t, "margin_ps", "traffic", sc.margin_ps, false);
      if (sc.packet_ps == 0) bad("traffic.packet_ps", "must be positive");
    }
    if (doc.contains("expect")) {
      sc.expect = doc["expect"];
      if (!sc.expect.is_object()) bad("expect", "must be an object");
      check_keys(sc.expect, "expect",
                 {"swaps",
                  "rejected_banks",
                  "min_steps",
                  "min_switch_events",
                  "sync_p99_ps_max",
                  "sync_rms_ps_max",
                  "lock_time_us_max",
                  "baseline_noise_ratio_min",
                  "slew_ns_per_s_max",
                  "sync_mean_ps",
                  "last_hop_p99_ps_max",
                  "holdover_within_prediction",
                  "relock_us_max",
                  "slot_skew_p99_ps_max",
                  "stops",
                  "min_stops_mid_retune",
                  "min_board_timed_boundaries",
                  "swap_generations",
                  "link_change_lock_kept",
                  "link_change_recovery_us_max",
                  "link_change_overshoot_ps_max",
                  "link_change_shift_error_ps_max",
                  "link_change_flags",
                  "servo_flags_absent",
                  "std_growth_per_hop_max",
                  "std_growth_beyond_sqrt_per_hop_max",
                  "below_spread_ps_max",
                  "holdover_boards",
                  "own_link_flags_only",
                  "engine_aligned",
                  "engine_bad_frames",
                  "engine_counts_corrupted_frames"});
      for (const char* k : {"link_change_recovery_us_max", "link_change_overshoot_ps_max",
                            "link_change_shift_error_ps_max", "relock_us_max", "std_growth_per_hop_max",
                            "std_growth_beyond_sqrt_per_hop_max", "below_spread_ps_max"})
        if (sc.expect.contains(k) && !(sc.expect[k].is_number() && sc.expect[k].get<double>() >= 0))
          bad(std::string("expect.") + k, "must be a non-negative number");
      if (sc.expect.contains("engine_aligned") &&
          !(sc.expect["engine_aligned"].is_boolean() && doc.contains("sync") &&
            doc["sync"].value("link", "rtl") == "rtl"))
        bad("expect.engine_aligned",
            "must be true or false, with sync.link \"rtl\" (the message engines run)");
      if (sc.expect.contains("engine_counts_corrupted_frames") &&
          !(sc.expect["engine_counts_corrupted_frames"].is_boolean() && doc.contains("sync") &&
            doc["sync"].value("frame_error_rate", 0.0) > 0 && doc["sync"].value("bit_error_rate", 0.0) == 0))
        bad("expect.engine_counts_corrupted_frames",
            "must be true or false, with sync.frame_error_rate above 0 and no sync.bit_error_rate (line "
            "errors would count too)");
      if (sc.expect.contains("engine_bad_frames")) {
        const json& r = sc.expect["engine_bad_frames"];
        if (!(r.is_array() && r.size() == 2 && r[0].is_number_unsigned() && r[1].is_number_unsigned() &&
              r[0] <= r[1] && doc.contains("sync") && doc["sync"].value("link", "rtl") == "rtl"))
          bad("expect.engine_bad_frames", "must be [least, most] frames, with sync.link \"rtl\"");
      }
      if (sc.expect.contains("link_change_lock_kept") && !sc.expect["link_change_lock_kept"].is_boolean())
        bad("expect.link_change_lock_kept", "must be true or false");
      if (sc.expect.contains("holdover_boards")) {
        const json& g = sc.expect["holdover_boards"];
        bool ok = g.is_array();
        for (const json& x : ok ? g : json::array()) ok = ok && x.is_number_unsigned();
        if (!ok) bad("expect.holdover_boards", "must be an array of board numbers");
      }
      for (const char* key : {"link_change_flags", "servo_flags_absent", "own_link_flags_only"}) {
        if (!sc.expect.contains(key)) continue;
        const json& f = sc.expect[key];
        if (!f.is_array()) bad(std::string("expect.") + key, "must be an array of SYNC_ERROR flag names");
        for (size_t i = 0; i < f.size(); ++i) {
          bool known = false;
          for (const hwdef::Flag& flag : hwdef::SYNC_ERROR_FLAGS) known = known || f[i] == flag.name;
          if (!known) bad(fmt::format("expect.{}[{}]", key, i), "not a SYNC_ERROR flag: " + f[i].dump());
        }
      }
      if (sc.expect.contains("swap_generations")) {
        const json& g = sc.expect["swap_generations"];
        bool ok = g.is_array();
        for (const json& x : ok ? g : json::array()) ok = ok && x.is_number_unsigned();
        if (!ok) bad("expect.swap_generations", "must be an array of generations, one per swap");
      }
      for (const char* k : {"swaps", "rejected_banks", "min_steps", "min_switch_events", "stops",
                            "min_stops_mid_retune", "min_board_timed_boundaries"})
        if (sc.expect.contains(k)) positive(sc.expect, k, "expect", 0, true);
    }
    if (doc.contains("inject_fault")) {
      const json& f = doc["inject_fault"];
      check_keys(f, "inject_fault", {"port", "fall_shift_ticks", "drop_every_sel", "ignore_stop"});
      if (f.contains("ignore_stop")) {
        if (!f["ignore_stop"].is_boolean()) bad("inject_fault.ignore_stop", "must be true or false");
        sc.fault.ignore_stop = f["ignore_stop"].get<bool>();
      }
      // A port names whose edges are disturbed; a STOP fault needs none.
      if (f.contains("port") || !sc.fault.ignore_stop) {
        sc.fault.port = int(positive(f, "port", "inject_fault", 0, true));
        if (sc.fault.port >= int(hwdef::PORTS)) bad("inject_fault.port", "no such port");
      }
      sc.fault.fall_shift_ticks = int(positive(f, "fall_shift_ticks", "inject_fault", 0, false));
      sc.fault.drop_every_sel = positive(f, "drop_every_sel", "inject_fault", 0, false);
    }
    if (doc.contains("sync")) sc.sync = parse_sync(doc["sync"], sc);
    if (doc.contains("host")) {
      const json& h = doc["host"];
      check_keys(h, "host", {"timeout_ms"});
      const uint64_t t = positive(h, "timeout_ms", "host", uint64_t(sc.host_timeout_ms), false);
      if (t < 1 || t > 3600000) bad("host.timeout_ms", "must be 1..3600000 ms");
      sc.host_timeout_ms = int(t);
    }
    if (doc.contains("schedules")) {
      if (!doc["schedules"].is_object()) bad("schedules", "must map names to files or recipes");
      for (const auto& [name, v] : doc["schedules"].items()) {
        const std::string where = "schedules." + name;
        if (v.is_string()) {
          sc.schedules.emplace_back(name, load_schedule_file((dir / v.get<std::string>()).string()));
        } else if (v.is_object() && v.contains("generate")) {
          sc.schedules.emplace_back(name, generate_schedule(v["generate"], where + ".generate"));
        } else {
          bad(where, "must be a schedule file name or {\"generate\": {...}}");
        }
      }
    }
    if (doc.contains("actions")) {
      if (!doc["actions"].is_array()) bad("actions", "must be an array");
      uint64_t last = 0;
      for (size_t i = 0; i < doc["actions"].size(); ++i) {
        const json& a = doc["actions"][i];
        Action act;
        act.where = fmt::format("actions[{}]", i);
        check_keys(a, act.where,
                   {"at_ps", "board", "do", "schedule", "commit", "expect_error", "corrupt", "outcome", "at",
                    "step", "cycles", "comment"});
        act.at_ps = positive(a, "at_ps", act.where, 0, true);
        if (act.at_ps < last) bad(act.where + ".at_ps", "actions must be in time order");
        if (act.at_ps >= sc.duration_ps) bad(act.where + ".at_ps", "is not before duration_ps");
        last = act.at_ps;
        act.board =
            a.contains("board") && a["board"] == "all" ? -1 : int(positive(a, "board", act.where, 0, false));
        if (act.board >= sc.boards)
          bad(act.where + ".board", fmt::format("no board {} (have {})", act.board, sc.boards));
        act.what = a.value("do", "");
        const bool needs_schedule = act.what == "upload" || act.what == "corrupt_commit" ||
                                    act.what == "drop_mid_stage" || act.what == "intrude" ||
                                    act.what == "raw_overwrite";
        if (!needs_schedule && act.what != "trigger" && act.what != "stop" && act.what != "cancel" &&
            act.what != "board_reset")
          bad(act.where + ".do",
              "must be upload, corrupt_commit, drop_mid_stage, intrude, raw_overwrite, cancel, trigger, "
              "stop or board_reset");
        if (act.what == "board_reset") {
          // The reset button (or the platform's reset of the logic): not a
          // bus operation, so the board takes it at at_ps whatever the host
          // is doing; the host then reconnects, as after a real reset.
          act.reset_cycles = positive(a, "cycles", act.where, 16, false);
          if (act.reset_cycles < 1 || act.reset_cycles > 100000)
            bad(act.where + ".cycles", "must be 1..100000");
          if (doc.contains("sync")) bad(act.where, "board_reset is not modelled with clock sync (\"sync\")");
        } else if (a.contains("cycles")) {
          bad(act.where + ".cycles", "only for board_reset");
        }
        if (needs_schedule) {
          act.schedule = a.value("schedule", "");
          try {
            sc.schedule(act.schedule);
          } catch (const std::exception& e) {
            bad(act.where + ".schedule", e.what());
          }
        }
        act.commit = a.value("commit", json("epoch"));
        if (!(act.commit == "epoch" || (act.commit.is_object() && act.commit.size() == 1 &&
                                        (act.commit.contains("at_ps") || act.commit.contains("in_ps")))))
          bad(act.where + ".commit", "must be \"epoch\", {\"at_ps\": t} or {\"in_ps\": dt}");
        act.expect_error = a.value("expect_error", "");
        act.corrupt = a.value("corrupt", "");
        act.outcome = a.value("outcome", "");
        if (a.contains("at")) {
          act.at = a["at"];
          const bool ok = act.what == "trigger" && act.at.is_object() && act.at.size() == 1 &&
                          ((act.at.contains("at_ps") && act.at["at_ps"].is_number_unsigned()) ||
                           (act.at.contains("in_ps") && act.at["in_ps"].is_number_unsigned()));
          if (!ok) bad(act.where + ".at", "only for trigger: {\"at_ps\": t} or {\"in_ps\": dt}");
        }
        if (a.contains("step")) {
          if (act.what != "trigger" || !a["step"].is_number_unsigned() ||
              a["step"].get<uint64_t>() > UINT32_MAX)
            bad(act.where + ".step", "only for trigger: the step to jump to, 0..4294967295");
          act.step = a["step"].get<uint32_t>();
        }
        if (!act.expect_error.empty() && act.what == "trigger" && (act.at.is_null() || !act.step))
          bad(act.where + ".expect_error", "for a trigger only with \"at\" and \"step\" (a refused jump)");
        if (act.what == "cancel" && act.outcome != "cancelled" && act.outcome != "already_swapped" &&
            act.outcome != "nothing_pending")
          bad(act.where + ".outcome", "must be cancelled, already_swapped or nothing_pending");
        if (act.what == "corrupt_commit" && act.corrupt != "magic" && act.corrupt != "version" &&
            act.corrupt != "bounds" && act.corrupt != "crc")
          bad(act.where + ".corrupt", "must be magic, version, bounds or crc");
        sc.actions.push_back(std::move(act));
      }
    }
  } catch (const json::exception& e) {
    throw std::runtime_error(path + ": " + e.what());
  } catch (const Error& e) {
    throw std::runtime_error(path + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(path + ": " + e.what());
  }
  return sc;
}

namespace {

// The host program of a scenario: the driver against the board server.
class Host {
 public:
  Host(const Scenario& sc, uint16_t port, HostLink& link) : sc_(sc), port_(port), link_(link) {}

  void run() {
    // Connect to every board first, as a host program does at start: reading
    // the capability block and the tune table takes about 66 us of bus time.
    const bool opened = timed({{"action", "open"}, {"do", "open"}, {"at_ps", 0}}, [&] {
      for (int b = 0; b < sc_.boards; ++b) device(b);
      return json("opened");
    });
    if (!opened) {
      link_.barrier_fs.store(std::numeric_limits<uint64_t>::max());
      return;
    }
    for (size_t i = 0; i < sc_.actions.size(); ++i) {
      const Action& a = sc_.actions[i];
      link_.barrier_fs.store(a.at_ps * 1000);
      if (link_.now_fs.load() > a.at_ps * 1000) {
        errors_.push_back(fmt::format("{}: at_ps {} is already past (the host's previous work ran to {} ps)",
                                      a.where, a.at_ps, link_.now_fs.load() / 1000));
        continue;
      }
      while (link_.now_fs.load() < a.at_ps * 1000)
        if (link_.stop)
          return;
        else
          std::this_thread::sleep_for(std::chrono::microseconds(50));
      timed({{"action", a.where}, {"do", a.what}, {"at_ps", a.at_ps}}, [&] { return perform(a); });
    }
    link_.barrier_fs.store(std::numeric_limits<uint64_t>::max());
    done_ = true;
  }

  // Runs one piece of host work and logs its result or error, its wall time
  // and the simulated time its bus cycles took (time stands still otherwise
  // while the host acts).
  template <class Work>
  bool timed(json entry, Work work) {
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t fs0 = link_.now_fs.load();
    bool ok = true;
    try {
      entry["result"] = work();
    } catch (const std::exception& e) {
      ok = false;
      entry["error"] = e.what();
      errors_.push_back(fmt::format("{} ({}): {}", entry["action"].get<std::string>(),
                                    entry["do"].get<std::string>(), e.what()));
    }
    const uint64_t fs1 = link_.now_fs.load();
    entry["wall_s"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    entry["sim_ps"] = double(fs1 - fs0) / 1000.0;
    entry["cycles"] = (fs1 - fs0) / (uint64_t(hwdef::CLK_PERIOD_PS) * 1000);
    log_.push_back(std::move(entry));
    return ok;
  }

  json report() const { return {{"actions", log_}, {"errors", errors_}, {"completed", done_}}; }
  bool ok() const { return done_ && errors_.empty(); }

 private:
  std::string uri(int board) const { return fmt::format("sim://127.0.0.1:{}/{}", port_, board); }
  Device& device(int board) {
    auto it = devices_.find(board);
    if (it == devices_.end()) it = devices_.emplace(board, open(board)).first;
    return it->second;
  }
  Device open(int board) const {
    const std::chrono::milliseconds timeout(sc_.host_timeout_ms);
    Device d(open_sim_transport(uri(board), timeout));
    d.set_commit_timeout(timeout);
    return d;
  }
  std::vector<int> boards(const Action& a) const {
    std::vector<int> b;
    for (int i = 0; i < sc_.boards; ++i)
      if (a.board < 0 || a.board == i) b.push_back(i);
    return b;
  }

  CommitAt commit_time(const Action& a, int first_board) {
    if (a.commit == "epoch") return CommitAt::epoch();
    if (a.commit.contains("at_ps")) return CommitAt::at(board_time_ps(a.commit["at_ps"].get<int64_t>()));
    return CommitAt::at(device(first_board).time() + picoseconds(a.commit["in_ps"].get<int64_t>()));
  }

  json perform(const Action& a) {
    const std::vector<int> targets = boards(a);
    if (a.what == "trigger" && !a.at.is_null()) {
      // One board time for every board: each must take its boundary there.
      const std::vector<int> tb = targets;
      const int64_t t = a.at.contains("at_ps")
                            ? a.at["at_ps"].get<int64_t>()
                            : to_ps(device(tb.front()).time()) + a.at["in_ps"].get<int64_t>();
      json got = json::array();
      for (int b : tb) {
        if (!a.expect_error.empty()) {
          // A refused jump: the error names the field, and the board runs on
          // as before (no trigger taken, still running).
          const Status before = device(b).status();
          std::string error = "no error";
          try {
            device(b).trigger_at(board_time_ps(t), a.step);
          } catch (const std::exception& e) {
            error = e.what();
          }
          if (error.find(a.expect_error) == std::string::npos)
            throw std::runtime_error(
                fmt::format("board {}: the jump gave \"{}\", expected \"{}\"", b, error, a.expect_error));
          const Status after = device(b).status();
          if (after.triggers != before.triggers || !after.running || after.errors != before.errors)
            throw std::runtime_error(fmt::format("board {}: the refused jump changed the board", b));
          got.push_back(error);
          continue;
        }
        std::optional<int64_t> boundary;
        if (const std::optional<BoardTime> at = device(b).trigger_at(board_time_ps(t), a.step))
          boundary = to_ps(*at);
        if (!boundary)
          throw std::runtime_error(fmt::format("board {}: no event step waited for the trigger", b));
        if (*boundary != t)
          throw std::runtime_error(
              fmt::format("board {}: the boundary is at {} ps, not the {} ps asked", b, *boundary, t));
        if (a.step) {
          const uint32_t into = device(b).status().last_trigger_step;
          if (into != *a.step)
            throw std::runtime_error(
                fmt::format("board {}: the jump went into step {}, not {}", b, into, *a.step));
        }
        got.push_back(*boundary);
      }
      return json{{"at_ps", t}, {"boundary_ps", got}};
    }
    if (a.what == "board_reset") {
      // The board drops this host's lease with everything else: the next
      // action opens the device again (and claims a new lease).
      for (int b : targets) devices_.erase(b);
      return "reset";
    }
    if (a.what == "trigger" || a.what == "stop") {
      for (int b : targets) a.what == "trigger" ? device(b).trigger() : device(b).stop();
      return "done";
    }
    if (a.what == "cancel") {
      static const char* const kNames[] = {"cancelled", "already_swapped", "nothing_pending"};
      for (int b : targets) {
        const char* got = kNames[static_cast<int>(device(b).cancel())];
        if (a.outcome != got)
          throw std::runtime_error(fmt::format("board {}: cancel found {}, expected {}", b, got, a.outcome));
      }
      return a.outcome;
    }
    const Schedule& s = sc_.schedule(a.schedule);
    if (a.what == "intrude") {
      // A second host program on the same boards: it must be refused,
      // having changed nothing.
      for (int b : targets) {
        try {
          Device other = open(b);
          other.stage(s);
          other.commit(commit_time(a, b));
        } catch (const Error& e) {
          if (std::string(e.what()).find(a.expect_error) != std::string::npos) continue;
          throw std::runtime_error(
              fmt::format("expected an error containing '{}', got: {}", a.expect_error, e.what()));
        }
        throw std::runtime_error(fmt::format("board {}: a second writer staged and committed", b));
      }
      return "refused";
    }
    if (a.what == "raw_overwrite") {
      json refused = json::array();
      for (int b : targets) refused.push_back(raw_overwrite(s, b));
      return json{{"refused", refused}};
    }
    if (a.what == "upload") {
      // Stage everywhere first, then commit everywhere for one common time:
      // all boards switch on the same boundary, or none does.
      try {
        for (int b : targets) device(b).stage(s);
        const CommitAt when = commit_time(a, targets.front());
        for (int b : targets) device(b).commit(when);
      } catch (const Error& e) {
        if (a.expect_error.empty()) throw;
        if (std::string(e.what()).find(a.expect_error) == std::string::npos)
          throw std::runtime_error(
              fmt::format("expected an error containing '{}', got: {}", a.expect_error, e.what()));
        return json{{"expected_error", e.what()}};
      }
      if (!a.expect_error.empty())
        throw std::runtime_error("expected an error containing '" + a.expect_error + "'");
      return "staged and committed";
    }
    if (a.what == "corrupt_commit") {
      for (int b : targets) corrupt_commit(a, s, b);
      return "rejected as expected";
    }
    for (int b : targets) drop_mid_stage(s, b);
    return "connection dropped mid-stage";
  }

  uint32_t inactive_bank_base(Transport& t) {
    const uint32_t status = t.read32(hwdef::REG_STATUS);
    return (status & hwdef::STATUS_ACTIVE_BANK_MASK) ? hwdef::MEM_BANK0_BASE : hwdef::MEM_BANK1_BASE;
  }

  // A bank the driver would never write, put there behind its back: the
  // board must refuse it and keep running what it runs.
  void corrupt_commit(const Action& a, const Schedule& s, int board) {
    Device& dev = device(board);
    std::vector<uint32_t> img = build_image(s, dev.capabilities());
    std::string flag;
    if (a.corrupt == "magic") {
      img[hwdef::IMG_HDR_MAGIC] ^= 1u;
      flag = "BAD_MAGIC";
    } else if (a.corrupt == "version") {
      img[hwdef::IMG_HDR_VERSION] = hwdef::IMG_VERSION + 1;
      flag = "BAD_VERSION";
    } else if (a.corrupt == "bounds") {
      uint32_t& w = img[hwdef::IMG_STEP_BASE_WORD + hwdef::IMG_STEP_CONFIG_WORD];
      w = (w & ~hwdef::IMG_STEP_CONFIG_MASK) | (img[hwdef::IMG_HDR_N_CONFIGS] << hwdef::IMG_STEP_CONFIG_LSB);
      flag = "BAD_BOUNDS";
    } else {
      img[hwdef::IMG_STEP_BASE_WORD] ^= 0x10u;  // CRC left as it was
      flag = "BAD_CRC";
    }
    if (a.corrupt != "crc") img[hwdef::IMG_HDR_CRC] = image_crc(img);
    // Written and committed on the bus as the image says, with the lease
    // the scenario's driver holds.
    dev.claim();
    auto t = open_sim_transport(uri(board));
    t->write_block(inactive_bank_base(*t), img);
    t->write32(hwdef::REG_ERROR, ~0u);
    t->write32(hwdef::REG_COMMIT_MODE, 0);
    t->write32(hwdef::REG_COMMIT_CRC, img[hwdef::IMG_HDR_CRC]);
    t->write32(hwdef::REG_COMMIT, dev.lease_token());
    while (t->read32(hwdef::REG_STATUS) & hwdef::STATUS_VERIFY_BUSY_MASK) {
    }
    const uint32_t errors = t->read32(hwdef::REG_ERROR);
    t->write32(hwdef::REG_ERROR, errors);
    const std::vector<std::string> flags = error_flag_names(errors);
    if (std::find(flags.begin(), flags.end(), flag) != flags.end()) return;
    if (t->read32(hwdef::REG_STATUS) & hwdef::STATUS_COMMIT_PENDING_MASK)
      throw std::runtime_error(fmt::format("board {} accepted a bank with {}", board, a.corrupt));
    throw std::runtime_error(
        fmt::format("board {} refused with flags 0x{:X} instead of {}", board, errors, flag));
  }

  // A program that bypasses the driver: it writes a whole valid image over
  // the inactive bank word by word, then commits it with a token of its own.
  // While a commit is pending every word and the commit must be refused.
  json raw_overwrite(const Schedule& s, int board) {
    const std::vector<uint32_t> img = build_image(s, device(board).capabilities());
    auto t = open_sim_transport(uri(board));
    const uint32_t base = inactive_bank_base(*t);
    uint32_t taken = 0;
    for (uint32_t w = 0; w < img.size(); ++w) {
      try {
        t->write32(base + 4 * w, img[w]);
        ++taken;
      } catch (const TransportError&) {
      }
    }
    bool committed = true;
    try {
      t->write32(hwdef::REG_COMMIT_CRC, img[hwdef::IMG_HDR_CRC]);
      t->write32(hwdef::REG_COMMIT, 0x0BAD0BADu);
    } catch (const TransportError&) {
      committed = false;
    }
    if (taken != 0 || committed)
      throw std::runtime_error(fmt::format("board {}: the board took {} of {} words{}", board, taken,
                                           img.size(), committed ? " and a commit without the lease" : ""));
    return json{{"board", board}, {"words_refused", img.size()}, {"commit_refused", true}};
  }

  // A host that dies half way through writing a bank: a complete chunk, then
  // half a request, then the connection drops.
  void drop_mid_stage(const Schedule& s, int board) {
    const std::vector<uint32_t> img = build_image(s, device(board).capabilities());
    auto t = open_sim_transport(uri(board));
    const uint32_t base = inactive_bank_base(*t);
    t.reset();
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket sock(io);
    sock.connect({boost::asio::ip::address_v4::loopback(), port_});
    boost::asio::streambuf reply;
    auto say = [&](const std::string& line) {
      boost::asio::write(sock, boost::asio::buffer(line));
      boost::asio::read_until(sock, reply, '\n');
      reply.consume(reply.size());
    };
    say(fmt::format("HELLO {}\n", board));
    std::string chunk = fmt::format("WR {:x}", base);
    for (size_t i = 0; i < img.size() / 2; ++i) chunk += fmt::format(" {:x}", img[i]);
    say(chunk + "\n");
    std::string half = fmt::format("WR {:x}", base + 4 * (img.size() / 2));
    for (size_t i = img.size() / 2; i < img.size(); ++i) half += fmt::format(" {:x}", img[i]);
    boost::asio::write(sock, boost::asio::buffer(half.substr(0, half.size() / 2)));
    sock.close();
  }

  const Scenario& sc_;
  uint16_t port_;
  HostLink& link_;
  std::map<int, Device> devices_;
  json log_ = json::array();
  std::vector<std::string> errors_;
  bool done_ = false;
};

}  // namespace

json run_scenario(const Scenario& sc) {
  CosimOptions o;
  o.boards = sc.boards;
  o.board.margin_ticks = (sc.margin_ps + hwdef::TICK_PS - 1) / hwdef::TICK_PS;
  o.board.packet_ticks = (sc.packet_ps + hwdef::TICK_PS - 1) / hwdef::TICK_PS;
  o.waveform_prefix = sc.waveform_prefix;
  o.board.fault = sc.fault;
  if (sc.kernel_latency >= 0) o.board.kernel_latency = unsigned(sc.kernel_latency);
  for (const Action& a : sc.actions)
    if (a.what == "board_reset") o.board.resets.push_back({a.at_ps * 1000, a.reset_cycles, a.board});
  o.sync = sc.sync;
  o.horizon_fs = sc.duration_ps * 1000;
  Cosim cosim(o);
  if (!cosim.serves()) {  // a partitioned run's other ranks: rank 0 hosts and reports
    cosim.run(sc.duration_ps * 1000);
    cosim.report();
    return nullptr;
  }
  cosim.link().barrier_fs = 0;  // the host acts first; see Host::run
  Host host(sc, cosim.port(), cosim.link());
  std::thread host_thread([&] { host.run(); });
  cosim.run(sc.duration_ps * 1000);
  cosim.link().stop = true;
  host_thread.join();
  json report = cosim.report();
  report["scenario"] = sc.path;
  report["host"] = host.report();
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
  report["unmet_expectations"] = unmet;
  report["ok"] = report["ok"].get<bool>() && host.ok() && unmet.empty();
  return report;
}

}  // namespace lightrail::sim
