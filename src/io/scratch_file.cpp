#include "io/scratch_file.hpp"

#include <fcntl.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "io/npy.hpp"
#include "io/posix_io.hpp"

namespace vkc::io {
namespace {

namespace fs = std::filesystem;

fs::path default_directory() {
  const char* tmpdir = std::getenv("TMPDIR");
  return tmpdir && *tmpdir ? fs::path(tmpdir) : fs::path("/tmp");
}

std::uint64_t free_bytes(const fs::path& directory) {
  struct statvfs info{};
  if (::statvfs(directory.c_str(), &info) != 0) detail::fail_errno(directory, "cannot read its free space", errno);
  return std::uint64_t(info.f_bavail) * info.f_frsize;
}

constexpr std::size_t kMaxIo = 1 << 30;  // Linux moves at most about 2 GiB per call

}  // namespace

ScratchFile::ScratchFile(std::uint64_t bytes, fs::path directory)
    : directory_(directory.empty() ? default_directory() : std::move(directory)) {
  fd_ = ::open(directory_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd_ < 0) detail::fail_errno(directory_, "cannot create an unnamed scratch file", errno);
  if (free_bytes(directory_) < bytes) {
    ::close(fd_);
    throw FormatError(directory_.string() + ": " + std::to_string(bytes >> 20) +
                      " MiB of scratch space needed, less free");
  }
}

ScratchFile::~ScratchFile() { ::close(fd_); }

void ScratchFile::write_at(std::uint64_t offset, std::span<const std::byte> bytes) {
  detail::pwrite_all(fd_, offset, bytes, directory_, "cannot write the scratch file");
}

void ScratchFile::read_at(std::uint64_t offset, std::span<std::byte> bytes) const {
  while (!bytes.empty()) {
    const ssize_t n = ::pread(fd_, bytes.data(), std::min(bytes.size(), kMaxIo), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) detail::fail_errno(directory_, "cannot read the scratch file", errno);
    if (n == 0) throw FormatError(directory_.string() + ": the scratch file ended early");
    bytes = bytes.subspan(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
}

void copy_in_order(const ScratchFile& from, std::uint64_t bytes, AtomicFile& to) {
  std::vector<std::byte> buffer(std::min<std::uint64_t>(bytes, 4 << 20));
  for (std::uint64_t offset = 0; offset < bytes; offset += buffer.size()) {
    const auto piece = std::span(buffer).first(std::min<std::uint64_t>(buffer.size(), bytes - offset));
    from.read_at(offset, piece);
    to.write(piece);
  }
}

}  // namespace vkc::io
