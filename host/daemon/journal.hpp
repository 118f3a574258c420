// The daemon's write-ahead journal: one JSON record per line, each fsync'd
// before append() returns, so what the daemon acted on survives kill -9.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "histogram.hpp"

namespace lightrail::daemon {

class Journal {
 public:
  // Opens (creating it and its directory's entry, fsync'd) the journal at
  // path and reads every complete record. A torn last line (a crash in the
  // middle of a write) is dropped and truncated away; any other line that
  // does not parse throws std::runtime_error naming the line number.
  explicit Journal(std::string path);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  const std::string& path() const { return path_; }
  // The records read at open, in order (append() does not add to them).
  const std::vector<nlohmann::json>& records() const { return records_; }
  // Appends one record and fsyncs: when it returns, the record is on disk.
  void append(const nlohmann::json& record);
  // Replaces the whole journal with these records, atomically (write a
  // temporary file, fsync, rename, fsync the directory): compaction.
  void rewrite(const std::vector<nlohmann::json>& records);
  // Whether the file appended to is still the one at path(): false once it
  // (or its directory) was deleted or replaced, when appends would be lost.
  bool linked() const;
  // How long each record's fsync took (appends and rewrites), for /metrics.
  const Histogram& fsync_latency() const { return fsync_latency_; }

 private:
  std::string path_;
  int fd_ = -1;
  std::vector<nlohmann::json> records_;
  Histogram fsync_latency_;
};

}  // namespace lightrail::daemon
