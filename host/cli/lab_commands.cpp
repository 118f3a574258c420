// `lightrail boards|flash|health`: bringing up a board in the lab
// (docs/lab.md). boards lists what can be reached; flash checks a board image
// against its descriptor, loads it (XRT) and proves the register path; health
// says in one exit code whether a board is fit to run schedules.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "commands.hpp"
#include "device_json.hpp"
#include "failure.hpp"
#include "lightrail/board_image.hpp"
#include "lightrail/device.hpp"
#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"
#include "lightrail/sync.hpp"
#include "lightrail/transport.hpp"

namespace lightrail::cli {
namespace {

using nlohmann::json;

struct LabOptions {
  std::string device;
  std::string file;
  std::vector<std::string> sim;  // boards --sim HOST:PORT
  bool json = false;
  double max_temp_c = 95.0;   // health: hotter is unhealthy (ZU9EG -E: Tj max 100 C)
  bool clear_errors = false;  // health: clear the sticky flags first
};

template <typename Body>
int guarded(const LabOptions& opt, const char* command, Body body) {
  return run_reporting(command, opt.device, opt.file, opt.json, body);
}

// ---------------------------------------------------------------- boards

json board_entry(const std::string& uri) {
  json entry = {{"uri", uri}};
  try {
    Device d = open_device(uri);
    entry["reachable"] = true;
    entry["board_id"] = d.board_id();
    entry["build"] = build_json(d.build_id());
    const std::optional<std::string> uuid = d.image_uuid();
    entry["uuid"] = uuid ? json(*uuid) : json(nullptr);
    entry["ports"] = d.capabilities().ports;
  } catch (const Error& e) {
    entry["reachable"] = false;
    entry["error"] = e.what();
  }
  return entry;
}

int run_boards(const LabOptions& opt) {
  return guarded(opt, "boards", [&] {
    json out = {{"ok", true}, {"xrt", have_xrt()}, {"boards", json::array()}, {"servers", json::array()}};
    for (const XrtBoard& x : list_xrt_devices()) {
      json e = board_entry(x.uri);
      if (!x.problem.empty()) e["xrt_problem"] = x.problem;
      out["boards"].push_back(e);
    }
    bool all_answered = true;
    for (const std::string& server : opt.sim) {
      json s = {{"server", printable(server)}};
      try {
        const SimServer info = probe_sim_server(server);
        // `lightrail-cosim serve` serves at most 64; a server claiming more
        // is not asked for each of them.
        constexpr uint32_t kMaxServedBoards = 1024;
        if (info.boards > kMaxServedBoards)
          throw TransportError(fmt::format("{}: the server says it serves {} boards (more than {})",
                                           printable(server), info.boards, kMaxServedBoards));
        s["boards"] = info.boards;
        s["uuid"] = info.image_uuid;
        for (uint32_t b = 0; b < info.boards; ++b)
          out["boards"].push_back(board_entry(fmt::format("sim://{}/{}", server, b)));
      } catch (const FormatError&) {
        throw;  // a malformed HOST:PORT is the user's input
      } catch (const Error& e) {
        s["error"] = e.what();
        all_answered = false;
      }
      out["servers"].push_back(s);
    }
    if (opt.json) {
      print_json(out, "lightrail.boards/1");
    } else {
      if (!have_xrt()) std::cout << "XRT: not in this build (xrt:// devices are not listed)\n";
      for (const json& s : out["servers"]) {
        if (s.contains("error")) {
          std::cout << fmt::format("{}: no board server: {}\n", s["server"].get<std::string>(),
                                   s["error"].get<std::string>());
        }
      }
      if (out["boards"].empty()) std::cout << "no boards found\n";
      for (const json& b : out["boards"]) {
        if (!b["reachable"].get<bool>()) {
          std::cout << fmt::format("{}  unreachable: {}\n", b["uri"].get<std::string>(),
                                   b["error"].get<std::string>());
          continue;
        }
        std::cout << fmt::format("{}  board {}  image {}  source {}  built {}  map {}\n",
                                 b["uri"].get<std::string>(), b["board_id"].get<uint32_t>(),
                                 b["uuid"].is_null() ? "(none reported)" : b["uuid"].get<std::string>(),
                                 b["build"]["source_hash"].get<std::string>(),
                                 b["build"]["build_time_utc"].get<std::string>(),
                                 b["build"]["regmap_version"].get<uint32_t>());
      }
    }
    return static_cast<int>(all_answered ? kOk : kDeviceError);
  });
}

// ---------------------------------------------------------------- flash

// A descriptor that does not describe the board: exit 1, every field named.
[[noreturn]] void refuse_mismatch(const BoardImage& image, const std::vector<ImageMismatch>& m,
                                  const std::string& device, const std::string& after) {
  std::vector<Problem> problems;
  for (const ImageMismatch& x : m)
    problems.push_back({x.field, fmt::format("the image says {}, the board reports {}", x.image, x.board)});
  throw FormatError(
      fmt::format("{}: the image does not match {}{}", printable(image.path), printable(device), after),
      std::move(problems));
}

int run_flash(const LabOptions& opt) {
  return guarded(opt, "flash", [&] {
    const BoardImage image = read_board_image(opt.file);
    // The descriptor's own claims first: an image this lightrail cannot
    // speak to is refused before anything is loaded.
    if (image.build.regmap_version != hwdef::REGMAP_VERSION) {
      throw FormatError(
          printable(opt.file),
          {{"build.regmap_version",
            fmt::format("the image has register map {}; this lightrail speaks {}: nothing loaded",
                        image.build.regmap_version, hwdef::REGMAP_VERSION)}});
    }
    const bool is_sim = opt.device.rfind("sim://", 0) == 0;
    std::string loaded;  // what was done to the board, for the report
    std::unique_ptr<Transport> transport;
    if (is_sim) {
      // Nothing is programmed on sim://: the co-simulated board runs the
      // model it was built from, and flash checks the image against it.
      if (image.target != "cosim")
        throw FormatError(
            printable(opt.file),
            {{"target", fmt::format("\"{}\" is a hardware image; a sim:// board runs the \"cosim\" "
                                    "image: nothing loaded",
                                    printable(image.target))}});
      transport = open_transport(opt.device);
      loaded = "nothing programmed (sim://: the image is checked against the running model)";
    } else {
      if (!image.xclbin)
        throw FormatError(printable(opt.file),
                          {{"xclbin", "a hardware image names its xclbin: nothing loaded"}});
      // The xclbin must be the one the descriptor describes before it goes
      // near the board.
      const std::string file_uuid = xclbin_file_uuid(*image.xclbin);
      if (file_uuid != image.uuid)
        throw FormatError(printable(opt.file),
                          {{"uuid", fmt::format("the descriptor says {}, the xclbin {} is {}: nothing loaded",
                                                image.uuid, printable(*image.xclbin), file_uuid)}});
      if (opt.device.find('?') != std::string::npos)
        throw FormatError(printable(opt.device) +
                          ": name the device only (xrt://DEVICE[/IP]); flash loads the "
                          "descriptor's xclbin");
      transport = open_transport(opt.device + "?xclbin=" + *image.xclbin);
      loaded = fmt::format("loaded {}", printable(*image.xclbin));
    }
    Device device = [&] {
      try {
        return Device(std::move(transport));
      } catch (const FormatError& e) {
        throw TransportError(e.what());  // the board's capability block, not the user's input
      }
    }();
    const std::vector<ImageMismatch> mismatch = compare_image(image, device.build_id(), device.image_uuid());
    if (!mismatch.empty()) refuse_mismatch(image, mismatch, opt.device, is_sim ? "" : " after loading it");
    const int patterns = device.self_test();
    device.release();
    const BuildId& b = device.build_id();
    if (opt.json) {
      print_json({{"ok", true},
                  {"device", printable(opt.device)},
                  {"file", printable(opt.file)},
                  {"programmed", !is_sim},
                  {"action", loaded},
                  {"uuid", image.uuid},
                  {"board_id", device.board_id()},
                  {"build", build_json(b)},
                  {"self_test", {{"passed", true}, {"scratch_patterns", patterns}}}},
                 "lightrail.flash/1");
    } else {
      std::cout << fmt::format(
          "{}: {}\n"
          "  image      {} ({})\n"
          "  build      {}\n"
          "  self-test  passed (SCRATCH: {} patterns; capability block read twice)\n",
          printable(opt.device), loaded, image.uuid, printable(opt.file), build_text(b), patterns);
    }
    return static_cast<int>(kOk);
  });
}

// ---------------------------------------------------------------- health

// SYNC_ERROR flags that say the board's time was or is not to be trusted;
// the others (TIME_STEPPED: the coarse time set of every first lock;
// DELAY_STEP: a followed path change) are reported but are not faults.
// Not this board's faults: a coarse time set at first lock, a step of the
// path the servo took, and a holdover its reference's invalid time caused
// (the fault is upstream: that board's health names it).
bool sync_error_is_fault(const std::string& name) {
  return name != "TIME_STEPPED" && name != "DELAY_STEP" && name != "PARENT_LOST";
}

struct Check {
  std::string name;
  bool ok = true;
  std::string text;  // what was seen
  json value;
};

int run_health(const LabOptions& opt) {
  return guarded(opt, "health", [&] {
    Device device = open_device(opt.device);
    std::vector<Check> checks;
    // Flags cleared first, so that only causes still present (which raise
    // theirs again) fail; what was cleared is printed, never hidden.
    std::vector<std::string> cleared;
    if (opt.clear_errors) {
      cleared = device.clear_sticky_errors();
      device.release();
    }

    // The system clock runs: board time advances between two reads.
    const int64_t t0 = to_ps(device.time());
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    const int64_t t1 = to_ps(device.time());
    const int64_t period = device.capabilities().clk_period_ps;
    checks.push_back({"clock",
                      t1 > t0,
                      t1 > t0 ? fmt::format("running ({} ps period, board time {} ps)", period, t1)
                              : fmt::format("stopped: board time read {} ps twice", t1),
                      {{"running", t1 > t0}, {"period_ps", period}, {"board_time_ps", t1}}});

    const HealthInputs in = device.health_inputs();
    checks.push_back({"mmcm", in.mmcm_locked, in.mmcm_locked ? "locked" : "NOT LOCKED", in.mmcm_locked});

    const SyncStatus sync = device.sync_status();
    // A board whose servo runs follows a reference over its link: both must
    // be up. A board without (a grandmaster, free-running time) needs neither.
    const bool link_needed = sync.enabled;
    checks.push_back({"link", in.link_up || !link_needed,
                      in.link_up    ? "up"
                      : link_needed ? "DOWN (the servo has no reference)"
                                    : "down (no reference link: servo off)",
                      in.link_up});
    const bool sync_ok = !sync.enabled || (sync.locked && !sync.holdover);
    checks.push_back({"sync",
                      sync_ok,
                      sync.enabled
                          ? (sync_ok ? fmt::format("locked, offset {} ps", sync.offset_ps)
                                     : fmt::format("NOT LOCKED ({}): {}", sync.state, describe(sync)))
                      : sync.reference ? "off: the link's reference (grandmaster, SYNC_CTRL.REFERENCE)"
                                       : "off (board time free-running)",
                      {{"enabled", sync.enabled},
                       {"locked", sync.locked},
                       {"state", sync.state},
                       {"offset_ps", sync.offset_ps},
                       {"reference", sync.reference},
                       {"link_aligned", sync.link_aligned},
                       {"parent_locked", sync.parent_locked},
                       {"parent_time_valid", sync.parent_time_valid},
                       {"parent_degraded", sync.parent_degraded},
                       {"parent_holdover", sync.parent_holdover},
                       {"link_bad_frames", sync.link_bad_frames}}});

    const Status s = device.status();
    std::vector<std::string> faults, notes;
    for (const std::string& e : s.errors) faults.push_back("ERROR." + e);
    for (const std::string& e : sync.errors)
      (sync_error_is_fault(e) ? faults : notes).push_back("SYNC_ERROR." + e);
    if (s.missed > 0 && std::find(s.errors.begin(), s.errors.end(), "MISSED_DEADLINE") == s.errors.end())
      faults.push_back(fmt::format("MISSED={}", s.missed));
    std::string listed;
    for (const std::string& f : faults) listed += (listed.empty() ? "" : ",") + f;
    std::string noted;
    for (const std::string& n : notes) noted += (noted.empty() ? "" : ",") + n;
    checks.push_back({"errors",
                      faults.empty(),
                      faults.empty() ? (notes.empty() ? "none" : "none (noted: " + noted + ")") : listed,
                      {{"faults", faults}, {"notes", notes}, {"missed", s.missed}}});

    if (in.temperature_c) {
      const bool cool = *in.temperature_c <= opt.max_temp_c;
      checks.push_back({"temperature", cool,
                        fmt::format("{:.1f} C{}", *in.temperature_c,
                                    cool ? "" : fmt::format(" (above {:.1f} C)", opt.max_temp_c)),
                        *in.temperature_c});
    } else {
      checks.push_back({"temperature", true, "not exposed by this platform", nullptr});
    }

    bool healthy = true;
    for (const Check& c : checks) healthy = healthy && c.ok;
    if (opt.json) {
      json out = {{"ok", true},
                  {"healthy", healthy},
                  {"device", printable(opt.device)},
                  {"board_id", device.board_id()},
                  {"build", build_json(device.build_id())},
                  {"checks", json::object()}};
      if (opt.clear_errors) out["cleared"] = cleared;
      for (const Check& c : checks)
        out["checks"][c.name] = {{"ok", c.ok}, {"text", c.text}, {"value", c.value}};
      print_json(out, "lightrail.health/1");
    } else {
      std::cout << fmt::format("{} (board {}): {}\n", printable(opt.device), device.board_id(),
                               healthy ? "healthy" : "UNHEALTHY");
      for (const Check& c : checks)
        std::cout << fmt::format("  {:<12}{:<6}{}\n", c.name, c.ok ? "ok" : "FAIL", c.text);
      if (opt.clear_errors) {
        std::string names;
        for (const std::string& n : cleared) names += (names.empty() ? "" : ",") + n;
        std::cout << fmt::format("  cleared before the checks: {}\n", names.empty() ? "none" : names);
      }
    }
    return static_cast<int>(healthy ? kOk : kUnhealthy);
  });
}

}  // namespace

void add_lab_commands(CLI::App& app, Action& action) {
  auto opt = std::make_shared<LabOptions>();

  CLI::App* boards = app.add_subcommand("boards", "List the boards XRT finds and those of board servers");
  boards->add_option("--sim", opt->sim, "HOST:PORT of a `lightrail-cosim serve` (repeatable)");
  boards->add_flag("--json", opt->json, "print a JSON object to stdout");
  boards->callback([&action, opt] { action = [opt] { return run_boards(*opt); }; });

  CLI::App* flash = app.add_subcommand(
      "flash", "Check a board image against its descriptor, load it (xrt://) and self-test the board");
  flash->add_option("--device", opt->device, "xrt://DEVICE[/IP] or sim://HOST:PORT/BOARD")->required();
  flash->add_option("file", opt->file, "the image's descriptor, *.image.json (docs/lab.md)")->required();
  flash->add_flag("--json", opt->json, "print a JSON object to stdout");
  flash->callback([&action, opt] { action = [opt] { return run_flash(*opt); }; });

  CLI::App* health = app.add_subcommand(
      "health", "Clock, MMCM, link, sync lock, error flags and temperature; exit 0 only when healthy");
  health->add_option("--device", opt->device, "sim://HOST:PORT/BOARD or xrt://DEVICE")->required();
  health->add_option("--max-temp-c", opt->max_temp_c, "hottest die temperature that counts as healthy")
      ->check(CLI::Range(0.0, 125.0));
  health->add_flag(
      "--clear-errors", opt->clear_errors,
      "clear the sticky ERROR and SYNC_ERROR flags first (takes the writer lease) and print them");
  health->add_flag("--json", opt->json, "print a JSON object to stdout");
  health->callback([&action, opt] { action = [opt] { return run_health(*opt); }; });
}

}  // namespace lightrail::cli
