/* vkcompute's C ABI: GPU sorting and n-body simulation on any Vulkan device, for C and for every
 * language that binds C (the Python package `vkcompute` is built on it; Rust, Julia, Go or C#
 * would be too).
 *
 * ## The contract
 * - Objects are opaque handles (vkc_context, vkc_context_options, vkc_sort_options, vkc_nbody),
 *   created and destroyed by the functions named for them. Destroying NULL does nothing.
 * - Every function that can fail returns a vkc_status. On failure, vkc_last_error() returns a
 *   one-line message saying what failed, valid on the calling thread until its next vkc call.
 *   No C++ exception ever crosses this boundary, and no argument makes the library abort: a
 *   NULL handle or pointer, an unknown enumerator or a count that does not fit is
 *   VKC_ERROR_INVALID_ARGUMENT.
 * - Calls on one vkc_context (and on the n-body simulations made from it) are serialized by the
 *   context: several threads may use one context, and each call waits for the one before it.
 *   Different contexts run in parallel. Progress callbacks run on the calling thread; streamed
 *   read and write callbacks on the calling thread and the library's worker threads. No
 *   callback runs after its call returns, and none may call vkc functions on the context it runs
 *   for (or its simulations): the context is locked while they run.
 * - The order contract of every sort (include/vkc/sort.hpp): integers by value; floats by value
 *   with -0.0 before +0.0 ascending, every NaN last in both orders (a NaN comes out with its
 *   sign bit cleared); descending is the exact reverse of ascending for distinct keys. Radix and
 *   odd-even sorts are stable, and argsort is always stable.
 * - Arrays are host memory of `count` elements of the named type, in the host's byte order; the
 *   functions return when their results are in the caller's memory. Counts are 64-bit: arrays
 *   larger than the device's memory are sorted in runs and merged.
 *
 * ## Versioning
 * VKC_ABI_VERSION changes only when an existing function, enumerator or struct changes; new
 * functions and enumerators are added without changing it. Structs that the library fills take
 * their size from the caller (`info_size`), so an older caller keeps working with a newer
 * library. */
#ifndef VKC_VKC_H
#define VKC_VKC_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(VKC_BUILDING_C_API)
#  define VKC_API __declspec(dllexport)
#elif defined(_WIN32)
#  define VKC_API __declspec(dllimport)
#elif defined(__GNUC__)
#  define VKC_API __attribute__((visibility("default")))
#else
#  define VKC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define VKC_ABI_VERSION 1

/* ---------------------------------------------------------------------------------------------
 * Status and errors */

typedef enum vkc_status {
  VKC_OK = 0,
  VKC_ERROR_INVALID_ARGUMENT = 1, /* a NULL handle or pointer, an unknown enumerator, a bad count */
  VKC_ERROR_UNSUPPORTED = 2,      /* valid, but not on this device or build (64-bit keys without
                                     shaderInt64, argsort past 2^32 - 1 keys with 32-bit indices) */
  VKC_ERROR_OUT_OF_MEMORY = 3,    /* host or device memory ran out */
  VKC_ERROR_DEVICE_LOST = 4,      /* the device was lost; the context cannot be used again */
  VKC_ERROR_NO_DEVICE = 5,        /* no Vulkan loader, no device, or none matches the choice */
  VKC_ERROR_CANCELLED = 6,        /* a progress callback returned non-zero */
  VKC_ERROR_CALLBACK = 7,         /* a streamed read or write callback returned non-zero */
  VKC_ERROR_FAILED = 8            /* anything else (a Vulkan call failed, ...): see vkc_last_error */
} vkc_status;

/* The message of the last failure on the calling thread ("" when there was none), "<function>:
 * <what failed>" on one line. Calls that succeed leave it as it was. */
VKC_API const char* vkc_last_error(void);
/* A constant name for a status ("VKC_ERROR_OUT_OF_MEMORY"). */
VKC_API const char* vkc_status_name(vkc_status status);
/* VKC_ABI_VERSION of the library that is loaded (compare with the header's). */
VKC_API uint32_t vkc_abi_version(void);
/* The library's version, "major.minor.patch". */
VKC_API const char* vkc_version(void);

/* ---------------------------------------------------------------------------------------------
 * Devices */

