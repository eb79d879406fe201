// Scratch space on disk for arrays that should not be held in memory: an unnamed file that the
// kernel removes when it is closed, even when the process dies first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>

#include "io/atomic_file.hpp"

namespace vkc::io {

/// An unnamed temporary file (O_TMPFILE) in `directory` ($TMPDIR, else /tmp, when empty) for
/// `bytes` of data. Throws FormatError when the file system cannot create one or has less free
/// space than `bytes`. write_at and read_at may run on several threads at once, on disjoint
/// ranges. Not movable; closing it discards the data.
class ScratchFile {
 public:
  explicit ScratchFile(std::uint64_t bytes, std::filesystem::path directory = {});
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  void write_at(std::uint64_t offset, std::span<const std::byte> bytes);
  void read_at(std::uint64_t offset, std::span<std::byte> bytes) const;
  const std::filesystem::path& directory() const { return directory_; }

 private:
  std::filesystem::path directory_;
  int fd_ = -1;
};

/// Writes the first `bytes` bytes of `from` to `to` in order (AtomicFile::write), a few MiB at a
/// time: for outputs that take their bytes in order (a FIFO, standard output).
void copy_in_order(const ScratchFile& from, std::uint64_t bytes, AtomicFile& to);

}  // namespace vkc::io
