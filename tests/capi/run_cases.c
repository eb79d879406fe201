/* How sorts run: progress and cancellation, arrays larger than the device memory limit, and
 * two threads on one context. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

typedef struct {
  int calls;
  int cancel_at_call; /* the call (0 the first) from which the callback returns non-zero; -1: never */
  int went_back;
  uint64_t first_done, last_done, last_total;
} Progress;

static int on_progress(void* user, uint64_t done, uint64_t total) {
  Progress* p = user;
  if (p->calls == 0) p->first_done = done;
  if (p->calls > 0 && done < p->last_done) p->went_back = 1;
  p->last_done = done;
  p->last_total = total;
  const int call = p->calls++;
  return p->cancel_at_call >= 0 && call >= p->cancel_at_call;
}

static vkc_sort_options* options_with_progress(Progress* progress, int cancel_at_call) {
  *progress = (Progress){0, cancel_at_call, 0, 0, 0, 0};
  vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_sort_options_set_progress(options, on_progress, progress));
  return options;
}

/* vkc_sort_to with a progress callback that cancels at `cancel_at_call` (-1: never): the
 * status, and the input untouched either way. */
static vkc_status sort_to_with_progress(vkc_context* context, vkc_key_type type, size_t n, int cancel_at_call,
                                        Progress* progress) {
  const size_t bytes = n * key_size(type);
  void* input = checked_malloc(bytes);
  void* copy = checked_malloc(bytes);
  void* output = checked_malloc(bytes);
  fill_keys(type, input, n, n, 0);
  memcpy(copy, input, bytes);
  vkc_sort_options* options = options_with_progress(progress, cancel_at_call);
  const vkc_status status = vkc_sort_to(context, type, input, output, n, options);
  CHECK(memcmp(input, copy, bytes) == 0);
  if (status == VKC_OK) {
    void* expected = checked_malloc(bytes);
    reference_sort(type, input, expected, n, 0);
    CHECK(memcmp(output, expected, bytes) == 0);
    free(expected);
  }
  vkc_sort_options_destroy(options);
  free(input);
  free(copy);
  free(output);
  return status;
}

void case_progress(void) {
  vkc_context* context = test_context();
  Progress p;
  CHECK_OK(sort_to_with_progress(context, VKC_KEY_F32, 100003, -1, &p));
  CHECK(p.calls >= 2 && p.first_done == 0 && p.last_done == p.last_total && p.last_total > 0 && !p.went_back);
  /* The first call cancels: nothing is sorted. */
  CHECK_FAILS(sort_to_with_progress(context, VKC_KEY_F32, 100003, 0, &p), VKC_ERROR_CANCELLED, "vkc_sort_to");
  CHECK(p.calls == 1);
  /* The context sorts on afterwards. */
  CHECK_OK(sort_to_with_progress(context, VKC_KEY_U64, 1000, -1, &p));
  /* Cancelling argsort. */
  const size_t n = 1000;
  float* keys = checked_malloc(n * sizeof *keys);
  uint32_t* indices = checked_malloc(n * sizeof *indices);
  fill_keys(VKC_KEY_F32, keys, n, 1, 0);
  vkc_sort_options* cancelling = options_with_progress(&p, 0);
  CHECK_FAILS(vkc_argsort(context, VKC_KEY_F32, keys, n, indices, cancelling), VKC_ERROR_CANCELLED, "vkc_argsort");
  vkc_sort_options_destroy(cancelling);
  free(keys);
  free(indices);
}

/* Larger than the device memory limit: sorted in runs and merged by the library, runs in host
 * memory (8 MiB) and, where they fit the limit, on the device (16 MiB). */
