/* capi_mpi_test [case...]: libvkcompute_mpi.so (vkc_mpi.h) under mpirun, every rank running the
 * named cases (all without arguments; they are collective). Every rank makes the same whole array, sorts its slice with the others, and
 * checks the gathered result against reference.c's sort of the whole. Exit status 0 only when
 * every check on this rank passed (mpirun fails when any rank does). */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"
#include "vkc/vkc_mpi.h"

static int failures;
static int rank, ranks;
static vkc_context* context;

void note_failure(const char* file, int line, const char* what) {
  fprintf(stderr, "rank %d: %s:%d: check failed: %s\n", rank, file, line, what);
  ++failures;
}

int check_status(const char* file, int line, const char* call, vkc_status status, vkc_status expected,
                 const char* function) {
  (void)function;
  if (status == expected) return 1;
  fprintf(stderr, "rank %d: %s:%d: %s returned %s, expected %s (%s)\n", rank, file, line, call,
          vkc_status_name(status), vkc_status_name(expected), vkc_last_error());
  ++failures;
  return 0;
}

static void on_validation_message(void* user, const char* message) {
  ++*(int*)user;
  fprintf(stderr, "rank %d: validation layer: %s\n", rank, message);
}

void expect_no_validation_messages(vkc_context* c) {
  int messages = 0;
  CHECK_OK(vkc_context_take_validation_messages(c, on_validation_message, &messages));
  CHECK(messages == 0);
}

/* A vkc_mpi call returns VKC_OK; else its status and vkc_mpi_last_error() are printed. */
#define CHECK_MPI_OK(call) check_mpi(__FILE__, __LINE__, #call, (call), VKC_OK, NULL)
/* A vkc_mpi call fails with `expected`, its message starting with `prefix` and holding `part`. */
#define CHECK_MPI_FAILS(call, expected, prefix, part) check_mpi(__FILE__, __LINE__, #call, (call), (expected), (prefix)), \
  check_message_has(__FILE__, __LINE__, (part))

static int check_mpi(const char* file, int line, const char* call, vkc_status status, vkc_status expected,
                     const char* prefix) {
  const char* message = vkc_mpi_last_error();
  if (status != expected) {
    fprintf(stderr, "rank %d: %s:%d: %s returned %s, expected %s (last error: %s)\n", rank, file, line, call,
            vkc_status_name(status), vkc_status_name(expected), message);
    ++failures;
    return 0;
  }
  if (prefix && strncmp(message, prefix, strlen(prefix)) != 0) {
    fprintf(stderr, "rank %d: %s:%d: %s: the message '%s' does not start with '%s'\n", rank, file, line, call, message,
            prefix);
    ++failures;
    return 0;
  }
  return 1;
}

static void check_message_has(const char* file, int line, const char* part) {
  if (!strstr(vkc_mpi_last_error(), part)) {
    fprintf(stderr, "rank %d: %s:%d: the message '%s' does not say '%s'\n", rank, file, line, vkc_mpi_last_error(), part);
    ++failures;
  }
}

static vkc_mpi_fint world(void) { return MPI_Comm_c2f(MPI_COMM_WORLD); }

static size_t slice_begin(size_t n, int r) { return n * (size_t)r / (size_t)ranks; }

/* The elements [begin, end) of this rank's slice of n: rank `only` holds them all when >= 0. */
static void my_range(size_t n, int only, size_t* begin, size_t* end) {
  *begin = only < 0 ? slice_begin(n, rank) : (rank == only ? 0 : n);
  *end = only < 0 ? slice_begin(n, rank + 1) : n;
}

