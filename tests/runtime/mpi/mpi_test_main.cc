// main() of the GoogleTest programs that run under mpirun (tests/runtime/mpi/CMakeLists.txt): joins MPI
// before any test, runs the same tests in the same order on every rank (so their grid runs
// meet), prints rank 0's report and, from the other ranks, only their failures (tagged with the
// rank), and finalizes. Any rank's failure makes its exit code, and so mpirun's, non-zero.
#include <gtest/gtest.h>

#include <cstdio>

#include "tests/runtime/mpi/mpi_test_util.h"

namespace {

class RankFailures : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailures(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::printf("[rank %d] %s:%d: failure\n%s\n", rank_, result.file_name() ? result.file_name() : "?",
                result.line_number(), result.summary());
    std::fflush(stdout);
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  auto session = vkhlo::MpiSession::Create();
  if (!session.ok()) {
    std::fprintf(stderr, "%s\n", session.status().ToString().c_str());
    return 1;
  }
  vkhlo::mpitest::SetSession(session->get());
  if ((*session)->rank() != 0) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailures((*session)->rank()));
  }
  const int result = RUN_ALL_TESTS();
  vkhlo::mpitest::SetSession(nullptr);
  session->reset();  // MPI_Finalize (or MPI_Abort when a grid run was left unresolved)
  return result;
}
