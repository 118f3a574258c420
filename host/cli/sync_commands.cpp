// `lightrail sync status|mode|calibrate|exchange-rate`: the board's clock-synchronisation
// servo and its role on the sync link on the command line (docs/driver.md
// "CLI", docs/lab.md "Roles", docs/clock-sync.md). --json prints one
// machine-readable object to stdout.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.hpp"
#include "device_json.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/sync.hpp"
#include "numbers.hpp"

namespace lightrail::cli {
namespace {

using nlohmann::json;

struct SyncOptions {
  std::string device;
  bool json = false;
  // calibrate: only the values given change. As typed (decimal_integer()
  // checked the syntax); run_calibrate judges the range.
  std::optional<std::string> delay_tx_ps;
  std::optional<std::string> delay_rx_ps;
  std::optional<std::string> asymmetry_ps;
  // calibrate, from measurements (docs/lab.md, section 5): a PPS skew, the
  // two ends' port delays ("TX,RX"), the fibre's alpha.
  std::optional<std::string> skew_ps;
  std::optional<std::string> reference_port_ps;
  std::optional<std::string> port_ps;
  std::optional<double> alpha;
  // alpha: two fibres' skew and round trip ("SKEW,RTT"), and the skews' error.
  std::string short_point, long_point;
  double skew_error_ps = 3;
  // mode: none given shows the current one.
  std::optional<std::string> mode;
  bool ptp_only = false;
  // exchange-rate: none given shows it; as typed, judged by run_exchange_rate.
  std::optional<std::string> rate_hz;
};

// A problem the command line itself has (exit 2), found after CLI11 parsed.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "asymmetry_ps" -> "--asymmetry-ps": the option a user typed for a field.
std::string option_name(std::string field) {
  for (char& c : field) {
    if (c == '_') c = '-';
  }
  return "--" + field;
}

json calibration_json(const SyncCalibration& c) {
  return {{"delay_tx_ps", c.delay_tx_ps}, {"delay_rx_ps", c.delay_rx_ps}, {"asymmetry_ps", c.asymmetry_ps}};
}

// Runs body; turns the driver's exceptions into exit codes and messages.
template <typename Body>
int guarded(const SyncOptions& opt, const char* command, Body body) {
  auto report = [&](int code, const std::string& message, const std::vector<Problem>& problems) {
    if (problems.empty()) std::cerr << "lightrail " << command << ": " << message << "\n";
    for (const Problem& p : problems) {
      std::cerr << "lightrail " << command << ": " << p.where << " (" << option_name(p.where)
                << "): " << p.message << "\n";
    }
    if (!problems.empty()) std::cerr << "lightrail " << command << ": nothing written\n";
    if (opt.json) {
      json out = {{"ok", false}, {"error", message}};
      if (!problems.empty()) {
        out["problems"] = json::array();
        for (const Problem& p : problems)
          out["problems"].push_back({{"where", p.where}, {"message", p.message}});
      }
      print_json(out, "lightrail.error/1");
    }
    return code;
  };
  try {
    return body();
  } catch (const UsageError& e) {
    return report(kUsage, e.what(), {});
  } catch (const FormatError& e) {
    // A calibration value or the URI (open_device() turns a malformed
    // capability block into a TransportError: the device's fault).
    return report(kInvalidInput, e.what(), e.problems());
  } catch (const BoardBusyError& e) {
    return report(kBoardBusy, e.what(), {});
  } catch (const Error& e) {
    return report(kDeviceError, e.what(), {});
  }
}

// The mode's name, or what SYNC_CTRL holds when it is none of them.
std::string mode_text(const std::optional<SyncMode>& mode) {
  return mode ? sync_mode_name(*mode) : "none: REFERENCE with ENABLE";
}

// The link engine's registers as read (SYNC_LINK, SYNC_LINK_BAD_FRAMES).
// The parent's flag means nothing on a reference, which has no parent.
std::string link_text(const SyncStatus& s) {
  std::string text = s.link_aligned ? fmt::format("engine aligned (bit slide {} UI)", s.rx_bitslide_ui)
                                    : std::string("engine NOT ALIGNED (SYNC_LINK.ALIGNED = 0)");
  if (!s.reference)
    text += s.parent_locked        ? ", parent LOCKED"
            : s.parent_in_holdover ? ", parent in HOLDOVER (time valid, followed)"
            : s.parent_time_valid  ? ", parent re-acquiring (time valid, followed)"
                                   : ", parent's time not valid (not followed)";
  return text + fmt::format(", bad frames {}", s.link_bad_frames);
}

// The downstream ports (SYNC_DOWN_LINK, SYNC_DOWN_BAD_FRAMES): which serve a
// follower whose engine is heard.
std::string down_text(const SyncStatus& s) {
  const std::vector<int> ports = down_ports(s.down_aligned);
  if (ports.empty()) return fmt::format("none aligned, bad frames {}", s.down_bad_frames);
  return fmt::format("port{} {} aligned, bad frames {}", ports.size() > 1 ? "s" : "", fmt::join(ports, ", "),
                     s.down_bad_frames);
}

// SYNC_EXCHANGE_PERIOD: how often this board's Syncs leave where it serves.
std::string exchange_text(uint32_t period_cycles) {
  return fmt::format("{:.6g}/s (a Sync every {} cycles)", sync_exchange_rate_hz(period_cycles),
                     period_cycles);
}

int run_status(const SyncOptions& opt) {
  return guarded(opt, "sync status", [&] {
    Device device = open_device(opt.device);
    const SyncStatus s = device.sync_status();
    const SyncCalibration cal = device.sync_calibration();
    if (opt.json) {
      json out = sync_status_json(s);
      out["ok"] = true;
      out["device"] = printable(opt.device);
      out["board_id"] = device.board_id();
      out["calibration"] = calibration_json(cal);
      print_json(out, "lightrail.sync-status/1");
      return static_cast<int>(kOk);
    }
    std::string errors;
    for (const std::string& e : s.errors) errors += (errors.empty() ? "" : ",") + e;
    std::cout << fmt::format(
        "{} (board {}) clock sync\n"
        "  {}\n"
        "  role        {}, sync mode {}\n"
        "  state       {} (servo {}, {}){}{}\n"
        "  reference   {}\n"
        "  link        {}\n"
        "  downstream  {}\n"
        "  exchanges   {} on the links it serves\n"
        "  offset      {} ps  round trip {} ps  delay ref->board {} ps\n"
        "  servo       P {} ps  I {} ppt  DAC 0x{:04X}  phase steps {}\n"
        "  holdover    {} us\n"
        "  calibration delay tx {} ps  delay rx {} ps  asymmetry {} ps\n"
        "  errors      {}\n",
        printable(opt.device), device.board_id(), describe(s),
        s.reference ? "reference (grandmaster)" : "follower", mode_text(sync_mode_of(s)), s.state,
        s.enabled ? "enabled" : "disabled", s.use_ddmtd ? "DDMTD" : "two-way only",
        s.locked ? ", locked" : "", s.slewing ? ", slewing" : "",
        s.ref_ok ? "link ok" : "NO LINK (SYNC_STATUS.REF_OK = 0)", link_text(s), down_text(s),
        exchange_text(s.exchange_period_cycles), s.offset_ps, s.rtt_ps, s.delay_ms_ps, s.servo_p_ps,
        s.servo_i_ppt, s.dac, s.phase_steps, s.holdover_us, cal.delay_tx_ps, cal.delay_rx_ps,
        cal.asymmetry_ps, errors.empty() ? "none" : errors);
    return static_cast<int>(kOk);
  });
}

// Calibration values the servo would refuse exchanges over (BAD_EXCHANGE):
// fixed delays longer than the measured round trip, or an asymmetry larger
// than what remains of it. Only checkable while a reference is present.
std::vector<std::string> consistency_warnings(const SyncCalibration& c, const SyncStatus& s) {
  std::vector<std::string> warnings;
  if (!s.ref_ok || s.rtt_ps == 0) return warnings;
  const int64_t fibre_rtt = int64_t{s.rtt_ps} - c.delay_tx_ps - c.delay_rx_ps;
  if (fibre_rtt < 0) {
    warnings.push_back(fmt::format(
        "delay_tx_ps + delay_rx_ps = {} ps exceeds the measured round trip {} ps: the servo will reject "
        "every exchange (BAD_EXCHANGE)",
        c.delay_tx_ps + c.delay_rx_ps, s.rtt_ps));
  } else if (c.asymmetry_ps > fibre_rtt || -c.asymmetry_ps > fibre_rtt) {
    warnings.push_back(fmt::format(
        "|asymmetry_ps| = {} ps exceeds the fibre round trip {} ps (round trip minus fixed delays): the "
        "servo will reject every exchange (BAD_EXCHANGE)",
        c.asymmetry_ps < 0 ? -c.asymmetry_ps : c.asymmetry_ps, fibre_rtt));
  }
  return warnings;
}

int run_calibrate(const SyncOptions& opt) {
  return guarded(opt, "sync calibrate", [&] {
    // Values given on the command line are checked before the device is
    // even opened; the ones not given are kept from the board.
    std::vector<Problem> problems;
    auto value = [&](const std::optional<std::string>& text, const char* field) -> std::optional<int64_t> {
      if (!text) return std::nullopt;
      const Decimal d = parse_decimal(*text);
      if (!d.in_range) {
        problems.push_back({field, fmt::format("{} is beyond the 64-bit integer range", printable(*text))});
        return std::nullopt;
      }
      return d.value;
    };
    const std::optional<int64_t> delay_tx = value(opt.delay_tx_ps, "delay_tx_ps");
    const std::optional<int64_t> delay_rx = value(opt.delay_rx_ps, "delay_rx_ps");
    const std::optional<int64_t> asymmetry = value(opt.asymmetry_ps, "asymmetry_ps");
    const std::optional<int64_t> skew = value(opt.skew_ps, "skew_ps");
    auto port = [&](const std::optional<std::string>& text, const char* field) -> std::optional<PortDelays> {
      if (!text) return std::nullopt;
      const size_t comma = text->find(',');
      const Decimal tx = parse_decimal(text->substr(0, comma));
      const Decimal rx = parse_decimal(comma == std::string::npos ? std::string() : text->substr(comma + 1));
      if (!tx.syntax_ok || !tx.in_range || !rx.syntax_ok || !rx.in_range) {
        problems.push_back({field, fmt::format("{} is not TX,RX (two integers, ps)", printable(*text))});
        return std::nullopt;
      }
      return PortDelays{tx.value, rx.value};
    };
    const std::optional<PortDelays> reference_port = port(opt.reference_port_ps, "reference_port_ps");
    const std::optional<PortDelays> own_port = port(opt.port_ps, "port_ps");
    if (opt.alpha && !(std::fabs(*opt.alpha) < 0.01))
      problems.push_back({"alpha", fmt::format("{} is not a fibre's alpha (|alpha| < 0.01; 2.6e-4 for "
                                               "1310/1490 nm)",
                                               *opt.alpha)});
    SyncCalibration given;
    given.delay_tx_ps = delay_tx.value_or(0);
    given.delay_rx_ps = delay_rx.value_or(0);
    given.asymmetry_ps = asymmetry.value_or(0);
    for (Problem& p : validate(given)) problems.push_back(std::move(p));
    if (!problems.empty()) {
      throw FormatError(fmt::format("{}: sync calibration rejected, nothing written", printable(opt.device)),
                        std::move(problems));
    }

    Device device = open_device(opt.device);
    const SyncCalibration before = device.sync_calibration();
    SyncCalibration after = before;
    if (reference_port && own_port) after = with_port_delays(after, *reference_port, *own_port);
    if (delay_tx) after.delay_tx_ps = *delay_tx;
    if (delay_rx) after.delay_rx_ps = *delay_rx;
    if (skew) after = with_pps_skew(after, picoseconds(*skew));
    if (asymmetry) after.asymmetry_ps = *asymmetry;
    const SyncStatus s_before = device.sync_status();
    if (opt.alpha) {
      // From the round trip the board measures now, less the fixed delays.
      if (!s_before.ref_ok || s_before.rtt_ps == 0)
        throw Error(
            fmt::format("{}: --alpha needs the board's measured round trip, and it has no reference "
                        "link (SYNC_STATUS.REF_OK = 0); nothing written",
                        printable(opt.device)));
      after.asymmetry_ps =
          fibre_asymmetry_ps(*opt.alpha, int64_t{s_before.rtt_ps} - after.delay_tx_ps - after.delay_rx_ps);
    }
    const bool write = after != before || opt.delay_tx_ps || opt.delay_rx_ps || opt.asymmetry_ps;
    if (write) device.sync_calibrate(after);  // validates the whole set again, writes, reads back

    const SyncStatus s = device.sync_status();
    const std::vector<std::string> warnings = consistency_warnings(after, s);
    std::string note;
    if (!s.ref_ok) {
      note =
          "no reference link (SYNC_STATUS.REF_OK = 0): the servo applies the calibration once a reference "
          "is present";
    }
    if (opt.json) {
      json out = {{"ok", true},
                  {"device", printable(opt.device)},
                  {"written", write},
                  {"calibration", calibration_json(after)},
                  {"previous", calibration_json(before)},
                  {"ref_ok", s.ref_ok},
                  {"warnings", warnings}};
      if (!note.empty()) out["note"] = note;
      print_json(out, "lightrail.sync-calibrate/1");
    } else {
      std::cout << fmt::format("{}: {} delay tx {} ps, delay rx {} ps, asymmetry {} ps",
                               printable(opt.device),
                               write ? "calibrated:" : "calibration (unchanged):", after.delay_tx_ps,
                               after.delay_rx_ps, after.asymmetry_ps);
      if (write && after != before) {
        std::cout << fmt::format(" (was delay tx {} ps, delay rx {} ps, asymmetry {} ps)", before.delay_tx_ps,
                                 before.delay_rx_ps, before.asymmetry_ps);
      }
      std::cout << "\n";
      if (!note.empty()) std::cout << "note: " << note << "\n";
    }
    for (const std::string& w : warnings) std::cerr << "lightrail sync calibrate: warning: " << w << "\n";
    return static_cast<int>(kOk);
  });
}

// The mode the command line names; usage errors (exit 2) before the device
// is opened.
std::optional<SyncMode> wanted_mode(const SyncOptions& opt) {
  if (!opt.mode) {
    if (opt.ptp_only) {
      throw UsageError("--ptp-only needs the mode follower (`sync mode --device URI follower --ptp-only`)");
    }
    return std::nullopt;
  }
  const std::string& m = *opt.mode;
  if (m != "reference" && m != "follower" && m != "off") {
    throw UsageError(fmt::format("mode: \"{}\" is not one of reference, follower, off", printable(m)));
  }
  if (opt.ptp_only && m != "follower") {
    throw UsageError(fmt::format(
        "--ptp-only applies only to the mode follower (the servo on the two-way exchange alone), not to {}",
        m));
  }
  if (m == "reference") return SyncMode::kReference;
  if (m == "off") return SyncMode::kOff;
  return opt.ptp_only ? SyncMode::kFollowerPtpOnly : SyncMode::kFollower;
}

// SYNC_CTRL as the status read it (the register keeps only these fields).
uint32_t sync_ctrl_of(const SyncStatus& s) {
  return (s.enabled ? hwdef::SYNC_CTRL_ENABLE_MASK : 0u) |
         (s.use_ddmtd ? hwdef::SYNC_CTRL_USE_DDMTD_MASK : 0u) |
         (s.reference ? hwdef::SYNC_CTRL_REFERENCE_MASK : 0u);
}

int run_mode(const SyncOptions& opt) {
  return guarded(opt, "sync mode", [&] {
    const std::optional<SyncMode> wanted = wanted_mode(opt);
    Device device = open_device(opt.device);
    const SyncStatus before = device.sync_status();
    std::vector<std::string> warnings;
    if (wanted) {
      // The servo's coarse time set may step board time once after enable:
      // a running schedule's edges would move with it.
      const bool starts_servo = sync_ctrl_word(*wanted) & hwdef::SYNC_CTRL_ENABLE_MASK;
      if (starts_servo && !before.enabled && device.status().running) {
        warnings.push_back(
            "a schedule runs: the servo's first lock may step board time once (SYNC_ERROR.TIME_STEPPED), "
            "moving its switch edges with it");
      }
      device.sync_set_mode(*wanted);  // under the lease; reads SYNC_CTRL back
    }
    const SyncStatus s = wanted ? device.sync_status() : before;
    const std::optional<SyncMode> now = sync_mode_of(s);
    if (opt.json) {
      json out = {{"ok", true},
                  {"device", printable(opt.device)},
                  {"board_id", device.board_id()},
                  {"written", wanted.has_value()},
                  {"mode", sync_mode_json(now)},
                  {"sync_ctrl", sync_ctrl_of(s)},
                  {"previous", sync_mode_json(sync_mode_of(before))},
                  {"summary", describe(s)},
                  {"warnings", warnings}};
      print_json(out, "lightrail.sync-mode/1");
    } else {
      std::string was;
      if (wanted && sync_mode_of(before) != now) was = ", was " + mode_text(sync_mode_of(before));
      std::cout << fmt::format("{}: sync mode {}{} (SYNC_CTRL = 0x{:X}{})", printable(opt.device),
                               wanted ? "set to " : "", mode_text(now), sync_ctrl_of(s), was);
      std::cout << "\n  " << describe(s) << "\n";
    }
    for (const std::string& w : warnings) std::cerr << "lightrail sync mode: warning: " << w << "\n";
    return static_cast<int>(kOk);
  });
}

// `sync exchange-rate`: how often the board's Syncs leave on the links it
// serves (SYNC_EXCHANGE_PERIOD); the rate is judged before the device is
// opened, and written only when it changes.
int run_exchange_rate(const SyncOptions& opt) {
  return guarded(opt, "sync exchange-rate", [&] {
    std::optional<uint32_t> wanted;
    if (opt.rate_hz) {
      // strtod, so that what was typed is named (a double would show 1e400 as inf).
      const std::string& text = *opt.rate_hz;
      char* end = nullptr;
      errno = 0;
      const double hz = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(hz))
        throw FormatError(
            "sync exchange rate",
            {{"rate_hz", fmt::format("{} is not a finite number of exchanges per second", printable(text))}});
      wanted = sync_exchange_period_cycles(hz);
    }
    Device device = open_device(opt.device);
    const uint32_t before = device.sync_status().exchange_period_cycles;
    const bool write = wanted && *wanted != before;
    if (write) device.sync_set_exchange_period(*wanted);  // under the lease; reads it back
    const uint32_t now = wanted.value_or(before);
    if (opt.json) {
      print_json({{"ok", true},
                  {"device", printable(opt.device)},
                  {"board_id", device.board_id()},
                  {"written", write},
                  {"exchange_period_cycles", now},
                  {"exchange_rate_hz", sync_exchange_rate_hz(now)},
                  {"previous_period_cycles", before}},
                 "lightrail.sync-exchange-rate/1");
    } else {
      std::cout << fmt::format("{}: exchange rate {}{}{}\n", printable(opt.device), write ? "set to " : "",
                               exchange_text(now), write ? ", was " + exchange_text(before) : std::string());
    }
    return static_cast<int>(kOk);
  });
}

// `sync alpha`: the fibre's alpha and what its measurement error costs a
// link, from the two points of docs/lab.md section 5.
int run_alpha(const SyncOptions& opt) {
  return guarded(opt, "sync alpha", [&] {
    std::vector<Problem> problems;
    auto point = [&](const std::string& text, const char* field) {
      AlphaPoint p;
      const size_t comma = text.find(',');
      try {
        size_t used = 0, used2 = 0;
        if (comma == std::string::npos) throw std::invalid_argument("no comma");
        p.skew_ps = std::stod(text.substr(0, comma), &used);
        p.rtt_ps = std::stod(text.substr(comma + 1), &used2);
        if (used != comma || used2 != text.size() - comma - 1 || !std::isfinite(p.skew_ps) ||
            !std::isfinite(p.rtt_ps) || p.rtt_ps <= 0)
          throw std::invalid_argument("trailing text");
      } catch (const std::exception&) {
        problems.push_back(
            {field, fmt::format("{} is not SKEW,RTT (ps, the round trip positive)", printable(text))});
      }
      return p;
    };
    const AlphaPoint a = point(opt.short_point, "short");
    const AlphaPoint b = point(opt.long_point, "long");
    if (!(opt.skew_error_ps >= 0 && std::isfinite(opt.skew_error_ps)))
      problems.push_back({"skew_error_ps", "must be a non-negative number of ps"});
    if (!problems.empty()) throw FormatError("sync alpha: nothing computed", std::move(problems));
    double alpha = 0, alpha_error = 0;
    try {
      alpha = fibre_alpha(a, b);
      alpha_error = fibre_alpha_error(a, b, opt.skew_error_ps);
    } catch (const FormatError& e) {
      // The driver names its own fields; here both come from --long against --short.
      std::vector<Problem> named;
      for (const Problem& p : e.problems()) named.push_back({"long", p.message});
      throw FormatError("sync alpha: nothing computed", std::move(named));
    }
    // What the error costs: the asymmetry of a link as long as the longer
    // fibre (its round trip) and of the longest supported one (SYNC_MAX_FIBRE_M,
    // at standard single-mode fibre's 4,897 ps per metre each way).
    const double rtt_longest = 2.0 * double(hwdef::SYNC_MAX_FIBRE_M) * 4897.0;
    const double k_error = alpha_error / ((2 + alpha) * (2 + alpha) / 2);  // of alpha / (2 + alpha)
    const double asym_error_long = k_error * b.rtt_ps;
    const double asym_error_10km = k_error * rtt_longest;
    if (opt.json) {
      print_json({{"ok", true},
                  {"alpha", alpha},
                  {"alpha_error", alpha_error},
                  {"skew_error_ps", opt.skew_error_ps},
                  {"asymmetry_error_ps_at_long_rtt", asym_error_long},
                  {"asymmetry_error_ps_at_10km", asym_error_10km}},
                 "lightrail.sync-alpha/1");
    } else {
      std::cout << fmt::format(
          "alpha {:.4e} +- {:.1e} (skews +- {} ps rms)\n"
          "  asymmetry error from it: {:.1f} ps on a link as long as the longer fibre, {:.1f} ps on 10 km\n"
          "  write it per link: lightrail sync calibrate --device URI --alpha {:.6e}\n",
          alpha, alpha_error, opt.skew_error_ps, asym_error_long, asym_error_10km, alpha);
    }
    return static_cast<int>(kOk);
  });
}

}  // namespace

