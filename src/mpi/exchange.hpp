// The distributed sort's steps before the local sort (sort.cpp), for the C ABI, which sorts the
// gathered range through libvkcompute.so's context; the exchange's message size, for tests that
// lower it; a rank and the communicator's size.
#pragma once

#include <cstdint>

#include "vkc/mpi.hpp"

namespace vkc::mpi::detail {

inline int rank_of(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

inline int size_of(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

/// The most elements one message of the exchange carries between two ranks: larger transfers take
/// several rounds (MPI counts are ints). Tests lower it to exercise the rounds.
extern std::uint64_t max_elements_per_message;

/// sort() or sort_pairs() (value_type none: sort) up to the local sort: this rank's range of the
/// global order, its keys (and values) as received, in source-rank order, not yet sorted; its
/// phases but local_sort_ms. Collective; fails on every rank as sort() does.
SortedSlice gather_range(MPI_Comm comm, KeyType type, const void* keys, ValueType value_type, const void* values,
                         std::uint64_t count, const SortOptions& options);

}  // namespace vkc::mpi::detail
