// The io layer's POSIX helpers: a failed call as a FormatError, a whole span written at an offset.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace vkc::io::detail {

/// Throws FormatError("<subject>: <what>: <strerror(error)>").
[[noreturn]] void fail_errno(const std::filesystem::path& subject, const std::string& what, int error);

/// pwrite of all of `bytes` at `offset` (Linux moves at most about 2 GiB a call; EINTR retried);
/// fails as fail_errno(subject, what, errno).
void pwrite_all(int fd, std::uint64_t offset, std::span<const std::byte> bytes, const std::filesystem::path& subject,
                const std::string& what);

}  // namespace vkc::io::detail
