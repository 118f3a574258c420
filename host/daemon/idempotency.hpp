// Idempotency keys of POST /v1/jobs (docs/lightraild.md, "Safe retries"): a
// client that lost the reply to a submission sends it again with the same
// Idempotency-Key and gets the job the first one made instead of a second
// job. Keys are per owner (token name) and kept for a bounded time and
// number; the Strategy journals them with the jobs they made.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lightrail::daemon {

inline constexpr size_t kMaxIdempotencyKeyBytes = 128;

// "" when `key` may be an Idempotency-Key (1..128 printable ASCII
// characters, no spaces or quotes), else why not.
std::string idempotency_key_problem(std::string_view key);

struct RememberedKey {
  std::string owner;  // the token name that sent it
  std::string key;
  std::string id;     // the job the first request made
  int64_t at_ms = 0;  // when (Unix time, ms): the retention counts from here
};

class IdempotencyKeys {
 public:
  // Keys are forgotten `ttl_ms` after their first use, and the oldest first
  // once more than `max_keys` are held.
  IdempotencyKeys(int64_t ttl_ms, size_t max_keys) : ttl_ms_(ttl_ms), max_keys_(max_keys) {}

  // The job this owner's key made, unless the key is unknown or expired.
  std::optional<RememberedKey> find(const std::string& owner, const std::string& key, int64_t now_ms) const;
  // Records a key (replacing an older entry of the same owner and key), then
  // forgets what is beyond the bounds.
  void remember(RememberedKey k, int64_t now_ms);
  // Every key held, oldest first.
  std::vector<RememberedKey> all() const;
  size_t size() const { return keys_.size(); }

  // The journal record of a key ({type: idempotency_key, owner, key, id,
  // at_ms}) and back (nullopt: not such a record).
  static nlohmann::json record(const RememberedKey& k);
  static std::optional<RememberedKey> from_record(const nlohmann::json& r);

 private:
  void trim(int64_t now_ms);
  const int64_t ttl_ms_;
  const size_t max_keys_;
  std::map<std::pair<std::string, std::string>, RememberedKey> keys_;  // by (owner, key)
};

}  // namespace lightrail::daemon
