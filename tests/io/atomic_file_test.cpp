// Specification of AtomicFile: the target changes only at commit, and failures leave no debris.
#include "io/atomic_file.hpp"

#include "io/npy.hpp"
#include "scratch_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

namespace vkc::io {
namespace {

using test::read_file;
using test::to_bytes;
using test::write_file;

using AtomicFileTest = test::ScratchDir;

TEST_F(AtomicFileTest, CommitCreatesTargetWithWrittenBytes) {
  {
    AtomicFile file(path("out.bin"));
    file.write(to_bytes("hello, "));
    file.write(to_bytes("world"));
    file.commit();
  }
  EXPECT_EQ(read_file(path("out.bin")), "hello, world");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
}

TEST_F(AtomicFileTest, TargetIsUntouchedUntilCommit) {
  write_file(path("out.bin"), "old contents");
  AtomicFile file(path("out.bin"));
  file.write(to_bytes("new"));
  EXPECT_EQ(read_file(path("out.bin")), "old contents");
  file.commit();
  EXPECT_EQ(read_file(path("out.bin")), "new");
}

TEST_F(AtomicFileTest, UnsyncedFileStillReplacesTheTargetOnlyAtCommit) {
  write_file(path("out.bin"), "old contents");
  AtomicFile file(path("out.bin"), AtomicFile::Durability::unsynced);
  file.write_at(3, to_bytes("lo"));
  file.write_at(0, to_bytes("hel"));
  EXPECT_EQ(read_file(path("out.bin")), "old contents");
  file.commit();
  EXPECT_EQ(read_file(path("out.bin")), "hello");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
}

TEST_F(AtomicFileTest, TempFileLivesBesideTargetUntilCommit) {
  AtomicFile file(path("out.bin"));
  EXPECT_EQ(file.temp_path().parent_path(), dir_);
  EXPECT_EQ(entries(), std::vector<std::string>{file.temp_path().filename()});
  file.commit();
  EXPECT_TRUE(file.temp_path().empty());
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
}

TEST_F(AtomicFileTest, TargetInCurrentDirectoryGetsTempThere) {
  const auto previous = std::filesystem::current_path();
  std::filesystem::current_path(dir_);
  {
    AtomicFile file("relative.bin");
    EXPECT_EQ(file.temp_path().parent_path(), ".");
    file.commit();
  }
  std::filesystem::current_path(previous);
  EXPECT_EQ(entries(), std::vector<std::string>{"relative.bin"});
}

TEST_F(AtomicFileTest, DestroyingUncommittedFileRemovesTempAndKeepsTarget) {
  write_file(path("out.bin"), "old contents");
  {
    AtomicFile file(path("out.bin"));
    file.write(to_bytes("abandoned"));
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(read_file(path("out.bin")), "old contents");
}

TEST_F(AtomicFileTest, ExceptionBeforeCommitLeavesNoTrace) {
  try {
    AtomicFile file(path("out.bin"));
    file.write(to_bytes("partial"));
    throw std::runtime_error("producer failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFileTest, GivesConcurrentWritersOfOneTargetDistinctTempFiles) {
  AtomicFile first(path("out.bin"));
  AtomicFile second(path("out.bin"));
  EXPECT_NE(first.temp_path(), second.temp_path());
  first.write(to_bytes("first"));
  second.write(to_bytes("second"));
  first.commit();
  second.commit();
  EXPECT_EQ(read_file(path("out.bin")), "second");
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
}

TEST_F(AtomicFileTest, MissingDirectoryFailsCleanlyNamingTheTarget) {
  const auto target = path("missing/out.bin");
  try {
    AtomicFile file(target);
    FAIL() << "created a file in a missing directory";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(target.string()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(entries().empty());
}

TEST_F(AtomicFileTest, FailedRenameKeepsTargetAndRemovesTemp) {
  // A directory that appears after the output was opened cannot be replaced by a file, so the
  // rename in commit() fails (EISDIR, for root too).
  {
    AtomicFile file(path("out.bin"));
    std::filesystem::create_directory(path("out.bin"));
    write_file(path("out.bin/keep"), "kept");
    file.write(to_bytes("data"));
    EXPECT_THROW(file.commit(), FormatError);
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(read_file(path("out.bin/keep")), "kept");
}

TEST_F(AtomicFileTest, UseAfterCommitIsAnError) {
  AtomicFile file(path("out.bin"));
  file.commit();
  EXPECT_THROW(file.write(to_bytes("late")), Error);
  EXPECT_THROW(file.commit(), Error);
}

TEST_F(AtomicFileTest, MovedFromFileOwnsNothing) {
  AtomicFile original(path("out.bin"));
  original.write(to_bytes("moved "));
  AtomicFile moved(std::move(original));
  moved.write(to_bytes("data"));
  { AtomicFile sink = std::move(original); }  // destroying a moved-from file removes nothing
  EXPECT_EQ(entries().size(), 1u);
  moved.commit();
  EXPECT_EQ(read_file(path("out.bin")), "moved data");
}

TEST_F(AtomicFileTest, MoveAssignmentDiscardsTheOverwrittenTemp) {
  AtomicFile kept(path("a.bin"));
  AtomicFile replaced(path("b.bin"));
  replaced = std::move(kept);
  EXPECT_EQ(entries().size(), 1u);
  replaced.commit();
  EXPECT_EQ(entries(), std::vector<std::string>{"a.bin"});
}

TEST_F(AtomicFileTest, CommittedFileHasUmaskPermissions) {
  const mode_t mask = ::umask(022);
  {
    AtomicFile file(path("out.bin"));
    file.commit();
  }
  ::umask(mask);
  struct stat st {};
  ASSERT_EQ(::stat(path("out.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u);
}

// ---- each kind of target ----

TEST_F(AtomicFileTest, RefusesADirectory) {
  std::filesystem::create_directory(path("dir"));
  EXPECT_THROW(AtomicFile(path("dir")), FormatError);
  EXPECT_EQ(entries(), std::vector<std::string>{"dir"});
}

TEST_F(AtomicFileTest, ReplacesTheTargetOfASymlinkAndKeepsTheLink) {
  std::filesystem::create_directory(path("real"));
  write_file(path("real/out.bin"), "old");
  std::filesystem::create_symlink("real/out.bin", path("link"));
  {
    AtomicFile file(path("link"));
    EXPECT_EQ(file.temp_path().parent_path(), path("real"));
    file.write(to_bytes("new"));
    file.commit();
  }
  EXPECT_TRUE(std::filesystem::is_symlink(path("link")));
  EXPECT_EQ(read_file(path("real/out.bin")), "new");
}

TEST_F(AtomicFileTest, DanglingSymlinkCreatesItsTarget) {
  std::filesystem::create_symlink("made.bin", path("link"));
  {
    AtomicFile file(path("link"));
    file.write(to_bytes("made"));
    file.commit();
  }
  EXPECT_TRUE(std::filesystem::is_symlink(path("link")));
  EXPECT_EQ(read_file(path("made.bin")), "made");
}

TEST_F(AtomicFileTest, WritesAFifoDirectlyForItsReader) {
  ASSERT_EQ(::mkfifo(path("fifo").c_str(), 0600), 0);
  // Opened first and without blocking, so that a FIFO replaced by a file fails the test
  // rather than leaving a reader waiting for ever.
  const int reader = ::open(path("fifo").c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(reader, 0);
  {
    AtomicFile file(path("fifo"));
    EXPECT_TRUE(file.temp_path().empty());
    file.write(to_bytes("through the pipe"));
    file.commit();
  }
  char buffer[64] = {};
  const ssize_t n = ::read(reader, buffer, sizeof buffer);
  ::close(reader);
  const std::string received(buffer, std::size_t(std::max<ssize_t>(n, 0)));
  EXPECT_EQ(received, "through the pipe");
  EXPECT_TRUE(std::filesystem::is_fifo(path("fifo")));
  EXPECT_EQ(entries(), std::vector<std::string>{"fifo"});
}

TEST_F(AtomicFileTest, WritesACharacterDeviceDirectly) {
  // A node of the null device (major 1, minor 3) in the scratch directory: needs root (CAP_MKNOD).
  if (::mknod(path("null").c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) GTEST_SKIP() << "mknod needs root";
  {
    AtomicFile file(path("null"));
    EXPECT_TRUE(file.temp_path().empty());
    file.write(to_bytes("discarded"));
    file.commit();
  }
  EXPECT_TRUE(std::filesystem::is_character_file(path("null")));
  EXPECT_EQ(entries(), std::vector<std::string>{"null"});
}

TEST_F(AtomicFileTest, WritesADescriptorNameDirectly) {
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  {
    AtomicFile file("/dev/fd/" + std::to_string(pipe_fds[1]));
    EXPECT_TRUE(file.temp_path().empty());
    file.write(to_bytes("to fd"));
    file.commit();
  }
  ::close(pipe_fds[1]);  // still open after the commit: the output was a duplicate
  char buffer[16] = {};
  EXPECT_EQ(::read(pipe_fds[0], buffer, sizeof buffer), 5);
  EXPECT_EQ(std::string(buffer), "to fd");
  ::close(pipe_fds[0]);
}

TEST_F(AtomicFileTest, CheckOutputRefusesAReadOnlyFileUnlessForced) {
  write_file(path("ro.bin"), "keep");
  std::filesystem::permissions(path("ro.bin"), std::filesystem::perms::owner_read);
  try {
    check_output(path("ro.bin"), false);
    ADD_FAILURE() << "read-only file accepted";
  } catch (const FormatError& e) {
    EXPECT_NE(std::string(e.what()).find("read-only"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(check_output(path("ro.bin"), true));
  EXPECT_EQ(entries(), std::vector<std::string>{"ro.bin"});
  EXPECT_EQ(read_file(path("ro.bin")), "keep");
}

TEST_F(AtomicFileTest, CheckOutputRefusesWhatCannotBeWrittenAndLeavesNothing) {
  std::filesystem::create_directory(path("dir"));
  write_file(path("file"), "");
  EXPECT_THROW(check_output(path("missing/out.bin"), false), FormatError);
  EXPECT_THROW(check_output(path("file/out.bin"), false), FormatError);
  EXPECT_THROW(check_output(path("dir"), false), FormatError);
  EXPECT_NO_THROW(check_output(path("new.bin"), false));
  EXPECT_EQ(entries(), (std::vector<std::string>{"dir", "file"}));
}

TEST_F(AtomicFileTest, RemoveTemporaryFilesDeletesTheLiveTemps) {
  AtomicFile first(path("a.bin"));
  AtomicFile second(path("b.bin"));
  {
    AtomicFile committed(path("c.bin"));
    committed.commit();
  }
  EXPECT_EQ(entries().size(), 3u);
  remove_temporary_files();
  EXPECT_EQ(entries(), std::vector<std::string>{"c.bin"});
}

}  // namespace
}  // namespace vkc::io
