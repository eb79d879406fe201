// AtomicFile: temporary file beside the target, fsync, rename, fsync the directory; special
// files and standard output written directly.
#include "io/atomic_file.hpp"

#include "io/npy.hpp"
#include "io/posix_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <system_error>
#include <utility>

namespace vkc::io {
namespace {

namespace fs = std::filesystem;

// Linux transfers at most ~2 GiB per write(); larger spans go in chunks.
constexpr std::size_t max_chunk = std::size_t{1} << 30;

[[noreturn]] void fail(const fs::path& target, const std::string& what, int error) {
  detail::fail_errno(target, what, error);
}

fs::path directory_of(const fs::path& target) {
  fs::path dir = target.parent_path();
  return dir.empty() ? fs::path(".") : dir;
}

// ---- The temporary files alive now, for a signal handler to remove ----

// Plain C strings in fixed slots, so that the handler only loads pointers and calls unlink().
constexpr int temp_slots = 32;
std::atomic<char*> live_temps[temp_slots];

void remember_temp(const fs::path& temp) {
  char* copy = ::strdup(temp.c_str());
  if (!copy) return;
  for (auto& slot : live_temps) {
    char* expected = nullptr;
    if (slot.compare_exchange_strong(expected, copy)) return;
  }
  std::free(copy);  // more live outputs than slots: this one is not removed on a signal
}

void forget_temp(const fs::path& temp) {
  for (auto& slot : live_temps) {
    char* held = slot.load();
    if (held && temp == held && slot.compare_exchange_strong(held, nullptr)) {
      std::free(held);
      return;
    }
  }
}

// ---- What a target names ----

// "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: a descriptor of this process
// (written directly, never replaced: /dev/stdout redirected to a file names that file); -1
// for any other path.
int descriptor_named(const fs::path& path) {
  const std::string name = path.string();
  if (name == "-" || name == "/dev/stdout") return STDOUT_FILENO;
  if (name == "/dev/stderr") return STDERR_FILENO;
  for (const std::string prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::string digits = name.substr(std::min(name.size(), prefix.size()));
    if (name.starts_with(prefix) && !digits.empty() && digits.size() < 9 &&
        std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      return std::stoi(digits);
    }
  }
  return -1;
}

struct Resolved {
  fs::path path;         // the target with symbolic links followed
  int descriptor = -1;   // >= 0: one of this process's descriptors
  bool exists = false;
  mode_t mode = 0;
};

// Follows symbolic links (at most 40, as the kernel does), stopping at a descriptor's name.
Resolved resolve(const fs::path& target) {
  fs::path path = target;
  for (int hop = 0; hop < 40; ++hop) {
    if (const int fd = descriptor_named(path); fd >= 0) return {path, fd};
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return {path};  // creating the file says why
      fail(target, "cannot stat '" + path.string() + "'", errno);
    }
    if (!S_ISLNK(st.st_mode)) return {path, -1, true, st.st_mode};
    std::error_code ec;
    const fs::path link = fs::read_symlink(path, ec);
    if (ec) fail(target, "cannot read the link '" + path.string() + "'", ec.value());
    path = link.is_absolute() ? link : path.parent_path() / link;
  }
  fail(target, "too many symbolic links", ELOOP);
}

std::string random_suffix() {
  static thread_local std::mt19937_64 engine{std::random_device{}()};
  constexpr char digits[] = "0123456789abcdef";
  std::uint64_t bits = engine();
  std::string suffix(12, '0');
  for (char& c : suffix) {
    c = digits[bits & 15];
    bits >>= 4;
  }
  return suffix;
}

// O_EXCL with a random name instead of mkstemp: mkstemp creates files 0600, while an output
// should get the same 0666 & ~umask permissions a plain open() would give it.
int create_temp(const fs::path& target, const fs::path& final, fs::path& temp) {
  const fs::path dir = directory_of(final);
  const std::string stem = "." + final.filename().string() + ".tmp-";
  for (int attempt = 0; attempt < 64; ++attempt) {
    fs::path candidate = dir / (stem + random_suffix());
    remember_temp(candidate);  // before it exists: a signal handler may run at any moment
    int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      temp = std::move(candidate);
      return fd;
    }
    const int error = errno;
    forget_temp(candidate);
    if (error != EEXIST) fail(target, "cannot create a file in '" + dir.string() + "'", error);
  }
  fail(target, "no unused temporary name in '" + dir.string() + "'", EEXIST);
}

