// Specification of AtomicFile: the target changes only at commit, and failures leave no debris.
#include "io/atomic_file.hpp"

#include "io/npy.hpp"
#include "scratch_dir.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>
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
  // A non-empty directory cannot be replaced by a file, so the rename in commit() fails.
  std::filesystem::create_directory(path("out.bin"));
  write_file(path("out.bin/keep"), "kept");
  {
    AtomicFile file(path("out.bin"));
    file.write(to_bytes("data"));
    EXPECT_THROW(file.commit(), FormatError);
  }
  EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});
  EXPECT_EQ(read_file(path("out.bin/keep")), "kept");
}

TEST_F(AtomicFileTest, UseAfterCommitIsALogicError) {
  AtomicFile file(path("out.bin"));
  file.commit();
  EXPECT_THROW(file.write(to_bytes("late")), std::logic_error);
  EXPECT_THROW(file.commit(), std::logic_error);
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

}  // namespace
}  // namespace vkc::io
