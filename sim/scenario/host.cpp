#include "scenario/host.hpp"

#include <algorithm>
#include <boost/asio.hpp>
#include <chrono>
#include <limits>
#include <optional>
#include <stdexcept>
#include <thread>
#include <utility>

#include "lightrail/errors.hpp"
#include "lightrail/hwdef.hpp"
#include "lightrail/image.hpp"
#include "lightrail/image_crc.hpp"

namespace lightrail::sim {

using nlohmann::json;

template <class Work>
bool Host::timed(json entry, Work work) {
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

void Host::run() {
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

Device& Host::device(int board) {
  auto it = devices_.find(board);
  if (it == devices_.end()) it = devices_.emplace(board, open(board)).first;
  return it->second;
}

Device Host::open(int board) const {
  const std::chrono::milliseconds timeout(sc_.host_timeout_ms);
  Device d(open_sim_transport(uri(board), timeout));
  d.set_commit_timeout(timeout);
  return d;
}

std::vector<int> Host::boards(const Action& a) const {
  std::vector<int> b;
  for (int i = 0; i < sc_.boards; ++i)
    if (a.board < 0 || a.board == i) b.push_back(i);
  return b;
}

CommitAt Host::commit_time(const Action& a, int first_board) {
  if (a.commit == "epoch") return CommitAt::epoch();
  if (a.commit.contains("at_ps")) return CommitAt::at(board_time_ps(a.commit["at_ps"].get<int64_t>()));
  return CommitAt::at(device(first_board).time() + picoseconds(a.commit["in_ps"].get<int64_t>()));
}

json Host::perform(const Action& a) {
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

uint32_t Host::inactive_bank_base(Transport& t) {
  const uint32_t status = t.read32(hwdef::REG_STATUS);
  return (status & hwdef::STATUS_ACTIVE_BANK_MASK) ? hwdef::MEM_BANK0_BASE : hwdef::MEM_BANK1_BASE;
}

void Host::corrupt_commit(const Action& a, const Schedule& s, int board) {
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

json Host::raw_overwrite(const Schedule& s, int board) {
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

void Host::drop_mid_stage(const Schedule& s, int board) {
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

}  // namespace lightrail::sim