// Makes the rename itself durable. Best effort: some file systems refuse fsync on a directory,
// and by now the target already holds the complete new contents.
void sync_directory(const fs::path& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

AtomicFile::AtomicFile(fs::path target, Durability durability)
    : target_(std::move(target)), durability_(durability), open_(true) {
  if (target_.empty()) throw FormatError("an empty output path");
  const Resolved r = resolve(target_);
  if (r.descriptor >= 0) {
    direct_ = true;
    fd_ = ::fcntl(r.descriptor, F_DUPFD_CLOEXEC, 0);
    if (fd_ < 0) fail(target_, "not an open file descriptor", errno);
    return;
  }
  if (r.exists && S_ISDIR(r.mode)) throw FormatError(target_.string() + ": is a directory");
  if (r.exists && !S_ISREG(r.mode)) {
    direct_ = true;
    special_ = r.path;
    if (::access(special_.c_str(), W_OK) != 0) fail(target_, "cannot write", errno);
    return;
  }
  final_ = r.path;
  if (final_.filename().empty()) throw FormatError(target_.string() + ": not a file name");
  fd_ = create_temp(target_, final_, temp_);
}

AtomicFile::~AtomicFile() { discard(); }

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : target_(std::move(other.target_)),
      temp_(std::exchange(other.temp_, {})),
      final_(std::move(other.final_)),
      special_(std::move(other.special_)),
      fd_(std::exchange(other.fd_, -1)),
      durability_(other.durability_),
      direct_(other.direct_),
      open_(std::exchange(other.open_, false)) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    discard();
    target_ = std::move(other.target_);
    temp_ = std::exchange(other.temp_, {});
    final_ = std::move(other.final_);
    special_ = std::move(other.special_);
    fd_ = std::exchange(other.fd_, -1);
    durability_ = other.durability_;
    direct_ = other.direct_;
    open_ = std::exchange(other.open_, false);
  }
  return *this;
}

void AtomicFile::open_direct() {
  if (fd_ >= 0 || special_.empty()) return;
  do {
    fd_ = ::open(special_.c_str(), O_WRONLY | O_CLOEXEC);
  } while (fd_ < 0 && errno == EINTR);
  if (fd_ < 0) fail(target_, "cannot open", errno);
}

void AtomicFile::write(std::span<const std::byte> bytes) {
  if (!open_) throw Error("AtomicFile::write after commit or a failed commit");
  open_direct();
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), std::min(bytes.size(), max_chunk));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(target_, "cannot write '" + (temp_.empty() ? target_ : temp_).string() + "'", errno);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

void AtomicFile::write_at(std::uint64_t offset, std::span<const std::byte> bytes) {
  if (!seekable()) throw Error("AtomicFile::write_at on a direct output or after commit");
  detail::pwrite_all(fd_, offset, bytes, target_, "cannot write '" + temp_.string() + "'");
  // Start this range's way to the disk now, while other ranges are still being written, so that
  // commit()'s fsync waits for less. Best effort: fsync reports any write error.
  if (durability_ == Durability::synced) {
    ::sync_file_range(fd_, static_cast<off_t>(offset), static_cast<off_t>(bytes.size()), SYNC_FILE_RANGE_WRITE);
  }
}

void AtomicFile::commit() {
  if (!open_) throw Error("AtomicFile::commit after commit or a failed commit");
  open_ = false;
  if (direct_) {
    open_direct();  // an empty output still opens a FIFO, so that its reader sees the end
    if (::close(std::exchange(fd_, -1)) != 0) fail(target_, "cannot close", errno);
    return;
  }
  // Data must reach the disk before the rename does, or a crash could leave an empty target.
  const bool synced = durability_ == Durability::synced;
  if (synced && ::fsync(fd_) != 0) fail(target_, "cannot sync '" + temp_.string() + "'", errno);
  // Some file systems (NFS) report deferred write errors only at close.
  if (::close(std::exchange(fd_, -1)) != 0) fail(target_, "cannot close '" + temp_.string() + "'", errno);
  if (::rename(temp_.c_str(), final_.c_str()) != 0) {
    fail(target_, "cannot rename '" + temp_.string() + "' over it", errno);
  }
  forget_temp(temp_);
  temp_.clear();
  if (synced) sync_directory(directory_of(final_));
}

void AtomicFile::discard() noexcept {
  open_ = false;
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (!temp_.empty()) {
    ::unlink(temp_.c_str());
    forget_temp(temp_);
  }
  temp_.clear();
}

void check_output(const fs::path& path, bool force) {
  const Resolved r = resolve(path);
  if (r.descriptor < 0 && r.exists && S_ISREG(r.mode) && !force &&
      ((r.mode & 0222) == 0 || ::access(r.path.c_str(), W_OK) != 0)) {
    throw FormatError(path.string() + ": is read-only (--force replaces it)");
  }
  AtomicFile probe(path);  // creates and removes a temporary file beside the target
}

void remove_temporary_files() noexcept {
  for (auto& slot : live_temps) {
    if (const char* temp = slot.load()) ::unlink(temp);
  }
}

}  // namespace vkc::io