void case_out_of_core(void) {
  enum { N = 3000000 }; /* 12 MB of 32-bit keys */
  vkc_context* small = create_limited_context(8u << 20);
  Progress p;
  CHECK_OK(sort_to_with_progress(small, VKC_KEY_U32, N, -1, &p));
  CHECK(p.calls > 2 && p.last_done == p.last_total && !p.went_back); /* runs, then parts */
  /* Cancelled after the first run: the input stays as it was. */
  CHECK_FAILS(sort_to_with_progress(small, VKC_KEY_U32, N, 1, &p), VKC_ERROR_CANCELLED, "vkc_sort_to");
  CHECK(p.calls == 2);
  /* argsort64, stable across runs. */
  float* keys = checked_malloc(N * sizeof *keys);
  uint64_t* indices = checked_malloc(N * sizeof *indices);
  uint64_t* expected = checked_malloc(N * sizeof *expected);
  fill_keys(VKC_KEY_F32, keys, N, 2, 1);
  CHECK_OK(vkc_argsort64(small, VKC_KEY_F32, keys, N, indices, NULL));
  reference_argsort(VKC_KEY_F32, keys, expected, N, 0);
  CHECK(memcmp(indices, expected, N * sizeof *indices) == 0);
  /* 16-bit keys the same way: few distinct ones, whose runs of equals span many parts. */
  enum { HALVES = N };
  uint16_t* halves = checked_malloc(HALVES * sizeof *halves);
  fill_keys(VKC_KEY_F16, halves, HALVES, 3, 1);
  CHECK_OK(vkc_argsort64(small, VKC_KEY_F16, halves, HALVES, indices, NULL));
  reference_argsort(VKC_KEY_F16, halves, expected, HALVES, 0);
  CHECK(memcmp(indices, expected, HALVES * sizeof *indices) == 0);
  free(halves);
  expect_no_validation_messages(small);
  vkc_context_destroy(small);

  vkc_context* medium = create_limited_context(16u << 20);
  CHECK_OK(sort_to_with_progress(medium, VKC_KEY_F32, N, -1, &p));
  CHECK(p.calls > 2);
  expect_no_validation_messages(medium);
  vkc_context_destroy(medium);
  free(keys);
  free(indices);
  free(expected);
}

/* One thread's work on the shared context: `rounds` sorts of its own array. */
typedef struct {
  vkc_context* context;
  vkc_key_type type;
  const void* input;
  const void* expected;
  size_t n;
  int rounds;
  int failed, wrong, started_without_error, own_error_kept;
} Job;

static void* run_job(void* argument) {
  Job* job = argument;
  job->started_without_error = vkc_last_error()[0] == '\0'; /* the last error is per thread */
  const size_t bytes = job->n * key_size(job->type);
  void* keys = checked_malloc(bytes);
  for (int r = 0; r < job->rounds; ++r) {
    memcpy(keys, job->input, bytes);
    if (vkc_sort(job->context, job->type, keys, job->n, NULL) != VKC_OK) ++job->failed;
    else if (memcmp(keys, job->expected, bytes) != 0) ++job->wrong;
  }
  job->own_error_kept = vkc_argsort(job->context, job->type, NULL, 5, NULL, NULL) == VKC_ERROR_INVALID_ARGUMENT &&
                        strncmp(vkc_last_error(), "vkc_argsort", 11) == 0;
  free(keys);
  return NULL;
}