typedef enum vkc_device_type {
  VKC_DEVICE_OTHER = 0,
  VKC_DEVICE_INTEGRATED_GPU = 1,
  VKC_DEVICE_DISCRETE_GPU = 2,
  VKC_DEVICE_VIRTUAL_GPU = 3,
  VKC_DEVICE_CPU = 4
} vkc_device_type;

/* The facts about one device that a caller choosing among them needs. */
typedef struct vkc_device_info {
  uint32_t index;              /* position in the loader's enumeration */
  char name[256];              /* "NVIDIA H200", "llvmpipe (LLVM 15.0.6, 256 bits)" */
  char driver_name[256];       /* "NVIDIA", "llvmpipe" */
  char driver_info[256];       /* "580.95.05", "Mesa 22.3.6 (LLVM 15.0.6)" */
  uint32_t api_version;        /* VK_MAKE_API_VERSION encoding */
  uint32_t vendor_id;
  uint32_t device_id;
  vkc_device_type type;
  uint32_t subgroup_size;      /* the default subgroup size of compute shaders */
  uint32_t shader_int64;       /* 1: 64-bit integer keys sort here */
  uint32_t shader_float64;     /* 1: the device has fp64 (f64 keys sort without it too) */
  uint64_t device_local_bytes; /* the largest device-local heap */
  uint64_t max_storage_buffer_range;
  uint64_t max_allocation_bytes;
} vkc_device_info;

/* The number of Vulkan devices the loader reports (listed once per process). */
VKC_API vkc_status vkc_device_count(uint32_t* count);
/* Fills `info` (of `info_size` bytes: pass sizeof(vkc_device_info)) for device `index`. */
VKC_API vkc_status vkc_device_get_info(uint32_t index, vkc_device_info* info, size_t info_size);
/* Where a device sits on the PCI bus (VK_EXT_pci_bus_info) and what the operating system tells
 * of its link and NUMA node (Linux's sysfs): devices that share a PCIe switch or a host's memory
 * show it here. Each fact has its "unknown" value. */
typedef struct vkc_device_pci {
  uint32_t known;           /* 1: the driver gave the address; 0: every field below is unknown */
  uint32_t domain, bus, device, function;
  char address[32];         /* "0000:1b:00.0"; "" when unknown */
  int32_t numa_node;        /* -1: unknown (or a host of one node) */
  char link_speed[64];      /* the current link, "32.0 GT/s PCIe"; "": unknown */
  uint32_t link_width;      /* lanes of the current link; 0: unknown */
  char max_link_speed[64];  /* the device's fastest link; "": unknown */
  uint32_t max_link_width;  /* 0: unknown */
} vkc_device_pci;

/* Fills `pci` (of `pci_size` bytes: pass sizeof(vkc_device_pci)) for device `index`. */
VKC_API vkc_status vkc_device_get_pci(uint32_t index, vkc_device_pci* pci, size_t pci_size);
/* The device that a context created with device `wanted` would use: an index ("1"), else a
 * case-insensitive substring of its name; NULL or "" means the VKC_DEVICE environment variable,
 * else the first discrete GPU, integrated GPU, virtual GPU, other device, CPU device. */
VKC_API vkc_status vkc_choose_device(const char* wanted, uint32_t* index);

/* ---------------------------------------------------------------------------------------------
 * Contexts: one device (or several), its queues, pipelines and the memory that sorts reuse between
 * calls */

typedef struct vkc_context vkc_context;
typedef struct vkc_context_options vkc_context_options;

/* Options start at the defaults of every setting below. */
VKC_API vkc_status vkc_context_options_create(vkc_context_options** options);
VKC_API void vkc_context_options_destroy(vkc_context_options* options);
/* Which device, as vkc_choose_device takes it (copied). */
VKC_API vkc_status vkc_context_options_set_device(vkc_context_options* options, const char* device);
/* Several devices at once, as a list (copied): "all" (every GPU of the best kind), or indices or
 * names separated by commas, a device may repeat ("0,2", "0,0"); NULL or "" (the default): one
 * device, vkc_context_options_set_device's. vkc_sort, vkc_sort_to, vkc_sort_pairs,
 * vkc_sort_pairs_to and vkc_argsort64 then split each array by key across the devices, each
 * sorting one range of the output at once (sort.hpp, "Several devices"); every other function
 * runs on the list's first device, which vkc_context_get_device_info describes. */
