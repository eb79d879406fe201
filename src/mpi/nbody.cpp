// The n-body simulation over MPI (vkc/mpi.hpp): each rank is one share of nbody::Simulation, and
// the exchange after every drift is an in-place all-gather of the ranks' position ranges.
#include <climits>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "vkc/mpi.hpp"

namespace vkc::mpi {
namespace {

// Every rank's range of the n bodies, in floats (4 a body), as MPI_Allgatherv counts them.
struct Ranges {
  std::vector<int> counts, at;
};

Ranges ranges_of(MPI_Comm comm, std::uint64_t n) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  Ranges r{std::vector<int>(ranks), std::vector<int>(ranks)};
  for (int k = 0; k < ranks; ++k) {
    const std::uint64_t first = n * k / ranks, end = n * (k + 1) / ranks;
    r.at[k] = static_cast<int>(4 * first);
    r.counts[k] = static_cast<int>(4 * (end - first));
  }
  return r;
}

}  // namespace

nbody::Simulation simulation(MPI_Comm comm, Context& ctx, const nbody::State& initial, const nbody::Config& config) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  const std::uint64_t n = initial.size();
  nbody::Simulation::Share share;
  std::exception_ptr failure;
  try {
    if (4 * n > INT_MAX) throw Error("mpi nbody: at most 2^29 bodies (MPI counts are ints)");
    if (n < std::uint64_t(ranks)) throw Error("mpi nbody: fewer bodies (" + std::to_string(n) + ") than ranks");
  } catch (...) {
    failure = std::current_exception();
  }
  agree(comm, failure);
  share.first = static_cast<std::uint32_t>(n * rank / ranks);
  share.count = static_cast<std::uint32_t>(n * (rank + 1) / ranks - share.first);
  share.exchange = [comm, ranges = ranges_of(comm, n)](float* positions) {
    MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, positions, ranges.counts.data(), ranges.at.data(), MPI_FLOAT,
                   comm);
  };
  std::optional<nbody::Simulation> made;
  failure = nullptr;
  try {
    made.emplace(ctx, initial, config, std::move(share));
  } catch (...) {
    failure = std::current_exception();
  }
  agree(comm, failure);
  return std::move(*made);
}

nbody::State gather_state(MPI_Comm comm, const nbody::Simulation& sim) {
  nbody::State s = sim.state();
  const Ranges r = ranges_of(comm, s.size());
  MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, s.velocities.data(), r.counts.data(), r.at.data(), MPI_FLOAT, comm);
  return s;
}

}  // namespace vkc::mpi
