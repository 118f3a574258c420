#include "idempotency.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lightrail::daemon {

using nlohmann::json;

std::string idempotency_key_problem(std::string_view key) {
  if (key.empty() || key.size() > kMaxIdempotencyKeyBytes)
    return fmt::format("an Idempotency-Key has 1..{} characters (this one {})", kMaxIdempotencyKeyBytes,
                       key.size());
  for (char c : key)
    if (c <= ' ' || c > '~' || c == '"' || c == '\\')
      return "an Idempotency-Key is printable ASCII without spaces, quotes or backslashes";
  return "";
}

std::optional<RememberedKey> IdempotencyKeys::find(const std::string& owner, const std::string& key,
                                                   int64_t now_ms) const {
  const auto it = keys_.find({owner, key});
  if (it == keys_.end() || now_ms - it->second.at_ms >= ttl_ms_) return std::nullopt;
  return it->second;
}

void IdempotencyKeys::remember(RememberedKey k, int64_t now_ms) {
  auto at = std::make_pair(k.owner, k.key);
  keys_[at] = std::move(k);
  trim(now_ms);
}

std::vector<RememberedKey> IdempotencyKeys::all() const {
  std::vector<RememberedKey> out;
  for (const auto& [at, k] : keys_) out.push_back(k);
  std::stable_sort(out.begin(), out.end(),
                   [](const RememberedKey& a, const RememberedKey& b) { return a.at_ms < b.at_ms; });
  return out;
}

void IdempotencyKeys::trim(int64_t now_ms) {
  for (auto it = keys_.begin(); it != keys_.end();)
    it = now_ms - it->second.at_ms >= ttl_ms_ ? keys_.erase(it) : std::next(it);
  if (keys_.size() <= max_keys_) return;
  // Over the count: the oldest go first.
  std::vector<RememberedKey> by_age = all();
  for (size_t i = 0; keys_.size() > max_keys_; ++i) keys_.erase({by_age[i].owner, by_age[i].key});
}

json IdempotencyKeys::record(const RememberedKey& k) {
  return {{"type", "idempotency_key"}, {"owner", k.owner}, {"key", k.key}, {"id", k.id}, {"at_ms", k.at_ms}};
}

std::optional<RememberedKey> IdempotencyKeys::from_record(const json& r) {
  if (!r.is_object() || r.value("type", "") != "idempotency_key") return std::nullopt;
  return RememberedKey{r.at("owner").get<std::string>(), r.at("key").get<std::string>(),
                       r.at("id").get<std::string>(), r.at("at_ms").get<int64_t>()};
}

}  // namespace lightrail::daemon
