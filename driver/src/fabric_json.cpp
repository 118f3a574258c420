// The fabric file (docs/fabric.md): parsed strictly, every problem named by
// its JSON path, and written back.
#include "lightrail/fabric_json.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "lightrail/errors.hpp"
#include "lightrail/fabric.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail {
namespace {

using nlohmann::json;

constexpr int64_t kPsPerUs = 1'000'000;
// Longer than a commit may wait for (the board's own horizon) is a typo.
constexpr int64_t kMaxMarginPs = int64_t{hwdef::COMMIT_HORIZON_S} * 1'000'000'000'000;
// An OCS far beyond any built; the bound keeps the per-port tables small.
constexpr int64_t kMaxOcsRadix = 1 << 16;
constexpr int64_t kMaxRail = (int64_t{1} << 31) - 1;
// A Clos of boards: a middle board has PORTS inputs, one per ingress board.
constexpr int64_t kMaxClosRadix = int64_t{hwdef::PORTS} * hwdef::PORTS;
static_assert(hwdef::PORTS <= hwdef::WAVELENGTHS, "a stage's value names one of PORTS switches or ports");

std::string quote_text(const std::string& s) { return "\"" + printable(s) + "\""; }

class Parser {
 public:
  std::vector<Problem> problems;

  void fail(const std::string& where, const std::string& message) { problems.push_back({where, message}); }

  void reject_unknown(const json& obj, const std::string& path, std::initializer_list<const char*> known) {
    for (auto it = obj.begin(); it != obj.end(); ++it) {
      bool ok = false;
      for (const char* k : known) ok = ok || it.key() == k;
      if (!ok) fail(json_path(path, printable(it.key())), "unknown field");
    }
  }

  std::optional<int64_t> integer(const json& v, const std::string& where, int64_t lo, int64_t hi) {
    std::string why = integer_problem(v, lo, hi);
    if (!why.empty()) {
      fail(where, std::move(why));
      return std::nullopt;
    }
    return v.get<int64_t>();
  }

  std::optional<std::string> string(const json& v, const std::string& where) {
    if (!v.is_string()) {
      fail(where, fmt::format("must be a string, not {}", json_type_name(v)));
      return std::nullopt;
    }
    return v.get<std::string>();
  }

  // "X_us" or "X_ps", not both: the margin in ps.
  void margin(const json& doc, const std::string& stem, picoseconds& out) {
    const std::string us = stem + "_us", ps = stem + "_ps";
    if (doc.contains(us) && doc.contains(ps)) {
      fail(ps, fmt::format("give {} or {}, not both", us, ps));
      return;
    }
    const bool in_us = doc.contains(us);
    if (!in_us && !doc.contains(ps)) return;
    const std::string key = in_us ? us : ps;
    const int64_t scale = in_us ? kPsPerUs : 1;
    const auto v = integer(doc[key], key, 1, kMaxMarginPs / scale);
    if (!v) return;
    out = picoseconds(*v * scale);
  }

  FabricSpec parse(const json& doc) {
    FabricSpec spec;
    if (!doc.is_object()) {
      fail("(document)", fmt::format("must be an object, not {}", json_type_name(doc)));
      return spec;
    }
    reject_unknown(doc, "",
                   {"name", "rails", "boards", "sync_master", "commit_margin_us", "commit_margin_ps",
                    "trigger_margin_us", "trigger_margin_ps"});
    if (doc.contains("name")) {
      if (auto n = string(doc["name"], "name")) spec.name = *n;
    }
    margin(doc, "commit_margin", spec.commit_margin);
    margin(doc, "trigger_margin", spec.trigger_margin);
    parse_rails(doc, spec);
    parse_boards(doc, spec);
    master_given_ = doc.contains("sync_master");
    if (master_given_) {
      if (auto n = string(doc["sync_master"], "sync_master")) {
        if (names_.count(*n) == 0) {
          fail("sync_master", fmt::format("{} names no board of this fabric", quote_text(*n)));
        } else {
          spec.sync_master = spec.board_index(*n);  // absent only when another board entry failed
          master_entry_ = names_[*n];
        }
      }
    }
    resolve_sync_tree(spec);
    return spec;
  }