/* Every rank's `count` elements of `width` bytes, concatenated in rank order (malloc'd). */
static void* gathered(const void* mine, size_t count, size_t width, size_t* total) {
  int bytes = (int)(count * width);
  int* sizes = checked_malloc(sizeof(int) * (size_t)ranks);
  int* at = checked_malloc(sizeof(int) * (size_t)ranks);
  MPI_Allgather(&bytes, 1, MPI_INT, sizes, 1, MPI_INT, MPI_COMM_WORLD);
  int sum = 0;
  for (int r = 0; r < ranks; ++r) at[r] = sum, sum += sizes[r];
  void* all = checked_malloc((size_t)sum + 1);
  MPI_Allgatherv(mine, bytes, MPI_BYTE, all, sizes, at, MPI_BYTE, MPI_COMM_WORLD);
  *total = (size_t)sum / width;
  free(sizes);
  free(at);
  return all;
}

/* Sorts the whole array `keys` (n, every rank the same) from this rank's slice (rank `only`
 * holding everything when >= 0), with positions as uint32 values when `pairs`, and checks the
 * gathered result against the reference; returns this rank's count. */
static uint64_t check_distributed_sort(vkc_key_type type, const void* keys, size_t n, vkc_sort_order order, int pairs,
                                       int only) {
  const size_t width = key_size(type);
  size_t begin, end;
  my_range(n, only, &begin, &end);
  uint32_t* positions = checked_malloc(sizeof(uint32_t) * (n + 1));
  for (size_t i = 0; i < n; ++i) positions[i] = (uint32_t)i;
  vkc_sort_options* options = sort_options(pairs ? VKC_ALGORITHM_RADIX : VKC_ALGORITHM_AUTO, order);
  vkc_mpi_slice* slice = NULL;
  const char* mine = (const char*)keys + begin * width;
  if (pairs) {
    CHECK_MPI_OK(vkc_mpi_sort_pairs(context, world(), type, mine, VKC_VALUE_U32, positions + begin, end - begin,
                                    options, &slice));
  } else {
    CHECK_MPI_OK(vkc_mpi_sort(context, world(), type, mine, end - begin, options, &slice));
  }
  vkc_mpi_slice_info info = {0};
  CHECK_MPI_OK(vkc_mpi_slice_get_info(slice, &info, sizeof info));
  char* sorted = checked_malloc(info.count * width + 1);
  uint32_t* values = checked_malloc(sizeof(uint32_t) * (info.count + 1));
  CHECK_MPI_OK(vkc_mpi_slice_copy(slice, sorted, pairs ? values : NULL));
  vkc_mpi_slice_destroy(slice);
  size_t total = 0, total_values = 0;
  char* all = gathered(sorted, info.count, width, &total);
  uint64_t offset = 0;
  MPI_Exscan(&info.count, &offset, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
  CHECK(info.total == n && total == n && info.offset == (rank ? offset : 0));
  char* expected = checked_malloc(n * width + 1);
  reference_sort(type, keys, expected, n, order == VKC_ORDER_DESCENDING);
  const long wrong = first_difference(all, expected, n, width);
  if (wrong >= 0) fprintf(stderr, "rank %d: %s keys differ at %ld of %zu\n", rank, key_type_name(type), wrong, n);
  CHECK(wrong < 0);
  if (pairs) {
    uint32_t* all_values = gathered(values, info.count, sizeof(uint32_t), &total_values);
    uint64_t* stable = checked_malloc(sizeof(uint64_t) * (n + 1));
    reference_argsort(type, keys, stable, n, order == VKC_ORDER_DESCENDING);
    size_t misplaced = 0;
    for (size_t i = 0; i < n; ++i) misplaced += all_values[i] != stable[i];
    CHECK(total_values == n && misplaced == 0);
    free(all_values);
    free(stable);
  }
  vkc_sort_options_destroy(options);
  free(expected);
  free(all);
  free(values);
  free(sorted);
  free(positions);
  return info.count;
}

static void case_every_key_type(void) {
  const size_t n = 2003;
  for (int t = 0; t < KEY_TYPES; ++t) {
    void* keys = checked_malloc(n * 8);
    fill_keys(all_key_types[t], keys, n, 40 + (uint64_t)t, 0);
    for (int order = 0; order < 2; ++order) {
      check_distributed_sort(all_key_types[t], keys, n, (vkc_sort_order)order, 0, -1);
      check_distributed_sort(all_key_types[t], keys, n, (vkc_sort_order)order, 1, -1);
    }
    free(keys);
  }
}

static void case_skew_and_empty_ranks(void) {
  const size_t n = 3000;
  uint32_t* equal = checked_malloc(n * sizeof(uint32_t));
  for (size_t i = 0; i < n; ++i) equal[i] = 7;
  const uint64_t count = check_distributed_sort(VKC_KEY_U32, equal, n, VKC_ORDER_ASCENDING, 1, -1);
  CHECK(count + 1 >= n / (size_t)ranks && count <= n / (size_t)ranks + 1); /* all-equal keys split evenly */
  int64_t* few = checked_malloc(n * sizeof(int64_t));
  fill_keys(VKC_KEY_I64, few, n, 9, 1);
  check_distributed_sort(VKC_KEY_I64, few, n, VKC_ORDER_DESCENDING, 1, 0);
  check_distributed_sort(VKC_KEY_I64, few, n, VKC_ORDER_ASCENDING, 1, ranks - 1);
  const float two[2] = {3.0f, -1.0f}; /* fewer keys than ranks */
  check_distributed_sort(VKC_KEY_F32, two, 2, VKC_ORDER_ASCENDING, 0, -1);
  free(few);
  free(equal);
}

/* A bad argument on the last rank alone fails every rank, naming that rank; none waits. */
static void case_bad_argument_on_one_rank(void) {
  uint32_t keys[4] = {4, 3, 2, 1};
  vkc_mpi_slice* slice = (vkc_mpi_slice*)&slice;
  char prefix[64];
  snprintf(prefix, sizeof prefix, "vkc_mpi_sort: rank %d: ", ranks - 1);
  CHECK_MPI_FAILS(vkc_mpi_sort(context, world(), VKC_KEY_U32, rank == ranks - 1 ? NULL : keys, 4, NULL, &slice),
                  VKC_ERROR_INVALID_ARGUMENT, prefix, "keys is NULL");
  CHECK(slice == NULL);
  snprintf(prefix, sizeof prefix, "vkc_mpi_sort_pairs: rank %d: ", ranks - 1);
  CHECK_MPI_FAILS(vkc_mpi_sort_pairs(context, world(), VKC_KEY_U32, keys, rank == ranks - 1 ? (vkc_value_type)9 : VKC_VALUE_U32,
                                     keys, 4, NULL, &slice),
                  VKC_ERROR_INVALID_ARGUMENT, prefix, "unknown value type 9");
}

/* Ranks that disagree on what to sort by fail alike, before any key moves. */
static void case_ranks_that_disagree(void) {
  uint32_t keys[4] = {4, 3, 2, 1};
  vkc_mpi_slice* slice = NULL;
  if (ranks > 1) {
    vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, rank == 0 ? VKC_ORDER_DESCENDING : VKC_ORDER_ASCENDING);
    CHECK_MPI_FAILS(vkc_mpi_sort(context, world(), VKC_KEY_U32, keys, 4, options, &slice), VKC_ERROR_INVALID_ARGUMENT,
                    "vkc_mpi_sort: ", "disagree on the order");
    CHECK_MPI_FAILS(vkc_mpi_sort(context, world(), rank == 0 ? VKC_KEY_I32 : VKC_KEY_U32, keys, 4, NULL, &slice),
                    VKC_ERROR_INVALID_ARGUMENT, "vkc_mpi_sort: ", "disagree on the key type");
    vkc_sort_options_destroy(options);
  }
  CHECK_MPI_FAILS(vkc_mpi_sort(context, MPI_Comm_c2f(MPI_COMM_NULL), VKC_KEY_U32, keys, 4, NULL, &slice),
                  VKC_ERROR_INVALID_ARGUMENT, "vkc_mpi_sort: ", "MPI_COMM_NULL");
}

