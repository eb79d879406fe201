// vkc::mpi: sorting one global array whose slices the ranks of an MPI communicator hold, and an
// n-body simulation whose bodies they share, each rank on its own device. The sort: a sample sort with one all-to-all exchange (splitters sampled from every
// rank's keys cut the global order into one balanced, contiguous range per rank; each rank sends
// every key to the rank whose range holds it, then sorts what it received on its GPU with the
// any-size host sort). The only part of vkc that includes mpi.h: built when CMake finds MPI and
// VKC_WITH_MPI is on; link vkc::mpi.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "vkc/context.hpp"
#include "vkc/nbody.hpp"
#include "vkc/sort.hpp"

namespace vkc::mpi {

/// Milliseconds of each phase of a distributed sort on this rank (wall clock).
struct Phases {
  double sample_ms = 0;    ///< the splitters: sampling, gathering and sorting the samples
  double partition_ms = 0; ///< counting the keys by range, agreeing on the ranges, moving keys into send order
  double exchange_ms = 0;  ///< the all-to-all exchange of keys (and values)
  double local_sort_ms = 0;///< the rank's sort of what it received, host to host on its device
};

/// std::allocator whose resize() leaves new elements uninitialized: a slice's buffers are written
/// whole by the exchange, and zeroing gigabytes first would cost a pass over them (and, in fresh
/// memory, every page's first touch on one thread).
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

/// Bytes of a slice: a std::vector whose resize() does not zero them.
using Bytes = std::vector<std::byte, DefaultInitAllocator<std::byte>>;

/// One rank's part of a distributed sort's result: a contiguous range of the global sorted order.
struct SortedSlice {
  Bytes keys;    ///< `count` packed keys of the type sorted
  Bytes values;  ///< sort_pairs: the values that came with them; sort: empty
  std::uint64_t count = 0;        ///< elements in this rank's range
  std::uint64_t offset = 0;       ///< where the range begins in the global order
  std::uint64_t total = 0;        ///< elements of the whole array
  Phases phases;
};

/// Sorts the array formed by the ranks' slices in rank order (rank 0's first), under the order
/// contract of sort.hpp (options: order, algorithm, bit range; progress reports the local sort).
/// Collective: every rank of `comm` calls it with its slice of `count` keys (0 is allowed) and its
/// own Context. Rank r gets the r-th of the global order's ranges: balanced in elements (equal keys
/// that straddle a boundary are divided by their global input position, so even all-equal keys
/// split evenly), in rank order. Stable where the algorithm is (radix, automatic): equal keys keep
/// their global input order. When any rank fails, every rank throws Error naming the first rank
/// that failed and its message; none is left waiting. Any count: past MPI's int counts, the
/// exchange sends a pair of ranks' elements in several messages.
SortedSlice sort(MPI_Comm comm, Context& ctx, KeyType type, const void* keys, std::uint64_t count,
                 const SortOptions& options = {});

/// sort() with a value of `value_type` beside each key, moved with it.
SortedSlice sort_pairs(MPI_Comm comm, Context& ctx, KeyType key_type, const void* keys, ValueType value_type,
                       const void* values, std::uint64_t count, const SortOptions& options = {});

/// An n-body simulation shared among the ranks of `comm` (which must outlive it), each rank
/// moving the bodies [N r / R, N (r + 1) / R) on its device, all positions all-gathered after every
/// drift. Every rank passes the same initial state and config and steps alike. Ranks of one kind
/// of device give one process's result bit for bit. Collective.
nbody::Simulation simulation(MPI_Comm comm, Context& ctx, const nbody::State& initial,
                             const nbody::Config& config = {});

/// The whole state of a simulation() on every rank: its positions, every rank's velocities.
/// Collective.
nbody::State gather_state(MPI_Comm comm, const nbody::Simulation& sim);

/// nbody::diagnose() of `state` (every rank passes the same, as gather_state gives it), its
/// O(N^2) potential shared among the ranks: each sums the rows nbody::row_split gives it
/// (nbody::diagnose_rows) and the parts are added on every rank, so that R ranks take 1/R of the
/// time. The same terms as diagnose() summed in another order: equal to rounding. Collective.
nbody::Diagnostics diagnose(MPI_Comm comm, const nbody::State& state, const nbody::Config& config);

/// The device this rank should use: its rank among the ranks of `comm` on the same host, as an
/// index into the devices of the preferred kind (choose_devices("all")), modulo their number.
/// Collective.
std::string local_device(MPI_Comm comm);

/// Throws Error on every rank of `comm` when `failure` is set on any: the message is the first
/// failing rank's, prefixed "rank R: ". Collective; for callers that keep ranks in step around
/// work that may fail on some of them (reading a file, opening a device).
void agree(MPI_Comm comm, const std::exception_ptr& failure);

}  // namespace vkc::mpi