 private:
  // Rail number -> index into spec.rails, for the rails that parsed.
  std::map<int, size_t> rail_index_;
  std::map<std::string, size_t> names_;  // board name -> its entry
  std::map<std::string, size_t> uris_;   // board URI -> its entry

  void parse_rails(const json& doc, FabricSpec& spec) {
    if (!doc.contains("rails")) return fail("rails", "missing: a fabric needs at least one rail");
    const json& rails = doc["rails"];
    if (!rails.is_array())
      return fail("rails", fmt::format("must be an array, not {}", json_type_name(rails)));
    if (rails.empty()) return fail("rails", "a fabric needs at least one rail");
    for (size_t i = 0; i < rails.size(); ++i) {
      const std::string at = json_path("rails", i);
      const json& r = rails[i];
      if (!r.is_object()) {
        fail(at, fmt::format("must be an object, not {}", json_type_name(r)));
        continue;
      }
      reject_unknown(r, at, {"rail", "switch", "radix"});
      FabricRail rail;
      bool ok = true;
      if (!r.contains("rail")) {
        fail(json_path(at, "rail"), "missing: the rail's number");
        ok = false;
      } else if (auto n = integer(r["rail"], json_path(at, "rail"), 0, kMaxRail)) {
        rail.rail = static_cast<int>(*n);
      } else {
        ok = false;
      }
      if (!r.contains("switch")) {
        fail(json_path(at, "switch"), "missing: \"awgr\", \"ocs\" or \"clos\"");
        ok = false;
      } else if (auto s = string(r["switch"], json_path(at, "switch"))) {
        if (*s == "awgr") {
          rail.kind = SwitchKind::kAwgr;
        } else if (*s == "ocs") {
          rail.kind = SwitchKind::kOcs;
        } else if (*s == "clos") {
          rail.kind = SwitchKind::kClos;
        } else {
          fail(json_path(at, "switch"),
               fmt::format("{} is not \"awgr\", \"ocs\" or \"clos\"", quote_text(*s)));
          ok = false;
        }
      } else {
        ok = false;
      }
      if (!r.contains("radix")) {
        fail(json_path(at, "radix"), "missing: the switch's port count");
        ok = false;
      } else {
        // An AWGR routes by wavelength: it has at most as many ports as the
        // lasers have wavelengths to reach them with.
        const bool awgr = ok && rail.kind == SwitchKind::kAwgr;
        const bool clos = ok && rail.kind == SwitchKind::kClos;
        std::string why = awgr   ? integer_problem(r["radix"], 1, hwdef::WAVELENGTHS)
                          : clos ? integer_problem(r["radix"], hwdef::PORTS, kMaxClosRadix)
                                 : integer_problem(r["radix"], 1, kMaxOcsRadix);
        if (why.empty() && clos && r["radix"].get<int64_t>() % hwdef::PORTS != 0)
          why = fmt::format("{} is not a multiple of a board's {} ports", r["radix"].get<int64_t>(),
                            hwdef::PORTS);
        if (!why.empty() && clos) {
          why += fmt::format(
              " (a Clos rail of boards has radix/{} ingress and egress boards and {} middle "
              "boards of {} ports: at most {} rail ports)",
              hwdef::PORTS, hwdef::PORTS, hwdef::PORTS, kMaxClosRadix);
        }
        if (!why.empty()) {
          fail(json_path(at, "radix"),
               awgr ? why + fmt::format(" (an AWGR has at most the lasers' {} wavelengths of ports)",
                                        hwdef::WAVELENGTHS)
                    : why);
          ok = false;
        } else {
          rail.radix = r["radix"].get<int>();
        }
      }
      if (!ok) continue;
      if (auto [it, fresh] = rail_index_.emplace(rail.rail, spec.rails.size()); !fresh) {
        fail(json_path(at, "rail"),
             fmt::format("rail {} is already defined by rails[{}]", rail.rail, it->second));
        continue;
      }
      spec.rails.push_back(rail);
    }
  }

