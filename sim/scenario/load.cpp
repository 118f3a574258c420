#include <fmt/format.h>

#include <initializer_list>
#include <random>
#include <stdexcept>
#include <utility>

#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/schedule_json.hpp"
#include "scenario/scenario.hpp"

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
  if (o.topology != "star" && o.topology != "chain" && o.topology != "tree")
    bad("sync.topology", "must be \"star\", \"chain\" or \"tree\"");
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
                  "engine_counts_corrupted_frames",
                  "exchanges_max"});
      for (const char* k : {"link_change_recovery_us_max", "link_change_overshoot_ps_max",
                            "link_change_shift_error_ps_max", "relock_us_max", "std_growth_per_hop_max",
                            "std_growth_beyond_sqrt_per_hop_max", "below_spread_ps_max", "exchanges_max"})
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

}  // namespace lightrail::sim
