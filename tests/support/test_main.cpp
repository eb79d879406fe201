// The main of every test program: GoogleTest's, except that a run which selects no test fails, so
// that a CTest entry whose --gtest_filter matches nothing cannot pass.
#include <gtest/gtest.h>

#include <cstdio>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  if (GTEST_FLAG_GET(list_tests)) return status;
  if (::testing::UnitTest::GetInstance()->test_to_run_count() == 0) {
    std::fprintf(stderr, "no test matches the filter '%s'\n", GTEST_FLAG_GET(filter).c_str());
    return 1;
  }
  return status;
}