  void parse_boards(const json& doc, FabricSpec& spec) {
    if (!doc.contains("boards")) return fail("boards", "missing: a fabric needs at least one board");
    const json& boards = doc["boards"];
    if (!boards.is_array())
      return fail("boards", fmt::format("must be an array, not {}", json_type_name(boards)));
    if (boards.empty()) return fail("boards", "a fabric needs at least one board");
    // (rail, switch port) -> (board entry, board port) that feeds it.
    std::map<std::pair<int, int>, std::pair<size_t, size_t>> fed;
    for (size_t i = 0; i < boards.size(); ++i) {
      const std::string at = json_path("boards", i);
      const json& b = boards[i];
      if (!b.is_object()) {
        fail(at, fmt::format("must be an object, not {}", json_type_name(b)));
        continue;
      }
      reject_unknown(b, at,
                     {"name", "uri", "rail", "first_switch_port", "switch_ports", "stage", "stage_index",
                      "sync_parent", "sync_calibration"});
      if (b.contains("sync_parent")) {
        if (auto n = string(b["sync_parent"], json_path(at, "sync_parent"))) parents_.emplace_back(i, *n);
      }
      FabricBoard board;
      bool ok = true;
      if (b.contains("sync_calibration")) {
        board.sync_calibration = calibration(b["sync_calibration"], json_path(at, "sync_calibration"));
        if (!board.sync_calibration) ok = false;
        calibrated_.push_back(i);
      }
      if (!b.contains("name")) {
        fail(json_path(at, "name"), "missing: every board needs a name");
        ok = false;
      } else if (auto n = string(b["name"], json_path(at, "name"))) {
        board.name = *n;
        if (n->empty()) {
          fail(json_path(at, "name"), "must not be empty");
          ok = false;
        } else if (auto [it, fresh] = names_.emplace(*n, i); !fresh) {
          fail(json_path(at, "name"),
               fmt::format("{} is already the name of boards[{}]", quote_text(*n), it->second));
          ok = false;
        }
      } else {
        ok = false;
      }
      if (!b.contains("uri")) {
        fail(json_path(at, "uri"), "missing: sim://HOST:PORT/BOARD or xrt://DEVICE");
        ok = false;
      } else if (auto u = string(b["uri"], json_path(at, "uri"))) {
        board.uri = *u;
        if (u->empty()) {
          fail(json_path(at, "uri"), "must not be empty");
          ok = false;
        } else if (auto [it, fresh] = uris_.emplace(*u, i); !fresh) {
          // Opened twice, the board's lease would refuse this fabric's own
          // second claim, as if another program held it.
          fail(json_path(at, "uri"),
               fmt::format("{} is already the uri of boards[{}]: one board listed twice", quote_text(*u),
                           it->second));
          ok = false;
        }
      } else {
        ok = false;
      }
      const FabricRail* rail = nullptr;
      if (!b.contains("rail")) {
        fail(json_path(at, "rail"), "missing: the rail this board's ports are cabled to");
        ok = false;
      } else if (auto r = integer(b["rail"], json_path(at, "rail"), 0, kMaxRail)) {
        board.rail = static_cast<int>(*r);
        auto it = rail_index_.find(board.rail);
        if (it == rail_index_.end()) {
          fail(json_path(at, "rail"), fmt::format("rail {} is not defined in \"rails\"", *r));
          ok = false;
        } else {
          rail = &spec.rails[it->second];
        }
      } else {
        ok = false;
      }
      if (rail && rail->kind == SwitchKind::kClos) {
        if (!parse_stage(b, at, *rail, board, i)) ok = false;
      } else if (b.contains("stage") || b.contains("stage_index")) {
        fail(json_path(at, b.contains("stage") ? "stage" : "stage_index"),
             rail ? fmt::format("only boards of a \"clos\" rail have a stage; rail {} is one switch",
                                rail->rail)
                  : std::string("only boards of a \"clos\" rail have a stage"));
        ok = false;
      } else if (!parse_ports(b, at, rail, board)) {
        ok = false;
      }
      // Two board ports on one switch port: each switch port takes one fibre.
      if (rail) {
        for (size_t p = 0; p < board.switch_ports.size(); ++p) {
          const int s = board.switch_ports[p];
          if (s == kDark) continue;
          auto [it, fresh] = fed.emplace(std::make_pair(rail->rail, s), std::make_pair(i, p));
          if (!fresh) {
            fail(port_where(b, at, p),
                 fmt::format("switch port {} of rail {} is already fed by boards[{}] port {}", s, rail->rail,
                             it->second.first, it->second.second));
            ok = false;
          }
        }
      }
      if (ok) spec.boards.push_back(std::move(board));
    }
    // Indices name boards in messages from here on; a hole would shift them.
    if (spec.boards.size() != boards.size()) spec.boards.clear();
  }

