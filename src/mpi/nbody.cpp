// The n-body simulation over MPI (vkc/mpi.hpp): each rank is one share of nbody::Simulation, and
// the exchange after every drift is an in-place all-gather of the ranks' position ranges.
#include <array>
#include <climits>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "vkc/mpi.hpp"

#include "mpi/exchange.hpp"

namespace vkc::mpi {
namespace {

// Every rank's range of the n bodies, in floats (4 a body), as MPI_Allgatherv counts them.
struct Ranges {
  std::vector<int> counts, at;
};

Ranges ranges_of(MPI_Comm comm, std::uint64_t n) {
  const int ranks = detail::size_of(comm);
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

nbody::Diagnostics diagnose(MPI_Comm comm, const nbody::State& state, const nbody::Config& config) {
  const auto rank = static_cast<std::size_t>(detail::rank_of(comm)), ranks = static_cast<std::size_t>(detail::size_of(comm));
  const std::size_t n = state.size();
  nbody::Diagnostics d =
      nbody::diagnose_rows(state, config, nbody::row_split(n, rank, ranks), nbody::row_split(n, rank + 1, ranks));
  // Every sum of the parts, added across the ranks in one reduction.
  double* const sums[] = {&d.mass, &d.kinetic, &d.potential, &d.momentum[0], &d.momentum[1], &d.momentum[2],
                          &d.angular_momentum[0], &d.angular_momentum[1], &d.angular_momentum[2],
                          &d.centre_of_mass[0], &d.centre_of_mass[1], &d.centre_of_mass[2]};
  std::array<double, std::size(sums)> part;
  for (std::size_t i = 0; i < part.size(); ++i) part[i] = *sums[i];
  MPI_Allreduce(MPI_IN_PLACE, part.data(), static_cast<int>(part.size()), MPI_DOUBLE, MPI_SUM, comm);
  for (std::size_t i = 0; i < part.size(); ++i) *sums[i] = part[i];
  return nbody::finish_diagnostics(d);
}

}  // namespace vkc::mpi
