// A board's state as the CLI prints it with --json: the same keys from
// every command that shows it.
#pragma once

#include <fmt/format.h>

#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "lightrail/device.hpp"
#include "lightrail/json_document.hpp"
#include "lightrail/sync.hpp"
#include "lightrail/validate.hpp"

namespace lightrail::cli {

inline nlohmann::json problems_json(const std::vector<Problem>& problems) {
  nlohmann::json out = nlohmann::json::array();
  for (const Problem& p : problems) out.push_back({{"where", p.where}, {"message", p.message}});
  return out;
}

inline nlohmann::json status_json(const Status& s) {
  return {{"running", s.running},
          {"active_bank", s.active_bank},
          {"commit_pending", s.commit_pending},
          {"verify_busy", s.verify_busy},
          {"waiting_trigger", s.waiting_trigger},
          {"cancelled", s.cancelled},
          {"errors", s.errors},
          {"steps", s.steps},
          {"missed", s.missed},
          {"cur_step", s.cur_step},
          {"cur_config", s.cur_config},
          {"generation", s.generation},
          {"epochs", s.epochs},
          {"swaps", s.swaps},
          {"last_swap_ps", to_ps(s.last_swap)},
          {"board_time_ps", to_ps(s.board_time)}};
}

// A build time (s since the epoch) as UTC, "unknown" for 0.
inline std::string build_time_text(uint32_t t) {
  if (t == 0) return "unknown";
  const std::time_t tt = static_cast<std::time_t>(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The build ID of the image a board runs (CAP_BUILD_*, CAP_VERSION).
inline nlohmann::json build_json(const BuildId& b) {
  return {{"source_hash", b.source_hash_hex()},
          {"build_time", b.build_time},
          {"build_time_utc", build_time_text(b.build_time)},
          {"regmap_version", b.regmap_version}};
}

inline std::string build_text(const BuildId& b) {
  return fmt::format("source {}  built {}  register map {}", b.source_hash_hex(),
                     build_time_text(b.build_time), b.regmap_version);
}

inline nlohmann::json lease_json(const LeaseInfo& l) {
  if (l.owner == 0) return {{"held", false}, {"ttl_ms", l.ttl.count()}};
  return {{"held", true},
          {"owner", fmt::format("0x{:08X}", l.owner)},
          {"expires_ps", to_ps(l.expires)},
          {"ttl_ms", l.ttl.count()}};
}

// A SYNC_CTRL value's mode by name ("follower"); null for REFERENCE with
// ENABLE, which no mode sets.
inline nlohmann::json sync_mode_json(const std::optional<SyncMode>& mode) {
  return mode ? nlohmann::json(sync_mode_name(*mode)) : nlohmann::json(nullptr);
}

// The downstream ports whose engine aligned, by number (1..SYNC_DOWN_PORTS).
inline std::vector<int> down_ports(uint32_t aligned) {
  std::vector<int> ports;
  for (int k = 1; aligned != 0; ++k, aligned >>= 1)
    if (aligned & 1u) ports.push_back(k);
  return ports;
}

inline nlohmann::json sync_status_json(const SyncStatus& s) {
  return {{"state", s.state},
          {"state_code", s.state_code},
          {"enabled", s.enabled},
          {"use_ddmtd", s.use_ddmtd},
          {"reference", s.reference},
          {"mode", sync_mode_json(sync_mode_of(s))},
          {"locked", s.locked},
          {"holdover", s.holdover},
          {"ref_ok", s.ref_ok},
          {"time_valid", s.time_valid},
          {"parent_degraded", s.parent_degraded},
          {"parent_holdover", s.parent_holdover},
          {"slewing", s.slewing},
          {"ddmtd_active", s.ddmtd_active},
          {"offset_ps", s.offset_ps},
          {"rtt_ps", s.rtt_ps},
          {"delay_ms_ps", s.delay_ms_ps},
          {"servo_p_ps", s.servo_p_ps},
          {"servo_i_ppt", s.servo_i_ppt},
          {"dac", s.dac},
          {"phase_steps", s.phase_steps},
          {"holdover_us", s.holdover_us},
          {"link_aligned", s.link_aligned},
          {"parent_locked", s.parent_locked},
          {"parent_time_valid", s.parent_time_valid},
          {"parent_in_holdover", s.parent_in_holdover},
          {"rx_bitslide_ui", s.rx_bitslide_ui},
          {"link_bad_frames", s.link_bad_frames},
          {"down_ports_aligned", down_ports(s.down_aligned)},
          {"down_bad_frames", s.down_bad_frames},
          {"exchange_period_cycles", s.exchange_period_cycles},
          {"errors", s.errors},
          {"summary", describe(s)}};
}

}  // namespace lightrail::cli