  // sync_parent names a board; every board follows the sync master unless it
  // names another; the chains must end at the master within
  // SYNC_MAX_CHAIN_HOPS: a longer cascade of boundary clocks is refused, not
  // run beyond what the servo is verified for (docs/clock-sync.md).
  void resolve_sync_tree(FabricSpec& spec) {
    // A calibration corrects a follower's exchange with its parent: the
    // grandmaster has no parent, and a board outside any tree none either.
    // Refused rather than ignored: a misplaced calibration usually means the
    // wrong board was named master.
    for (const size_t i : calibrated_) {
      const std::string where = json_path(json_path("boards", i), "sync_calibration");
      if (!master_given_) {
        fail(where, "a sync_calibration needs a sync_master (it corrects a follower's link to its parent)");
      } else if (master_entry_ == i) {
        fail(where,
             "the sync_master has no reference to calibrate against (the grandmaster's time is the "
             "reference): calibrate the followers' links");
      }
    }
    // (A sync_master given but unresolved was named already.)
    if (!parents_.empty() && !master_given_) {
      fail(json_path(json_path("boards", parents_.front().first), "sync_parent"),
           "a sync_parent needs a sync_master at the root of the tree");
      return;
    }
    if (!spec.sync_master || spec.boards.empty()) return;  // a board entry failed: indices are not known
    const size_t master = *spec.sync_master;
    for (size_t i = 0; i < spec.boards.size(); ++i)
      spec.boards[i].sync_parent = i == master ? std::nullopt : std::optional<size_t>(master);
    bool ok = true;
    for (const auto& [i, name] : parents_) {
      const std::string where = json_path(json_path("boards", i), "sync_parent");
      const auto parent = spec.board_index(name);
      if (!parent) {
        fail(where, fmt::format("{} names no board of this fabric", quote_text(name)));
        ok = false;
      } else if (i == master) {
        fail(where, fmt::format("the sync master follows no board (it is the root of the tree), not {}",
                                quote_text(name)));
        ok = false;
      } else if (*parent == i) {
        fail(where, "a board cannot follow its own clock");
        ok = false;
      } else {
        spec.boards[i].sync_parent = parent;
      }
    }
    if (!ok) return;
    for (size_t i = 0; i < spec.boards.size(); ++i) {
      // Walk towards the master, at most one hop beyond the limit (a hostile
      // file's 10,000-board chain costs no more than a legal one).
      const size_t limit = hwdef::SYNC_MAX_CHAIN_HOPS + 1;
      std::vector<size_t> path{i};
      size_t at = i;
      while (at != master && path.size() <= limit) {
        at = *spec.boards[at].sync_parent;
        path.push_back(at);
      }
      if (at == master && path.size() - 1 <= hwdef::SYNC_MAX_CHAIN_HOPS) continue;
      const std::string where = json_path(json_path("boards", i), "sync_parent");
      const std::set<size_t> seen(path.begin(), path.end());
      if (seen.size() < path.size()) {
        std::string loop;
        for (size_t k = 0; k < path.size() && k <= 4; ++k)
          loop += (k ? " -> " : "") + printable(spec.boards[path[k]].name);
        fail(where, fmt::format("the chain never reaches the sync master {} (a loop: {} ...)",
                                quote_text(spec.boards[master].name), loop));
        return;  // every board of the loop would say the same
      }
      const std::string hops =
          at == master ? std::to_string(path.size() - 1) : "more than " + std::to_string(limit);
      fail(where, fmt::format("{} is {} hops from the sync master {}, more than the {} (SYNC_MAX_CHAIN_HOPS) "
                              "the servo is verified for",
                              quote_text(spec.boards[i].name), hops, quote_text(spec.boards[master].name),
                              hwdef::SYNC_MAX_CHAIN_HOPS));
    }
  }

