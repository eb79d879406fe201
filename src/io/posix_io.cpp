#include "io/posix_io.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>

#include "io/npy.hpp"

namespace vkc::io::detail {

void fail_errno(const std::filesystem::path& subject, const std::string& what, int error) {
  throw FormatError(subject.string() + ": " + what + ": " + std::generic_category().message(error));
}

void pwrite_all(int fd, std::uint64_t offset, std::span<const std::byte> bytes, const std::filesystem::path& subject,
                const std::string& what) {
  constexpr std::size_t max_chunk = std::size_t{1} << 30;
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd, bytes.data(), std::min(bytes.size(), max_chunk), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail_errno(subject, what, errno);
    bytes = bytes.subspan(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
}

}  // namespace vkc::io::detail
