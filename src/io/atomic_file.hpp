// Output files people can rely on: all-or-nothing replacement of regular files, special files
// and standard output written directly, and temporary files that an interrupt does not leave.
#pragma once

#include <cstddef>
#include <filesystem>
#include <span>

namespace vkc::io {

/// Writes an output, by the kind of its target:
/// - "-" is standard output, and /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are
///   this process's descriptors: written directly (never replaced, so `> file` and pipes work);
/// - a missing path or a regular file is written to a temporary file in the target's directory
///   (a unique hidden name, ".<target name>.tmp-<random>"), and only commit() makes it the
///   target: it fsyncs the data, renames the temporary over the target and fsyncs the
///   directory. Until then the target is untouched, so a crash or an exception never leaves a
///   half-written output. Destroying an uncommitted AtomicFile removes the temporary file.
///   Durability::unsynced skips the fsyncs: every reader still sees the old target or the
///   whole new one, but after a power loss or an operating-system crash the target may be
///   empty or old (as with most tools that write files: cp, sort, NumPy's save);
/// - a symbolic link is followed: the file it names is what gets written or replaced (the link
///   stays a link);
/// - a character or block device, a FIFO or a socket is opened and written directly, at the
///   first write() or at commit() (a FIFO's open waits for its reader);
/// - a directory is refused.
///
/// A new file gets the usual 0666 & ~umask permissions; those of a replaced target are not
/// kept, and a read-only target is replaced (check_output is where the CLI refuses it). All I/O
/// failures throw FormatError ("<target>: <problem>"); calling write() or commit() after
/// commit() throws Error. Move-only; not thread-safe.
class AtomicFile {
 public:
  /// Whether commit() waits for the disk (see above).
  enum class Durability { synced, unsynced };

  /// Creates the temporary file (or checks that a special file is writable). Throws
  /// FormatError when the directory is missing or not writable, or the target is a directory.
  explicit AtomicFile(std::filesystem::path target, Durability durability = Durability::synced);
  ~AtomicFile();

  AtomicFile(AtomicFile&& other) noexcept;
  AtomicFile& operator=(AtomicFile&& other) noexcept;
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Appends bytes to the temporary file (or to the special file).
  void write(std::span<const std::byte> bytes);

  /// Whether write_at works: the output is a temporary file (not a device, FIFO, socket or
  /// standard output, which take their bytes in order through write()).
  bool seekable() const { return open_ && !direct_; }
  /// Writes bytes at `offset` of the temporary file (pwrite) and, when synced, starts their
  /// write-back to the disk: several threads may write disjoint ranges at once. Mixing write()
  /// and write_at() is the caller's to order.
  void write_at(std::uint64_t offset, std::span<const std::byte> bytes);

  /// Makes everything written so far the target's contents. On failure the temporary file is
  /// still removed by the destructor and the target keeps its old contents.
  void commit();

  const std::filesystem::path& target() const { return target_; }
  /// The temporary file's path; empty once committed or moved from, and for direct writes.
  const std::filesystem::path& temp_path() const { return temp_; }

 private:
  void open_direct();
  void discard() noexcept;

  std::filesystem::path target_;
  std::filesystem::path temp_;    // the temporary file, while one exists
  std::filesystem::path final_;   // what the rename replaces: the target with links followed
  std::filesystem::path special_; // a device, FIFO or socket to open directly
  int fd_ = -1;
  Durability durability_ = Durability::synced;
  bool direct_ = false;
  bool open_ = false;             // false once committed, discarded or moved from
};

/// Checks before any work that AtomicFile(path) can write there: the directory exists and
/// takes a new file (a temporary file is created and removed), or a special file is
/// writable, or the target is not a directory. A regular file without write permission is
/// refused unless `force` (renaming over it would replace it regardless). Throws FormatError.
void check_output(const std::filesystem::path& path, bool force);

/// Removes every temporary file that a live AtomicFile holds. Async-signal-safe: for a
/// SIGINT/SIGTERM handler, which then exits.
void remove_temporary_files() noexcept;

}  // namespace vkc::io