  // (rail, stage, index) -> the board entry that is that switch of a Clos rail.
  std::map<std::tuple<int, ClosStage, int>, size_t> stages_;

  // A Clos rail's board: "stage" and "stage_index" instead of switch ports
  // (the stages imply the cabling).
  bool parse_stage(const json& b, const std::string& at, const FabricRail& rail, FabricBoard& board,
                   size_t i) {
    bool ok = true;
    for (const char* k : {"first_switch_port", "switch_ports"}) {
      if (b.contains(k)) {
        fail(json_path(at, k),
             fmt::format("rail {} is a Clos of boards: give stage and stage_index, the stages imply the "
                         "cabling",
                         rail.rail));
        ok = false;
      }
    }
    if (!b.contains("stage")) {
      fail(json_path(at, "stage"), fmt::format("missing: rail {} is a Clos of boards (\"ingress\", "
                                               "\"middle\" or \"egress\")",
                                               rail.rail));
      ok = false;
    } else if (auto s = string(b["stage"], json_path(at, "stage"))) {
      if (*s == "ingress") {
        board.stage = ClosStage::kIngress;
      } else if (*s == "middle") {
        board.stage = ClosStage::kMiddle;
      } else if (*s == "egress") {
        board.stage = ClosStage::kEgress;
      } else {
        fail(json_path(at, "stage"),
             fmt::format("{} is not \"ingress\", \"middle\" or \"egress\"", quote_text(*s)));
        ok = false;
      }
    } else {
      ok = false;
    }
    if (!b.contains("stage_index")) {
      fail(json_path(at, "stage_index"), "missing: which switch of its stage the board is (0..)");
      return false;
    }
    if (!ok) return false;
    const int64_t count = board.stage == ClosStage::kMiddle ? hwdef::PORTS : rail.radix / hwdef::PORTS;
    const auto n = integer(b["stage_index"], json_path(at, "stage_index"), 0, count - 1);
    if (!n) return false;
    board.stage_index = static_cast<int>(*n);
    if (auto [it, fresh] = stages_.emplace(std::make_tuple(rail.rail, board.stage, board.stage_index), i);
        !fresh) {
      fail(json_path(at, "stage_index"), fmt::format("{} {} of rail {} is already boards[{}]",
                                                     to_string(board.stage), *n, rail.rail, it->second));
      return false;
    }
    return true;
  }

  std::vector<std::pair<size_t, std::string>> parents_;  // board entry -> the sync_parent it names
  bool master_given_ = false;                            // the document names a sync_master (resolved or not)
  std::optional<size_t> master_entry_;  // the board entry it names, even if another entry failed
  std::vector<size_t> calibrated_;      // board entries with a sync_calibration

  static std::string port_where(const json& b, const std::string& at, size_t p) {
    return b.contains("switch_ports") ? json_path(json_path(at, "switch_ports"), p)
                                      : json_path(at, "first_switch_port");
  }