/* Cancels a sort of any keys on the last rank (a local sort's failure); lets the others run. */
static int cancel_on_last_rank(void* user, uint64_t done, uint64_t total) {
  (void)user;
  (void)done;
  return rank == ranks - 1 && total > 0;
}

/* A local sort that fails on one rank, after the exchange, fails every rank with its status. */
static void case_local_sort_failure_on_one_rank(void) {
  uint32_t keys[64];
  for (uint32_t i = 0; i < 64; ++i) keys[i] = 64 - i;
  vkc_mpi_slice* slice = NULL;
  vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_sort_options_set_progress(options, cancel_on_last_rank, NULL));
  char prefix[64];
  snprintf(prefix, sizeof prefix, "vkc_mpi_sort: rank %d: ", ranks - 1);
  CHECK_MPI_FAILS(vkc_mpi_sort(context, world(), VKC_KEY_U32, keys, 64, options, &slice), VKC_ERROR_CANCELLED, prefix, "");
  CHECK(slice == NULL);
  vkc_sort_options_destroy(options);
}

static void case_slices_and_devices(void) {
  uint32_t keys[3] = {2, 1, 3}, out[3], index = 0, count = 0;
  vkc_mpi_slice* slice = NULL;
  CHECK_MPI_OK(vkc_mpi_local_device(world(), &index));
  CHECK_OK(vkc_device_count(&count));
  CHECK(index < count);
  CHECK_MPI_OK(vkc_mpi_sort(context, world(), VKC_KEY_U32, keys, 3, NULL, &slice));
  CHECK_MPI_FAILS(vkc_mpi_slice_copy(slice, out, out), VKC_ERROR_INVALID_ARGUMENT, "vkc_mpi_slice_copy: ", "no values");
  CHECK_MPI_FAILS(vkc_mpi_slice_get_info(NULL, NULL, 0), VKC_ERROR_INVALID_ARGUMENT, "vkc_mpi_slice_get_info: ", "NULL");
  vkc_mpi_slice_destroy(slice);
  vkc_mpi_slice_destroy(NULL);
  CHECK(vkc_mpi_abi_version() == VKC_MPI_ABI_VERSION);
}