VKC_API vkc_status vkc_context_options_set_devices(vkc_context_options* options, const char* devices);
/* The most device memory the host sorts hold at once; 0 (the default): the VKC_DEVICE_MEMORY_LIMIT
 * environment variable, else nine tenths of the largest device-local heap. */
VKC_API vkc_status vkc_context_options_set_device_memory_limit(vkc_context_options* options, uint64_t bytes);
/* Where compiled pipelines are kept between runs: a directory, "off", or NULL/"" (the default:
 * VKC_PIPELINE_CACHE, else $XDG_CACHE_HOME/vkcompute, else $HOME/.cache/vkcompute). */
VKC_API vkc_status vkc_context_options_set_pipeline_cache_dir(vkc_context_options* options, const char* dir);
/* Non-zero: the Khronos validation layer with synchronization validation, its messages kept
 * (vkc_context_take_validation_messages). VKC_VALIDATION=1 in the environment turns it on too. */
VKC_API vkc_status vkc_context_options_set_validation(vkc_context_options* options, int enabled);
/* Non-zero: no note on stderr when the choice falls back to a CPU device. */
VKC_API vkc_status vkc_context_options_set_quiet(vkc_context_options* options, int quiet);
/* Threads that move host arrays to and from staging memory (0, the default: 8, or fewer cores). */
VKC_API vkc_status vkc_context_options_set_host_threads(vkc_context_options* options, uint32_t threads);

/* Creates a context; `options` NULL means every default. */
VKC_API vkc_status vkc_context_create(const vkc_context_options* options, vkc_context** context);
/* Destroys a context after its simulations (vkc_nbody_destroy) are gone. */
VKC_API void vkc_context_destroy(vkc_context* context);
VKC_API vkc_status vkc_context_get_device_info(vkc_context* context, vkc_device_info* info, size_t info_size);
/* Frees the device and staging memory the context keeps between sorts. */
VKC_API vkc_status vkc_context_release_cached_memory(vkc_context* context);
/* Pinned host memory of `bytes` bytes (at least 1) that the device copies to and from directly:
   the sort functions move arrays that lie in it without the staging copies that other memory
   takes. *data is set to its first byte. Freed by vkc_pinned_free, or with the context (its memory
   is gone then). A context made with a device list pins it for its first device. */
VKC_API vkc_status vkc_pinned_alloc(vkc_context* context, uint64_t bytes, void** data);
/* Frees what vkc_pinned_alloc gave; NULL does nothing. */
VKC_API vkc_status vkc_pinned_free(vkc_context* context, void* data);
/* Calls `sink` once per validation message emitted since the last call, then forgets them
 * (`sink` NULL: forgets them). The sink runs after the context is unlocked: it may call vkc. */
typedef void (*vkc_message_fn)(void* user, const char* message);
VKC_API vkc_status vkc_context_take_validation_messages(vkc_context* context, vkc_message_fn sink, void* user);

/* ---------------------------------------------------------------------------------------------
 * Sorting host arrays */

/* Key types. Keys of 8 and 16 bits lie packed in the caller's arrays, one after another, as
 * for every other type. VKC_KEY_F16 is IEEE 754 binary16 (C's _Float16, CUDA's __half), and
 * VKC_KEY_BF16 bfloat16 (the upper 16 bits of a binary32: CUDA's __nv_bfloat16, PyTorch's
 * torch.bfloat16), both passed as their bits (uint16_t arrays do). Numbers never change; new
 * types are appended. */
typedef enum vkc_key_type {
  VKC_KEY_U32 = 0,
  VKC_KEY_I32 = 1,
  VKC_KEY_F32 = 2,
  VKC_KEY_U64 = 3,
  VKC_KEY_I64 = 4,
  VKC_KEY_F64 = 5,
  VKC_KEY_U8 = 6,
  VKC_KEY_I8 = 7,
  VKC_KEY_U16 = 8,
  VKC_KEY_I16 = 9,
  VKC_KEY_F16 = 10,
  VKC_KEY_BF16 = 11
} vkc_key_type;

/* Values travel as bytes: any 4- or 8-byte type. */
typedef enum vkc_value_type { VKC_VALUE_U32 = 1, VKC_VALUE_U64 = 2 } vkc_value_type;