  // {"delay_tx_ps", "delay_rx_ps", "asymmetry_ps"}, each optional (0 when
  // left out, as on a board out of reset), the ranges those of
  // `lightrail sync calibrate` (validate(SyncCalibration)).
  std::optional<SyncCalibration> calibration(const json& c, const std::string& at) {
    if (!c.is_object()) {
      fail(at, fmt::format("must be an object, not {}", json_type_name(c)));
      return std::nullopt;
    }
    const size_t before = problems.size();
    reject_unknown(c, at, {"delay_tx_ps", "delay_rx_ps", "asymmetry_ps"});
    SyncCalibration cal;
    auto field = [&](const char* key, int64_t& out) {
      if (!c.contains(key)) return;
      const json& v = c[key];
      const std::string where = json_path(at, key);
      // An integer literal beyond 64 bits reaches here as a double.
      if (v.is_number_float() && std::isfinite(v.get<double>()) &&
          std::trunc(v.get<double>()) == v.get<double>() && std::fabs(v.get<double>()) >= 0x1p63) {
        fail(where, fmt::format("{} is beyond the 64-bit integer range", v.dump()));
        return;
      }
      if (auto x = integer(v, where, INT64_MIN, INT64_MAX)) out = *x;
    };
    field("delay_tx_ps", cal.delay_tx_ps);
    field("delay_rx_ps", cal.delay_rx_ps);
    field("asymmetry_ps", cal.asymmetry_ps);
    if (problems.size() != before) return std::nullopt;
    for (const Problem& p : validate(cal)) fail(json_path(at, p.where), p.message);
    if (problems.size() != before) return std::nullopt;
    return cal;
  }

  // first_switch_port N (ports p -> N+p) or switch_ports [...] (-1 not
  // cabled, a missing tail not cabled): exactly one of them.
  bool parse_ports(const json& b, const std::string& at, const FabricRail* rail, FabricBoard& board) {
    const bool first = b.contains("first_switch_port"), list = b.contains("switch_ports");
    if (first == list) {
      fail(at, first
                   ? "give first_switch_port or switch_ports, not both"
                   : "missing: first_switch_port or switch_ports (which switch port each board port feeds)");
      return false;
    }
    board.switch_ports.assign(hwdef::PORTS, kDark);
    if (first) {
      const std::string where = json_path(at, "first_switch_port");
      const int64_t hi = rail ? int64_t{rail->radix} - hwdef::PORTS : kMaxOcsRadix;
      if (rail && hi < 0) {
        fail(where, fmt::format("rail {} has {} switch ports, fewer than a board's {}: use switch_ports",
                                rail->rail, rail->radix, hwdef::PORTS));
        return false;
      }
      const std::string why = integer_problem(b["first_switch_port"], 0, hi);
      if (!why.empty()) {
        fail(where, rail ? why + fmt::format(" (board ports 0..{} feed N..N+{} of rail {}'s {} switch ports)",
                                             hwdef::PORTS - 1, hwdef::PORTS - 1, rail->rail, rail->radix)
                         : why);
        return false;
      }
      const int n = b["first_switch_port"].get<int>();
      for (uint32_t p = 0; p < hwdef::PORTS; ++p) board.switch_ports[p] = n + static_cast<int>(p);
      return true;
    }
    const std::string where = json_path(at, "switch_ports");
    const json& ports = b["switch_ports"];
    if (!ports.is_array()) {
      fail(where, fmt::format("must be an array, not {}", json_type_name(ports)));
      return false;
    }
    if (ports.size() > hwdef::PORTS) {
      fail(where, fmt::format("{} entries, a board has {} ports", ports.size(), hwdef::PORTS));
      return false;
    }
    bool ok = true;
    for (size_t p = 0; p < ports.size(); ++p) {
      const int64_t hi = rail ? rail->radix - 1 : kMaxOcsRadix;
      std::string why = integer_problem(ports[p], kDark, hi);
      if (!why.empty()) {
        if (rail) why += fmt::format(" (-1: not cabled; rail {} has switch ports 0..{})", rail->rail, hi);
        fail(json_path(where, p), why);
        ok = false;
        continue;
      }
      board.switch_ports[p] = ports[p].get<int>();
    }
    return ok;
  }
};

}  // namespace

const char* to_string(ClosStage s) {
  switch (s) {
    case ClosStage::kNone:
      return "none";
    case ClosStage::kIngress:
      return "ingress";
    case ClosStage::kMiddle:
      return "middle";
    case ClosStage::kEgress:
      return "egress";
  }
  return "?";
}

const FabricRail& FabricSpec::rail(int r) const {
  for (const FabricRail& x : rails) {
    if (x.rail == r) return x;
  }
  throw std::out_of_range(fmt::format("fabric {}: rail {} is not defined", printable(name), r));
}

