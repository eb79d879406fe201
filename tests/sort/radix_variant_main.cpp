// The main of radix_variant_tests: each CTest entry selects one variant by --gtest_filter, so a
// filter that matches no test fails the entry instead of passing it.
#include <gtest/gtest.h>

#include <cstdio>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  if (::testing::UnitTest::GetInstance()->test_to_run_count() == 0) {
    std::fprintf(stderr, "radix_variant_tests: the filter matches no test\n");
    return 1;
  }
  return status;
}
