// The all-to-all exchange's message size (sort.cpp), for tests that lower it.
#pragma once

#include <cstdint>

namespace vkc::mpi::detail {

/// The most elements one message of the exchange carries between two ranks: larger transfers take
/// several rounds (MPI counts are ints). Tests lower it to exercise the rounds.
extern std::uint64_t max_elements_per_message;

}  // namespace vkc::mpi::detail