static int named(const char* name, int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    if (strcmp(argv[a], name) == 0) return 1;
  }
  return 0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  uint32_t device = 0;
  char name[16];
  vkc_context_options* options = NULL;
  CHECK_MPI_OK(vkc_mpi_local_device(world(), &device));
  snprintf(name, sizeof name, "%u", device);
  CHECK_OK(vkc_context_options_create(&options));
  CHECK_OK(vkc_context_options_set_quiet(options, 1));
  CHECK_OK(vkc_context_options_set_device(options, name));
  if (!CHECK_OK(vkc_context_create(options, &context))) MPI_Abort(MPI_COMM_WORLD, 1);
  vkc_context_options_destroy(options);
  static const struct {
    const char* name;
    void (*run)(void);
  } cases[] = {{"EveryKeyType", case_every_key_type},
               {"SkewAndEmptyRanks", case_skew_and_empty_ranks},
               {"BadArgumentOnOneRank", case_bad_argument_on_one_rank},
               {"RanksThatDisagree", case_ranks_that_disagree},
               {"LocalSortFailureOnOneRank", case_local_sort_failure_on_one_rank},
               {"SlicesAndDevices", case_slices_and_devices}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    if (argc > 1 && !named(cases[c].name, argc, argv)) continue;
    const int before = failures;
    cases[c].run();
    expect_no_validation_messages(context);
    if (rank == 0 || failures != before) {
      fprintf(stderr, "rank %d: [ %s ] %s\n", rank, failures == before ? " OK " : "FAIL", cases[c].name);
    }
  }
  vkc_context_destroy(context);
  MPI_Finalize();
  if (failures) fprintf(stderr, "rank %d: %d check(s) failed\n", rank, failures);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
