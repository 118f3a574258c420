#include "journal.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>

#include "lightrail/errors.hpp"
#include "lightrail/json_text.hpp"

namespace lightrail::daemon {

namespace {

std::runtime_error fault(const std::string& path, const std::string& what) {
  return std::runtime_error(fmt::format("journal {}: {} ({})", path, what, std::strerror(errno)));
}

std::string directory_of(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// A new or renamed directory entry is only durable once the directory
// itself is fsync'd.
void sync_directory(const std::string& path) {
  const std::string dir = directory_of(path);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) throw fault(path, "cannot open its directory " + dir);
  const int rc = ::fsync(fd);
  const int saved = errno;
  ::close(fd);
  errno = saved;
  if (rc != 0) throw fault(path, "cannot fsync its directory " + dir);
}

void write_all(int fd, const std::string& text, const std::string& path) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fault(path, "cannot write");
    done += size_t(n);
  }
}

// One process at a time: two daemons appending to one journal would
// interleave their records.
void lock(int fd, const std::string& path) {
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK) {
      errno = 0;
      throw std::runtime_error(
          fmt::format("journal {}: in use by another process (is another lightraild running?)", path));
    }
    throw fault(path, "cannot lock");
  }
}

// Lines as written by append(): the record's JSON (which never contains a
// raw newline) and '\n'.
std::string line_of(const nlohmann::json& record) {
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace

Journal::Journal(std::string path) : path_(std::move(path)) {
  struct stat st {};
  const bool existed = ::stat(path_.c_str(), &st) == 0;
  fd_ = ::open(path_.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd_ < 0) throw fault(path_, "cannot open");
  try {
    lock(fd_, path_);
    if (!existed) sync_directory(path_);
    std::string text;
    char buf[65536];
    for (;;) {
      const ssize_t n = ::pread(fd_, buf, sizeof buf, off_t(text.size()));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw fault(path_, "cannot read");
      if (n == 0) break;
      text.append(buf, size_t(n));
    }
    size_t at = 0;
    size_t line = 0;
    for (size_t nl; (nl = text.find('\n', at)) != std::string::npos; at = nl + 1) {
      ++line;
      try {
        records_.push_back(parse_json_text(text.substr(at, nl - at), "record"));
      } catch (const FormatError& e) {
        throw std::runtime_error(
            fmt::format("journal {}: line {} is not a record: {}", path_, line, e.what()));
      }
    }
    // Whatever follows the last newline is a record whose append() never
    // returned (its write or fsync was cut short): nothing acted on it.
    if (at < text.size()) {
      if (::ftruncate(fd_, off_t(at)) != 0) throw fault(path_, "cannot truncate its torn last line");
      if (::fsync(fd_) != 0) throw fault(path_, "cannot fsync");
    }
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const nlohmann::json& record) {
  const std::string line = line_of(record);
  struct stat st {};
  if (::fstat(fd_, &st) != 0) throw fault(path_, "cannot stat");
  try {
    write_all(fd_, line, path_);
    // fdatasync: the data and the file size, which is all a reader needs.
    const auto t0 = std::chrono::steady_clock::now();
    if (::fdatasync(fd_) != 0) throw fault(path_, "cannot fsync");
    fsync_latency_.add(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  } catch (...) {
    // Leave no half record behind for the next append to follow.
    if (::ftruncate(fd_, st.st_size) == 0) ::fdatasync(fd_);
    throw;
  }
}

bool Journal::linked() const {
  struct stat mine {
  }, named{};
  if (::fstat(fd_, &mine) != 0 || mine.st_nlink == 0) return false;
  return ::stat(path_.c_str(), &named) == 0 && named.st_dev == mine.st_dev && named.st_ino == mine.st_ino;
}

void Journal::rewrite(const std::vector<nlohmann::json>& records) {
  const std::string tmp = path_ + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) throw fault(tmp, "cannot create");
  try {
    // Locked before it takes the journal's name, so no other process can
    // open it unlocked in between.
    lock(fd, tmp);
    std::string text;
    for (const auto& r : records) text += line_of(r);
    write_all(fd, text, tmp);
    const auto t0 = std::chrono::steady_clock::now();
    if (::fsync(fd) != 0) throw fault(tmp, "cannot fsync");
    fsync_latency_.add(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (::rename(tmp.c_str(), path_.c_str()) != 0) throw fault(path_, "cannot rename " + tmp + " over it");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd_);
  fd_ = fd;
  sync_directory(path_);
}

}  // namespace lightrail::daemon