typedef enum vkc_sort_algorithm {
  VKC_ALGORITHM_AUTO = 0,      /* bitonic for small arrays, radix above a measured crossover */
  VKC_ALGORITHM_BITONIC = 1,   /* not stable */
  VKC_ALGORITHM_BITONIC_TRANSPOSE = 2, /* the DirectX SDK's method; not stable */
  VKC_ALGORITHM_ODD_EVEN = 3,  /* stable; O(n^2 / B): small or nearly sorted arrays */
  VKC_ALGORITHM_RADIX = 4      /* stable; O(n) */
} vkc_sort_algorithm;

typedef enum vkc_sort_order { VKC_ORDER_ASCENDING = 0, VKC_ORDER_DESCENDING = 1 } vkc_sort_order;

typedef enum vkc_radix_scan {
  VKC_RADIX_SCAN_AUTO = 0,
  VKC_RADIX_SCAN_LOOKBACK = 1,         /* needs forward progress between workgroups */
  VKC_RADIX_SCAN_REDUCE_THEN_SCAN = 2  /* no workgroup waits for another */
} vkc_radix_scan;

/* How far a sort has come: `done` of `total` units. Return non-zero to cancel the sort, which
 * then fails with VKC_ERROR_CANCELLED; the arrays it was writing may hold partial results, the
 * ones it only reads are untouched. Called at the start and the end of a sort at least. */
typedef int (*vkc_progress_fn)(void* user, uint64_t done, uint64_t total);

typedef struct vkc_sort_options vkc_sort_options;

/* Options start at: automatic algorithm, ascending, automatic radix scan, every bit of the key,
 * no progress callback. Every sort function takes NULL for these defaults. */
VKC_API vkc_status vkc_sort_options_create(vkc_sort_options** options);
VKC_API void vkc_sort_options_destroy(vkc_sort_options* options);
VKC_API vkc_status vkc_sort_options_set_algorithm(vkc_sort_options* options, vkc_sort_algorithm algorithm);
VKC_API vkc_status vkc_sort_options_set_order(vkc_sort_options* options, vkc_sort_order order);
VKC_API vkc_status vkc_sort_options_set_radix_scan(vkc_sort_options* options, vkc_radix_scan scan);
VKC_API vkc_status vkc_sort_options_set_progress(vkc_sort_options* options, vkc_progress_fn progress, void* user);
/* Sorts by the bits [begin_bit, end_bit) of each key's ordered image alone, as CUB's begin_bit
 * and end_bit (bit 0 is the least significant): keys equal under those bits are equal keys, and
 * keep their input order (radix is stable). The ordered image is the unsigned word of the key's
 * width whose ascending order is the order contract's:
 * - unsigned keys: the key itself;
 * - signed keys: the key with its sign bit flipped (so [0, 8) of an int16 is its low byte, and
 *   -1 (0xFFFF) and 255 (0x00FF) are equal keys under it, both 0xFF);
 * - floats: the bits with the sign bit flipped for a positive key and every bit flipped for a
 *   negative one; a NaN, whatever its sign, as its positive pattern with the sign bit set (above
 *   +inf);
 * - descending: every bit of that image flipped, except a NaN's (NaNs stay last).
 * As in CUB (cub#293), a range without the top bit does not see the sign: under [0, 8), -1 is
 * not below 0 in int16 keys.
 * Ranges are radix sorts only: with a range other than the whole key, the algorithm must be
 * VKC_ALGORITHM_AUTO (which then picks radix) or VKC_ALGORITHM_RADIX, and begin_bit must not
 * pass the key's width (8, 16, 32 or 64), else the sort fails with VKC_ERROR_INVALID_ARGUMENT.
 * end_bit at or past the width means the width (UINT32_MAX, the default, is every bit whatever
 * the key type); begin_bit == end_bit sorts nothing (the keys keep their order). Radix passes
 * only over the 8-bit digits the range touches: a narrower range is a faster sort. begin_bit >
 * end_bit is VKC_ERROR_INVALID_ARGUMENT here. */
VKC_API vkc_status vkc_sort_options_set_bits(vkc_sort_options* options, uint32_t begin_bit, uint32_t end_bit);

/* What `options` hold (NULL: the defaults), for code that builds on a caller's options
 * (libvkcompute_mpi.so partitions keys by their order and bit range). */