void add_sync_commands(CLI::App& app, Action& action) {
  auto opt = std::make_shared<SyncOptions>();
  CLI::App* sync = app.add_subcommand("sync", "Clock synchronisation: servo status and link calibration");
  sync->require_subcommand(1);

  CLI::App* status = sync->add_subcommand("status", "Show the sync servo's state, offset, servo terms");
  status->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  status->add_flag("--json", opt->json, "print a JSON object to stdout");
  status->callback([&action, opt] { action = [opt] { return run_status(*opt); }; });

  CLI::App* mode = sync->add_subcommand(
      "mode",
      "Set the board's role on its sync link: reference (grandmaster), follower or off (none: show it)");
  mode->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  mode->add_option(
      "mode", opt->mode,
      "reference: the grandmaster, sends Sync frames, servo off (SYNC_CTRL.REFERENCE); follower: "
      "the servo follows the link (ENABLE, USE_DDMTD); off: neither (SYNC_CTRL = 0)");
  mode->add_flag(
      "--ptp-only", opt->ptp_only,
      "with follower: the servo on the two-way exchange alone, without the DDMTD phase (ENABLE only)");
  mode->add_flag("--json", opt->json, "print a JSON object to stdout");
  mode->callback([&action, opt] { action = [opt] { return run_mode(*opt); }; });

  CLI::App* rate = sync->add_subcommand(
      "exchange-rate",
      "Set how often the board sends a Sync on the links it serves (SYNC_EXCHANGE_PERIOD; none given: show "
      "it)");
  rate->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  rate->add_option(
      "--rate-hz", opt->rate_hz,
      "two-way exchanges per second, 16..61020 (the reset value: one per DDMTD beat); the engine "
      "sends at the whole period nearest it");
  rate->add_flag("--json", opt->json, "print a JSON object to stdout");
  rate->callback([&action, opt] { action = [opt] { return run_exchange_rate(*opt); }; });

  CLI::App* calibrate = sync->add_subcommand(
      "calibrate", "Set fixed delays and fibre asymmetry (only the values given change; none: show them)");
  calibrate->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  calibrate
      ->add_option("--delay-tx-ps", opt->delay_tx_ps,
                   "board TX + reference RX fixed delay, ps (SYNC_CAL_DELAY_SM_PS)")
      ->check(decimal_integer());
  calibrate
      ->add_option("--delay-rx-ps", opt->delay_rx_ps,
                   "reference TX + board RX fixed delay, ps (SYNC_CAL_DELAY_MS_PS)")
      ->check(decimal_integer());
  calibrate
      ->add_option("--asymmetry-ps", opt->asymmetry_ps,
                   "fibre forward (reference->board) minus backward delay, ps (SYNC_CAL_ASYM_PS)")
      ->check(decimal_integer());
  auto* skew =
      calibrate
          ->add_option("--skew-ps", opt->skew_ps,
                       "a PPS skew measured on this locked follower (its edge minus the reference's, ps, "
                       "averaged; positive: late), folded into the fixed delays: late by s adds 2s to the "
                       "receive delay, early adds 2|s| to the transmit delay")
          ->check(decimal_integer());
  auto* ref_port = calibrate->add_option(
      "--reference-port-ps", opt->reference_port_ps,
      "TX,RX: the reference's port delays, ps (measured once per board against a golden board)");
  auto* own_port = calibrate->add_option("--port-ps", opt->port_ps,
                                         "TX,RX: this board's port delays, ps; with "
                                         "--reference-port-ps sets both fixed delays");
  ref_port->needs(own_port);
  own_port->needs(ref_port);
  calibrate->add_option(
      "--alpha", opt->alpha,
      "the fibre's alpha (forward/backward delay - 1, from `sync alpha`): sets the asymmetry "
      "from the round trip the board measures now, less the fixed delays");
  skew->excludes("--delay-rx-ps")->excludes("--delay-tx-ps");
  calibrate->add_flag("--json", opt->json, "print a JSON object to stdout");
  calibrate->callback([&action, opt] { action = [opt] { return run_calibrate(*opt); }; });

  CLI::App* alpha = sync->add_subcommand(
      "alpha", "The fibre's alpha from PPS skews on two fibre lengths (no board needed; docs/lab.md)");
  alpha
      ->add_option("--short", opt->short_point,
                   "SKEW,RTT on the shorter fibre: PPS skew (follower minus reference, ps) with "
                   "SYNC_CAL_ASYM_PS = 0, and the round trip `sync status` shows, ps")
      ->required();
  alpha->add_option("--long", opt->long_point, "SKEW,RTT on the longer fibre, the same ports")->required();
  alpha->add_option("--skew-error-ps", opt->skew_error_ps,
                    "rms error of each skew measurement, ps (default 3: averaged, deskewed probes)");
  alpha->add_flag("--json", opt->json, "print a JSON object to stdout");
  alpha->callback([&action, opt] { action = [opt] { return run_alpha(*opt); }; });
}

}  // namespace lightrail::cli
