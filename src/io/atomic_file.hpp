// All-or-nothing file replacement: write beside the target, then rename over it.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>

namespace vkc::io {

/// Writes to a temporary file in the target's directory (a unique hidden name,
/// ".<target name>.tmp-<random>"), and only commit() makes it the target: it fsyncs the data,
/// renames the temporary over the target and fsyncs the directory. Until then the target is
/// untouched, so a crash or an exception never leaves a half-written output. Destroying an
/// uncommitted AtomicFile removes the temporary file.
///
/// The new file gets the usual 0666 & ~umask permissions; those of a replaced target are not
/// kept. All I/O failures throw FormatError ("<target>: <problem>"); calling write() or
/// commit() after commit() throws std::logic_error. Move-only; not thread-safe.
class AtomicFile {
 public:
  /// Creates the temporary file. Throws FormatError when the directory is missing or not
  /// writable.
  explicit AtomicFile(std::filesystem::path target);
  ~AtomicFile();

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Appends bytes to the temporary file.
  void write(std::span<const std::byte> bytes);

  /// Makes everything written so far the target's contents. On failure the temporary file is
  /// still removed by the destructor and the target keeps its old contents.
  void commit();

  const std::filesystem::path& target() const { return target_; }
  /// The temporary file's path; empty once committed or moved from.
  const std::filesystem::path& temp_path() const { return temp_; }

 private:
  void discard() noexcept;

  std::filesystem::path target_;
  std::filesystem::path temp_;
  int fd_ = -1;
};

}  // namespace vkc::io
