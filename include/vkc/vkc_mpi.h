/* vkcompute's distributed sort for C (libvkcompute_mpi.so): one array split across the ranks of an
 * MPI communicator, sorted as vkc::mpi sorts it (include/vkc/mpi.hpp: a sample sort with one
 * all-to-all exchange), each rank sorting its range of the result on its own device through a
 * vkc_context of libvkcompute.so (vkc.h). A library of its own, so that libvkcompute.so needs no
 * MPI; it loads the libvkcompute.so.1 beside it, which must come from the same build.
 *
 * ## The contract
 * - As vkc.h's: every function that can fail returns a vkc_status, and vkc_mpi_last_error()
 *   (this library's, not vkc_last_error) gives its one-line message on the calling thread, valid
 *   until the thread's next vkc_mpi call. No exception crosses this boundary, no argument aborts.
 * - A communicator crosses as MPI's Fortran handle (MPI_Fint): MPI_Comm_c2f(comm) in C,
 *   comm.py2f() in mpi4py, so that this header needs no mpi.h. MPI must be initialized, by the
 *   caller, and not yet finalized.
 * - The collective functions (vkc_mpi_sort, vkc_mpi_sort_pairs, vkc_mpi_local_device) are called
 *   by every rank of the communicator. When one fails on any rank (a bad argument there; ranks
 *   that disagree on the key type, value type, order or bit range; a device that fails), it fails
 *   on every rank, with the first failing rank's status and message, "rank R: <what failed>": no
 *   rank is left waiting. Only a communicator that is not one (or MPI not running) fails on the
 *   calling rank alone.
 * - Versioning as vkc.h's: VKC_MPI_ABI_VERSION is the SOVERSION and changes only when an
 *   existing function or struct changes. */
#ifndef VKC_VKC_MPI_H
#define VKC_VKC_MPI_H

#include "vkc/vkc.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VKC_MPI_ABI_VERSION 1

/* MPI_Fint, a Fortran INTEGER: int in Open MPI and MPICH. */
typedef int vkc_mpi_fint;

/* The message of the last failure of a vkc_mpi function on the calling thread ("" when there was
 * none), "<function>: <what failed>" on one line. */
VKC_API const char* vkc_mpi_last_error(void);
/* VKC_MPI_ABI_VERSION of the library that is loaded. */
VKC_API uint32_t vkc_mpi_abi_version(void);

/* The device this rank should use (as vkc_context_options_set_device takes it, written as a
 * number): its rank among the ranks of `comm` on the same host, as an index into the devices of
 * the preferred kind (vkc_context_options_set_devices' "all"), modulo their number. Collective. */
VKC_API vkc_status vkc_mpi_local_device(vkc_mpi_fint comm, uint32_t* index);

/* One rank's part of a sort's result: a contiguous range of the global sorted order, held by the
 * library until vkc_mpi_slice_destroy. Its size is known only once the ranks have exchanged
 * their keys: read it (vkc_mpi_slice_get_info), allocate, then copy the range out. */
typedef struct vkc_mpi_slice vkc_mpi_slice;

typedef struct vkc_mpi_slice_info {
  uint64_t count;       /* elements of this rank's range */
  uint64_t offset;      /* where the range begins in the global sorted order */
  uint64_t total;       /* elements of the whole array */
  double sample_ms;     /* the phases on this rank, wall clock: choosing the splitters */
  double partition_ms;  /* counting keys by range, agreeing on the ranges, ordering them to send */
  double exchange_ms;   /* the all-to-all exchange of keys (and values) */
  double local_sort_ms; /* the sort of the received range on this rank's context */
} vkc_mpi_slice_info;

/* Sorts the array that the ranks' `keys` form in rank order (rank 0's first), under vkc.h's order
 * contract, and gives this rank its range of the result in `*slice` (NULL on failure).
 * Collective: every rank passes its own `count` keys (0 is allowed, `keys` then may be NULL) and
 * its own context, on the device it should sort on (vkc_mpi_local_device: one device per rank of a
 * host); a context with a device list sorts its range on all of them. `options` (NULL: the
 * defaults) as vkc_sort takes them, alike on every rank but the progress callback, which reports
 * this rank's local sort. Rank r gets the r-th range: balanced in elements (equal keys that
 * straddle a boundary are divided by their global input position, so even all-equal keys split
 * evenly). Stable where the algorithm is (radix, auto): equal keys keep their global input order.
 * Any count: past MPI's int counts, a pair of ranks' elements go in several messages. */
VKC_API vkc_status vkc_mpi_sort(vkc_context* context, vkc_mpi_fint comm, vkc_key_type type, const void* keys,
                                uint64_t count, const vkc_sort_options* options, vkc_mpi_slice** slice);
/* vkc_mpi_sort with a value of `value_type` beside each key (count values), moved with it. */
VKC_API vkc_status vkc_mpi_sort_pairs(vkc_context* context, vkc_mpi_fint comm, vkc_key_type key_type,
                                      const void* keys, vkc_value_type value_type, const void* values,
                                      uint64_t count, const vkc_sort_options* options, vkc_mpi_slice** slice);

/* Fills `info` (of `info_size` bytes: pass sizeof(vkc_mpi_slice_info)). */
VKC_API vkc_status vkc_mpi_slice_get_info(const vkc_mpi_slice* slice, vkc_mpi_slice_info* info, size_t info_size);
/* Copies the range's `count` keys into `keys` (NULL only when count is 0) and, for a slice of
 * vkc_mpi_sort_pairs, its values into `values` (NULL: not copied). Not collective. */
VKC_API vkc_status vkc_mpi_slice_copy(const vkc_mpi_slice* slice, void* keys, void* values);
/* Frees a slice; NULL does nothing. */
VKC_API void vkc_mpi_slice_destroy(vkc_mpi_slice* slice);

#ifdef __cplusplus
}
#endif

#endif /* VKC_VKC_MPI_H */