VKC_API vkc_status vkc_sort_options_get_order(const vkc_sort_options* options, vkc_sort_order* order);
VKC_API vkc_status vkc_sort_options_get_bits(const vkc_sort_options* options, uint32_t* begin_bit, uint32_t* end_bit);

/* Sorts `keys` in place. */
VKC_API vkc_status vkc_sort(vkc_context* context, vkc_key_type type, void* keys, uint64_t count,
                            const vkc_sort_options* options);
/* Sorts `keys` into `sorted_keys`, leaving `keys` as it was (it is only read, so it may be
 * read-only memory); the two may be the same array, and must not overlap otherwise
 * (VKC_ERROR_INVALID_ARGUMENT). The copy costs nothing extra: the keys go to the device from one
 * array and come back into the other. */
VKC_API vkc_status vkc_sort_to(vkc_context* context, vkc_key_type type, const void* keys, void* sorted_keys,
                               uint64_t count, const vkc_sort_options* options);
/* Sorts `keys` in place and reorders `values` (count values of `value_type`) with them. */
VKC_API vkc_status vkc_sort_pairs(vkc_context* context, vkc_key_type key_type, void* keys,
                                  vkc_value_type value_type, void* values, uint64_t count,
                                  const vkc_sort_options* options);
/* vkc_sort_pairs into other arrays, as vkc_sort_to. */
VKC_API vkc_status vkc_sort_pairs_to(vkc_context* context, vkc_key_type key_type, const void* keys,
                                     void* sorted_keys, vkc_value_type value_type, const void* values,
                                     void* sorted_values, uint64_t count, const vkc_sort_options* options);
/* The stable permutation that sorts `keys`, as `count` uint32 indices (count at most 2^32 - 1:
 * else VKC_ERROR_UNSUPPORTED). The algorithm option of every argsort function must be auto,
 * radix or odd_even, the stable ones (else VKC_ERROR_INVALID_ARGUMENT). */
VKC_API vkc_status vkc_argsort(vkc_context* context, vkc_key_type type, const void* keys, uint64_t count,
                               uint32_t* indices, const vkc_sort_options* options);
/* vkc_argsort with uint64 indices, for any count. */
VKC_API vkc_status vkc_argsort64(vkc_context* context, vkc_key_type type, const void* keys, uint64_t count,
                                 uint64_t* indices, const vkc_sort_options* options);

/* ---------------------------------------------------------------------------------------------
 * Segmented sorts: independent pieces of one host array, each sorted on its own (every row of a
 * matrix, as NumPy sorts along its last axis; or CUB's DeviceSegmentedSort's segments).
 *
 * Segment i is the keys [begins[i], ends[i]) of the array's `count`; consecutive segments given as
 * S + 1 offsets are begins = offsets and ends = offsets + 1 (one array, S of each). Segments may
 * be empty and need not cover the array: elements outside every segment are neither read for
 * ordering nor written. An end before its begin, an end past `count`, or two segments that
 * share an element is VKC_ERROR_INVALID_ARGUMENT, before anything is sorted (empty segments
 * share none). The order contract holds within each segment, and segmented sorts are stable in
 * both orders. The algorithm option must be auto or radix (the library picks its kernels by
 * segment length), and the bit range every bit of the key (ranges are not taken yet):
 * VKC_ERROR_INVALID_ARGUMENT otherwise. The `_rows` forms sort `rows` rows of `columns` keys
 * each, row-major (rows * columns keys): segment r is [r * columns, (r + 1) * columns). */

/* Which numbers a segmented argsort writes: positions within each segment (0 for its first key:
 * NumPy's argsort along an axis), or positions in the whole array. */
typedef enum vkc_segment_indices { VKC_SEGMENT_INDICES_LOCAL = 0, VKC_SEGMENT_INDICES_GLOBAL = 1 } vkc_segment_indices;

/* Sorts each segment of `keys` (count keys) in place. */
VKC_API vkc_status vkc_sort_segments(vkc_context* context, vkc_key_type key_type, void* keys, uint64_t count,
                                     const uint64_t* begins, const uint64_t* ends, uint64_t segment_count,
                                     const vkc_sort_options* options);
/* Sorts each segment's keys in place and reorders its values (count values of `value_type`) with
 * them. */
