// The main of the MPI test program: MPI around GoogleTest's run, each rank running every test (the
// tests are collective), and a rank's failure is its exit status, which mpirun passes on.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int status = RUN_ALL_TESTS();
  const bool none = !GTEST_FLAG_GET(list_tests) && ::testing::UnitTest::GetInstance()->test_to_run_count() == 0;
  MPI_Finalize();
  return none ? 1 : status;
}
