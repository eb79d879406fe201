// libvkcompute_mpi.so: vkc::mpi's distributed sort over the C ABI. The partition and exchange are
// vkc::mpi's (detail::gather_range); the local sort of the range goes through libvkcompute.so's
// vkc_sort on the caller's context, so that only the library that made a context touches it.
#include "vkc/vkc_mpi.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "capi/errors.hpp"
#include "mpi/exchange.hpp"
#include "vkc/mpi.hpp"

static_assert(std::is_same_v<MPI_Fint, vkc_mpi_fint>, "vkc_mpi_fint must be this MPI's MPI_Fint");

struct vkc_mpi_slice {
  vkc::mpi::SortedSlice slice;
  bool pairs = false;
};

namespace vkc::capi {
namespace {

using mpi::detail::rank_of;
using mpi::detail::size_of;

// The C handle of a Fortran one; fails on this rank alone, as there is no communicator to agree on.
MPI_Comm communicator(vkc_mpi_fint handle) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) fail(VKC_ERROR_FAILED, "MPI is not running (call MPI_Init first, MPI_Finalize after)");
  const MPI_Comm comm = MPI_Comm_f2c(handle);
  if (comm == MPI_COMM_NULL) invalid("comm " + std::to_string(handle) + " is MPI_COMM_NULL");
  return comm;
}

// Runs `body` on every rank; when it throws on any, every rank fails with the first failing
// rank's status and message ("rank R: ..."). vkc::mpi::agree carries the message.
template <class Body>
void on_every_rank(MPI_Comm comm, Body&& body) {
  std::exception_ptr failure;
  vkc_status status = VKC_OK;
  try {
    body();
  } catch (...) {
    status = record_current_exception("");
    failure = std::make_exception_ptr(std::runtime_error(last_error_message()));
  }
  struct {
    int rank, status;
  } mine{failure ? rank_of(comm) : size_of(comm), status}, first{};
  MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MINLOC, comm);
  if (first.rank == size_of(comm)) return;
  try {
    mpi::agree(comm, failure);
  } catch (const Error& e) {
    fail(static_cast<vkc_status>(first.status), e.what());
  }
}

// A libvkcompute.so call's failure as this library's, with its status and message.
void check(vkc_status status) {
  if (status != VKC_OK) fail(status, vkc_last_error());
}

// The arguments every rank must pass alike, the same everywhere or a failure on every rank.
void require_alike(MPI_Comm comm, const std::array<long long, 5>& mine) {
  std::array<long long, 5> low{}, high{};
  MPI_Allreduce(mine.data(), low.data(), 5, MPI_LONG_LONG, MPI_MIN, comm);
  MPI_Allreduce(mine.data(), high.data(), 5, MPI_LONG_LONG, MPI_MAX, comm);
  constexpr const char* names[] = {"key type", "value type", "order", "begin_bit", "end_bit"};
  for (std::size_t i = 0; i < mine.size(); ++i) {
    if (low[i] != high[i]) {
      invalid("the ranks disagree on the " + std::string(names[i]) + " (values from " + std::to_string(low[i]) +
              " to " + std::to_string(high[i]) + " among them)");
    }
  }
}

// The caller's order and bit range, as the partition ranks the keys.
SortOptions partition_options(const vkc_sort_options* options) {
  vkc_sort_order order = VKC_ORDER_ASCENDING;
  SortOptions o;
  check(vkc_sort_options_get_order(options, &order));
  check(vkc_sort_options_get_bits(options, &o.begin_bit, &o.end_bit));
  o.order = order == VKC_ORDER_DESCENDING ? SortOrder::descending : SortOrder::ascending;
  return o;
}