VKC_API vkc_status vkc_sort_segments_pairs(vkc_context* context, vkc_key_type key_type, void* keys,
                                           vkc_value_type value_type, void* values, uint64_t count,
                                           const uint64_t* begins, const uint64_t* ends, uint64_t segment_count,
                                           const vkc_sort_options* options);
/* The stable permutation of each segment: for segment [b, e), indices[b .. e) are its keys'
 * positions in sorted order, numbered as `numbering` says (local: 0 .. e - b; global: b .. e).
 * `indices` holds `count` indices of `index_type` (VKC_VALUE_U32: uint32_t, VKC_VALUE_U64:
 * uint64_t); those at positions outside every segment are not written. uint32 indices need
 * count <= 2^32 - 1 when global, every segment that long at most when local (else
 * VKC_ERROR_UNSUPPORTED). */
VKC_API vkc_status vkc_argsort_segments(vkc_context* context, vkc_key_type key_type, const void* keys,
                                        uint64_t count, const uint64_t* begins, const uint64_t* ends,
                                        uint64_t segment_count, vkc_value_type index_type, void* indices,
                                        vkc_segment_indices numbering, const vkc_sort_options* options);
/* Sorts each of `rows` rows of `columns` keys in place (np.sort(keys, axis=-1)). */
VKC_API vkc_status vkc_sort_rows(vkc_context* context, vkc_key_type key_type, void* keys, uint64_t rows,
                                 uint64_t columns, const vkc_sort_options* options);
/* vkc_sort_rows, reordering `values` (rows * columns of `value_type`) with the keys. */
VKC_API vkc_status vkc_sort_rows_pairs(vkc_context* context, vkc_key_type key_type, void* keys,
                                       vkc_value_type value_type, void* values, uint64_t rows, uint64_t columns,
                                       const vkc_sort_options* options);
/* The stable permutation of each row, as positions within the row (np.argsort(keys, axis=-1,
 * kind="stable")): rows * columns indices of `index_type` (uint32 ones need columns <= 2^32 - 1). */
VKC_API vkc_status vkc_argsort_rows(vkc_context* context, vkc_key_type key_type, const void* keys, uint64_t rows,
                                    uint64_t columns, vkc_value_type index_type, void* indices,
                                    const vkc_sort_options* options);

/* Arrays that are not in memory (files, sockets, generators), in pieces: a read callback fills
 * `dst` with the array's bytes [offset, offset + bytes), a write callback takes them from `src`.
 * They are called from several threads at once, for disjoint ranges in no particular order, and
 * return 0, or non-zero to fail the sort (VKC_ERROR_CALLBACK). Every byte is read before any is
 * written. */
typedef int (*vkc_read_fn)(void* user, uint64_t offset, void* dst, uint64_t bytes);
typedef int (*vkc_write_fn)(void* user, uint64_t offset, const void* src, uint64_t bytes);

VKC_API vkc_status vkc_sort_streamed(vkc_context* context, vkc_key_type type, vkc_read_fn read_keys,
                                     void* read_user, vkc_write_fn write_keys, void* write_user, uint64_t count,
                                     const vkc_sort_options* options);
VKC_API vkc_status vkc_sort_pairs_streamed(vkc_context* context, vkc_key_type key_type, vkc_read_fn read_keys,
                                           void* read_keys_user, vkc_write_fn write_keys, void* write_keys_user,
                                           vkc_value_type value_type, vkc_read_fn read_values,
                                           void* read_values_user, vkc_write_fn write_values,
                                           void* write_values_user, uint64_t count,
                                           const vkc_sort_options* options);
/* The permutation goes to `write_indices` as uint32 (argsort) or uint64 (argsort64) indices;
 * offsets count bytes of that array. */
VKC_API vkc_status vkc_argsort_streamed(vkc_context* context, vkc_key_type type, vkc_read_fn read_keys,
                                        void* read_user, vkc_write_fn write_indices, void* write_user,
                                        uint64_t count, const vkc_sort_options* options);
VKC_API vkc_status vkc_argsort64_streamed(vkc_context* context, vkc_key_type type, vkc_read_fn read_keys,
                                          void* read_user, vkc_write_fn write_indices, void* write_user,
                                          uint64_t count, const vkc_sort_options* options);