void case_threads(void) {
  vkc_context* context = test_context();
  static const vkc_key_type types[2] = {VKC_KEY_U32, VKC_KEY_F64};
  static const size_t counts[2] = {200003, 50000};
  Job jobs[2];
  void* buffers[4];
  for (int j = 0; j < 2; ++j) {
    const size_t bytes = counts[j] * key_size(types[j]);
    buffers[2 * j] = checked_malloc(bytes);
    buffers[2 * j + 1] = checked_malloc(bytes);
    fill_keys(types[j], buffers[2 * j], counts[j], 40 + j, 0);
    reference_sort(types[j], buffers[2 * j], buffers[2 * j + 1], counts[j], 0);
    jobs[j] = (Job){context, types[j], buffers[2 * j], buffers[2 * j + 1], counts[j], 12, 0, 0, 0, 0};
  }
  CHECK_FAILS(vkc_sort(NULL, VKC_KEY_U32, NULL, 0, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
  pthread_t threads[2];
  for (int j = 0; j < 2; ++j) CHECK(pthread_create(&threads[j], NULL, run_job, &jobs[j]) == 0);
  for (int j = 0; j < 2; ++j) CHECK(pthread_join(threads[j], NULL) == 0);
  for (int j = 0; j < 2; ++j) {
    CHECK(jobs[j].failed == 0);
    CHECK(jobs[j].wrong == 0);
    CHECK(jobs[j].started_without_error);
    CHECK(jobs[j].own_error_kept);
  }
  CHECK(strncmp(vkc_last_error(), "vkc_sort:", 9) == 0); /* this thread's own, untouched by theirs */
  for (int b = 0; b < 4; ++b) free(buffers[b]);
}

/* The same simulation on `shared` (a device list) and on the test's context: equal states after
 * the same steps, bit for bit, and a frame rendered from the first device. */
static void expect_nbody_as_on_one_device(vkc_context* shared) {
  enum { bodies = 700 };
  static float positions[4 * bodies], velocities[4 * bodies], got[2][4 * bodies], want[2][4 * bodies];
  static uint8_t rgba[32 * 32 * 4];
  CHECK_OK(vkc_nbody_initial_conditions(VKC_IC_COLLISION, bodies, 9, positions, velocities));
  vkc_nbody *together = NULL, *alone = NULL;
  if (!CHECK_OK(vkc_nbody_create(shared, positions, velocities, bodies, 1.0f, 0.05f, &together))) return;
  if (!CHECK_OK(vkc_nbody_create(test_context(), positions, velocities, bodies, 1.0f, 0.05f, &alone))) return;
  CHECK_OK(vkc_nbody_step(together, 0.01f, 7));
  CHECK_OK(vkc_nbody_step(alone, 0.01f, 7));
  CHECK_OK(vkc_nbody_get_state(together, got[0], got[1], NULL));
  CHECK_OK(vkc_nbody_get_state(alone, want[0], want[1], NULL));
  CHECK(memcmp(got, want, sizeof got) == 0);
  CHECK(memcmp(got[0], positions, sizeof got[0]) != 0); /* the bodies moved */
  CHECK_OK(vkc_nbody_render(together, 32, 32, NULL, rgba));
  vkc_nbody_destroy(together);
  vkc_nbody_destroy(alone);
}

/* A context over the test's device opened three times (vkc_context_options_set_devices): keys,
 * keys into other arrays, pairs and argsort64 split across the devices against the reference
 * order, an n-body simulation shared among them as on one device, validation messages from every
 * device; a list that names no device is refused. */
void case_device_list(void) {
  vkc_device_info info;
  CHECK_OK(vkc_context_get_device_info(test_context(), &info, sizeof info));
  char list[64];
  snprintf(list, sizeof list, "%u,%u,%u", info.index, info.index, info.index);
  vkc_context_options* options = NULL;
  vkc_context* context = NULL;
  CHECK_OK(vkc_context_options_create(&options));
  CHECK_OK(vkc_context_options_set_quiet(options, 1));
  CHECK_OK(vkc_context_options_set_devices(options, list));
  if (!CHECK_OK(vkc_context_create(options, &context))) return;
  static const vkc_key_type types[3] = {VKC_KEY_F32, VKC_KEY_I64, VKC_KEY_F16};
  const size_t n = 30011;
  for (int t = 0; t < 3; ++t) {
    const vkc_key_type type = types[t];
    const size_t bytes = n * key_size(type);
    void* input = checked_malloc(bytes);
    void* keys = checked_malloc(bytes);
    uint64_t* indices = checked_malloc(n * sizeof *indices);
    uint32_t* values = checked_malloc(n * sizeof *values);
    fill_keys(type, input, n, 54 + t, t == 1);
    memcpy(keys, input, bytes);
    CHECK_OK(vkc_sort(context, type, keys, n, NULL));
    CHECK(expect_sorted(type, input, keys, n, 0, "vkc_sort on three devices"));
    CHECK_OK(vkc_sort_to(context, type, input, keys, n, NULL));
    CHECK(expect_sorted(type, input, keys, n, 0, "vkc_sort_to on three devices"));
    vkc_sort_options* descending = sort_options(VKC_ALGORITHM_RADIX, VKC_ORDER_DESCENDING);
    memcpy(keys, input, bytes);
    for (size_t i = 0; i < n; ++i) values[i] = (uint32_t)i;
    CHECK_OK(vkc_sort_pairs(context, type, keys, VKC_VALUE_U32, values, n, descending));
    CHECK(expect_sorted(type, input, keys, n, 1, "vkc_sort_pairs on three devices"));
    CHECK(expect_stable_permutation(type, input, values, sizeof *values, n, 1, "vkc_sort_pairs' values"));
    CHECK_OK(vkc_argsort64(context, type, input, n, indices, descending));
    CHECK(expect_stable_permutation(type, input, indices, sizeof *indices, n, 1, "vkc_argsort64 on three devices"));
    vkc_sort_options_destroy(descending);
    free(input);
    free(keys);
    free(indices);
    free(values);
  }
  expect_nbody_as_on_one_device(context);
  expect_no_validation_messages(context);
  vkc_context_destroy(context);
  vkc_context* none = NULL;
  CHECK_OK(vkc_context_options_set_devices(options, "0,,0"));
  CHECK_FAILS(vkc_context_create(options, &none), VKC_ERROR_NO_DEVICE, "vkc_context_create");
  CHECK(none == NULL);
  vkc_context_options_destroy(options);
}