std::optional<uint32_t> FabricSpec::sync_hops(size_t board) const {
  if (!sync_master || board >= boards.size()) return std::nullopt;
  uint32_t hops = 0;
  for (size_t at = board; at != *sync_master; ++hops) {
    const auto& parent = boards[at].sync_parent;
    at = parent ? *parent : *sync_master;           // a spec built in code may leave it unset: the master
    if (hops > boards.size()) return std::nullopt;  // a loop (only in a spec built in code)
  }
  return hops;
}

std::optional<size_t> FabricSpec::board_index(const std::string& board_name) const {
  for (size_t i = 0; i < boards.size(); ++i) {
    if (boards[i].name == board_name) return i;
  }
  return std::nullopt;
}

FabricSpec fabric_from_json(const nlohmann::json& j) {
  Parser parser;
  FabricSpec spec = parser.parse(j);
  if (!parser.problems.empty()) throw FormatError("fabric", std::move(parser.problems));
  return spec;
}

FabricSpec parse_fabric(const std::string& text, const std::string& what) {
  const json doc = parse_json_text(text, printable(what));
  Parser parser;
  FabricSpec spec = parser.parse(doc);
  if (!parser.problems.empty()) throw FormatError(printable(what), std::move(parser.problems));
  return spec;
}

std::string to_json_text(const FabricSpec& spec) { return to_json(spec).dump(2); }

FabricSpec read_fabric_file(const std::string& path) {
  const json doc = read_json_file(path, printable(path));
  Parser parser;
  FabricSpec spec = parser.parse(doc);
  if (!parser.problems.empty()) throw FormatError(printable(path), std::move(parser.problems));
  return spec;
}

nlohmann::json to_json(const FabricSpec& spec) {
  json rails = json::array();
  for (const FabricRail& r : spec.rails) {
    const char* kind = r.kind == SwitchKind::kAwgr ? "awgr" : r.kind == SwitchKind::kOcs ? "ocs" : "clos";
    rails.push_back({{"rail", r.rail}, {"switch", kind}, {"radix", r.radix}});
  }
  json boards = json::array();
  for (const FabricBoard& b : spec.boards) {
    json out = {{"name", b.name}, {"uri", b.uri}, {"rail", b.rail}};
    if (b.stage != ClosStage::kNone) {
      out["stage"] = to_string(b.stage);
      out["stage_index"] = b.stage_index;
    } else {
      // The short form when every port is cabled in a row, as it was read.
      bool contiguous = b.switch_ports.size() == hwdef::PORTS && b.switch_ports[0] != kDark;
      for (size_t p = 0; contiguous && p < b.switch_ports.size(); ++p)
        contiguous = b.switch_ports[p] == b.switch_ports[0] + static_cast<int>(p);
      if (contiguous) {
        out["first_switch_port"] = b.switch_ports[0];
      } else {
        std::vector<int> ports = b.switch_ports;
        while (!ports.empty() && ports.back() == kDark) ports.pop_back();
        out["switch_ports"] = ports;
      }
    }
    // Only what differs from the default (follow the sync master).
    if (b.sync_parent && b.sync_parent != spec.sync_master && *b.sync_parent < spec.boards.size())
      out["sync_parent"] = spec.boards[*b.sync_parent].name;
    if (b.sync_calibration) {
      out["sync_calibration"] = {{"delay_tx_ps", b.sync_calibration->delay_tx_ps},
                                 {"delay_rx_ps", b.sync_calibration->delay_rx_ps},
                                 {"asymmetry_ps", b.sync_calibration->asymmetry_ps}};
    }
    boards.push_back(std::move(out));
  }
  json doc = {{"name", spec.name},
              {"rails", rails},
              {"boards", boards},
              {"commit_margin_ps", to_ps(spec.commit_margin)},
              {"trigger_margin_ps", to_ps(spec.trigger_margin)}};
  if (spec.sync_master && *spec.sync_master < spec.boards.size())
    doc["sync_master"] = spec.boards[*spec.sync_master].name;
  return doc;
}

}  // namespace lightrail