// The distributed sort, values of `value_type` moved with the keys (0: none). Every argument is
// checked on every rank first, by libvkcompute.so's own checks: a sort of no keys with them.
void sort_on_ranks(vkc_context* context, vkc_mpi_fint handle, vkc_key_type key_type, const void* keys,
                   int value_type, const void* values, std::uint64_t count, const vkc_sort_options* options,
                   vkc_mpi_slice** slice) {
  const MPI_Comm comm = communicator(handle);
  SortOptions partition;
  on_every_rank(comm, [&] {
    require_pointer(slice, "slice");
    *slice = nullptr;
    require_array(keys, count, "keys");
    if (value_type) {
      require_array(values, count, "values");
      check(vkc_sort_pairs(context, key_type, nullptr, static_cast<vkc_value_type>(value_type), nullptr, 0, options));
    } else {
      check(vkc_sort(context, key_type, nullptr, 0, options));
    }
    partition = partition_options(options);
  });
  require_alike(comm, {key_type, value_type, static_cast<long long>(partition.order), partition.begin_bit,
                       partition.end_bit});
  auto out = std::make_unique<vkc_mpi_slice>();
  out->pairs = value_type != 0;
  const auto type = static_cast<KeyType>(static_cast<int>(key_type));
  const ValueType values_as = value_type ? static_cast<ValueType>(value_type) : ValueType::none;
  mpi::SortedSlice& s = out->slice;
  s = mpi::detail::gather_range(comm, type, keys, values_as, values, count, partition);
  const double start = MPI_Wtime();
  on_every_rank(comm, [&] {
    if (out->pairs) {
      check(vkc_sort_pairs(context, key_type, s.keys.data(), static_cast<vkc_value_type>(value_type), s.values.data(),
                           s.count, options));
    } else {
      check(vkc_sort(context, key_type, s.keys.data(), s.count, options));
    }
  });
  s.phases.local_sort_ms = (MPI_Wtime() - start) * 1e3;
  *slice = out.release();
}

}  // namespace
}  // namespace vkc::capi

using namespace vkc::capi;

extern "C" {

const char* vkc_mpi_last_error(void) { return last_error_text(); }

uint32_t vkc_mpi_abi_version(void) { return VKC_MPI_ABI_VERSION; }

vkc_status vkc_mpi_local_device(vkc_mpi_fint comm, uint32_t* index) {
  return guarded("vkc_mpi_local_device", [&] {
    const MPI_Comm c = communicator(comm);
    std::string device;
    on_every_rank(c, [&] {
      require_pointer(index, "index");
      device = vkc::mpi::local_device(c);
    });
    *index = static_cast<uint32_t>(std::stoul(device));
  });
}

vkc_status vkc_mpi_sort(vkc_context* context, vkc_mpi_fint comm, vkc_key_type type, const void* keys, uint64_t count,
                        const vkc_sort_options* options, vkc_mpi_slice** slice) {
  return guarded("vkc_mpi_sort", [&] { sort_on_ranks(context, comm, type, keys, 0, nullptr, count, options, slice); });
}

vkc_status vkc_mpi_sort_pairs(vkc_context* context, vkc_mpi_fint comm, vkc_key_type key_type, const void* keys,
                              vkc_value_type value_type, const void* values, uint64_t count,
                              const vkc_sort_options* options, vkc_mpi_slice** slice) {
  return guarded("vkc_mpi_sort_pairs", [&] {
    sort_on_ranks(context, comm, key_type, keys, static_cast<int>(value_type), values, count, options, slice);
  });
}

vkc_status vkc_mpi_slice_get_info(const vkc_mpi_slice* slice, vkc_mpi_slice_info* info, size_t info_size) {
  return guarded("vkc_mpi_slice_get_info", [&] {
    require_pointer(slice, "slice");
    require_pointer(info, "info");
    require(info_size > 0, "info_size is 0 (pass sizeof(vkc_mpi_slice_info))");
    const vkc::mpi::SortedSlice& s = slice->slice;
    const vkc_mpi_slice_info c{s.count,
                               s.offset,
                               s.total,
                               s.phases.sample_ms,
                               s.phases.partition_ms,
                               s.phases.exchange_ms,
                               s.phases.local_sort_ms};
    // An older caller's struct is a prefix of this one.
    std::memcpy(info, &c, std::min(info_size, sizeof c));
  });
}

vkc_status vkc_mpi_slice_copy(const vkc_mpi_slice* slice, void* keys, void* values) {
  return guarded("vkc_mpi_slice_copy", [&] {
    require_pointer(slice, "slice");
    const vkc::mpi::SortedSlice& s = slice->slice;
    require_array(keys, s.count, "keys");
    if (values && !slice->pairs) invalid("values: the slice of vkc_mpi_sort has no values (pass NULL)");
    if (s.count) std::memcpy(keys, s.keys.data(), s.keys.size());
    if (values && s.count) std::memcpy(values, s.values.data(), s.values.size());
  });
}

void vkc_mpi_slice_destroy(vkc_mpi_slice* slice) { delete slice; }

}  // extern "C"
