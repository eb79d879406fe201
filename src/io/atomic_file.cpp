// AtomicFile: temporary file beside the target, fsync, rename, fsync the directory.
#include "io/atomic_file.hpp"

#include "io/npy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

namespace vkc::io {
namespace {

namespace fs = std::filesystem;

// Linux transfers at most ~2 GiB per write(); larger spans go in chunks.
constexpr std::size_t max_chunk = std::size_t{1} << 30;

[[noreturn]] void fail(const fs::path& target, const std::string& what, int error) {
  throw FormatError(target.string() + ": " + what + ": " + std::generic_category().message(error));
}

fs::path directory_of(const fs::path& target) {
  fs::path dir = target.parent_path();
  return dir.empty() ? fs::path(".") : dir;
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
int create_temp(const fs::path& target, fs::path& temp) {
  const fs::path dir = directory_of(target);
  const std::string stem = "." + target.filename().string() + ".tmp-";
  for (int attempt = 0; attempt < 64; ++attempt) {
    fs::path candidate = dir / (stem + random_suffix());
    int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      temp = std::move(candidate);
      return fd;
    }
    if (errno != EEXIST) fail(target, "cannot create a file in '" + dir.string() + "'", errno);
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

AtomicFile::AtomicFile(fs::path target) : target_(std::move(target)) {
  if (target_.filename().empty()) throw FormatError(target_.string() + ": not a file name");
  fd_ = create_temp(target_, temp_);
}

AtomicFile::~AtomicFile() { discard(); }

AtomicFile::AtomicFile(AtomicFile&& other) noexcept
    : target_(std::move(other.target_)),
      temp_(std::exchange(other.temp_, {})),
      fd_(std::exchange(other.fd_, -1)) {}

AtomicFile& AtomicFile::operator=(AtomicFile&& other) noexcept {
  if (this != &other) {
    discard();
    target_ = std::move(other.target_);
    temp_ = std::exchange(other.temp_, {});
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void AtomicFile::write(std::span<const std::byte> bytes) {
  if (fd_ < 0) throw std::logic_error("AtomicFile::write after commit or a failed commit");
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), std::min(bytes.size(), max_chunk));
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(target_, "cannot write '" + temp_.string() + "'", errno);
    }
    bytes = bytes.subspan(static_cast<std::size_t>(n));
  }
}

void AtomicFile::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFile::commit after commit or a failed commit");
  // Data must reach the disk before the rename does, or a crash could leave an empty target.
  if (::fsync(fd_) != 0) fail(target_, "cannot sync '" + temp_.string() + "'", errno);
  // Some file systems (NFS) report deferred write errors only at close.
  if (::close(std::exchange(fd_, -1)) != 0) fail(target_, "cannot close '" + temp_.string() + "'", errno);
  if (::rename(temp_.c_str(), target_.c_str()) != 0) {
    fail(target_, "cannot rename '" + temp_.string() + "' over it", errno);
  }
  temp_.clear();
  sync_directory(directory_of(target_));
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

}  // namespace vkc::io