/* ---------------------------------------------------------------------------------------------
 * N-body: all-pairs gravity, leapfrog, fp64 diagnostics, frames rendered on the GPU
 * (include/vkc/nbody.hpp, docs/nbody.md). Positions are 4 floats per body (x, y, z, mass),
 * velocities 4 floats per body (x, y, z, unused). */

typedef struct vkc_nbody vkc_nbody;

typedef enum vkc_initial_conditions {
  VKC_IC_PLUMMER = 0,   /* a Plummer sphere in virial equilibrium, N-body units */
  VKC_IC_CUBE = 1,      /* equal masses at rest, uniform in [-1, 1]^3: a cold collapse */
  VKC_IC_COLLISION = 2  /* two disk galaxies on a collision course (at least 4 bodies) */
} vkc_initial_conditions;

typedef struct vkc_nbody_diagnostics {
  double mass;
  double kinetic;   /* sum m v^2 / 2 */
  double potential; /* -G sum_{i<j} m_i m_j / sqrt(r^2 + eps^2), O(N^2) on the host */
  double energy;    /* kinetic + potential */
  double momentum[3];
  double angular_momentum[3];
  double centre_of_mass[3];
} vkc_nbody_diagnostics;

/* What a frame shows: the square [cx - extent, cx + extent] x [cy - extent, cy + extent] of the
 * x-y plane, seen along -z (as vkc::nbody::View). */
typedef struct vkc_nbody_view {
  float centre_x, centre_y;
  float extent;
  int32_t body_radius; /* the disc each body lights, in pixels; -1: chosen from frame and bodies */
  float white;         /* bodies on a pixel that show as full white; 0: the 99th percentile */
} vkc_nbody_view;

/* Fills `positions` and `velocities` (4 * bodies floats each) with a standard initial state,
 * the same for the same (bodies, seed). Bodies: 2 (4 for VKC_IC_COLLISION) to 2^31. */
VKC_API vkc_status vkc_nbody_initial_conditions(vkc_initial_conditions kind, uint64_t bodies, uint64_t seed,
                                                float* positions, float* velocities);
/* A simulation of `bodies` bodies (2 to 2^31) on the context's device, or shared among its
 * devices when it was made with a device list (vkc_context_options_set_devices; each device
 * computes the forces on its share, one device's result bit for bit on devices of one kind),
 * starting from the arrays (copied). `gravity` is G (finite, > 0), `softening` the Plummer softening length (finite,
 * >= 1e-6); other values are VKC_ERROR_INVALID_ARGUMENT. A state that nbody.hpp refuses (a
 * non-finite value, a negative mass) is VKC_ERROR_FAILED, its message saying why. */
VKC_API vkc_status vkc_nbody_create(vkc_context* context, const float* positions, const float* velocities,
                                    uint64_t bodies, float gravity, float softening, vkc_nbody** simulation);
VKC_API void vkc_nbody_destroy(vkc_nbody* simulation);
/* Advances `steps` kick-drift-kick steps of `dt` (finite, > 0). */
VKC_API vkc_status vkc_nbody_step(vkc_nbody* simulation, float dt, uint32_t steps);
/* Copies the current state into `positions` and `velocities` (4 * bodies floats each; either
 * may be NULL) and the simulation time into `time` (may be NULL). */
VKC_API vkc_status vkc_nbody_get_state(vkc_nbody* simulation, float* positions, float* velocities, double* time);
/* Replaces the state with `bodies` bodies from the arrays (both needed; the time is kept). */
VKC_API vkc_status vkc_nbody_set_state(vkc_nbody* simulation, const float* positions, const float* velocities);
VKC_API vkc_status vkc_nbody_diagnose(vkc_nbody* simulation, vkc_nbody_diagnostics* diagnostics);
/* A view centred on the centre of mass that frames most of the bodies. */
VKC_API vkc_status vkc_nbody_fit_view(vkc_nbody* simulation, vkc_nbody_view* view);
/* Renders the x-y plane into `rgba` (width * height * 4 bytes, rows top to bottom; width and
 * height 1 to 16384; alpha 255); `view` NULL: vkc_nbody_fit_view's (else its extent must be
 * finite and > 0). */
VKC_API vkc_status vkc_nbody_render(vkc_nbody* simulation, uint32_t width, uint32_t height,
                                    const vkc_nbody_view* view, uint8_t* rgba);

#ifdef __cplusplus
}
#endif

#endif /* VKC_VKC_H */
