/* The streamed forms: arrays handed over in pieces by C callbacks, called from several threads;
 * a callback that fails ends the sort with VKC_ERROR_CALLBACK. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

/* What the callbacks of one sort share: the bytes read so far of all its input arrays, so that
 * a write can tell whether every byte was read before it (the contract). */
typedef struct {
  uint64_t input_bytes;
  atomic_uint_least64_t read_bytes;
  atomic_int early_writes, out_of_range;
} Streams;

/* One array of memory behind a read or write callback. */
typedef struct {
  Streams* streams;
  unsigned char* data;
  uint64_t size;
  int fail_with;      /* non-zero: what the callback returns for the pieces from fail_from on */
  uint64_t fail_from;
} Stream;

static int fails(const Stream* s, uint64_t offset) { return s->fail_with != 0 && offset >= s->fail_from; }

static int read_stream(void* user, uint64_t offset, void* dst, uint64_t bytes) {
  Stream* s = user;
  if (offset > s->size || bytes > s->size - offset) {
    atomic_fetch_add(&s->streams->out_of_range, 1);
    return 1;
  }
  if (fails(s, offset)) return s->fail_with;
  memcpy(dst, s->data + offset, bytes);
  atomic_fetch_add(&s->streams->read_bytes, bytes);
  return 0;
}

static int write_stream(void* user, uint64_t offset, const void* src, uint64_t bytes) {
  Stream* s = user;
  if (offset > s->size || bytes > s->size - offset) {
    atomic_fetch_add(&s->streams->out_of_range, 1);
    return 1;
  }
  if (fails(s, offset)) return s->fail_with;
  if (atomic_load(&s->streams->read_bytes) != s->streams->input_bytes) atomic_fetch_add(&s->streams->early_writes, 1);
  memcpy(s->data + offset, src, bytes);
  return 0;
}

static void init_streams(Streams* streams, uint64_t input_bytes) {
  streams->input_bytes = input_bytes;
  atomic_init(&streams->read_bytes, 0);
  atomic_init(&streams->early_writes, 0);
  atomic_init(&streams->out_of_range, 0);
}

static Stream stream(Streams* streams, void* data, uint64_t size) { return (Stream){streams, data, size, 0, 0}; }

static void expect_contract_kept(Streams* streams) {
  CHECK(atomic_load(&streams->read_bytes) == streams->input_bytes);
  CHECK(atomic_load(&streams->early_writes) == 0);
  CHECK(atomic_load(&streams->out_of_range) == 0);
}

/* More than one staging chunk (1 MiB), so that the library's worker threads call too. */
enum { STREAMED = 1000003 };

static void check_sort_streamed(vkc_context* context, vkc_key_type type, size_t n) {
  const size_t bytes = n * key_size(type);
  void* input = checked_malloc(bytes);
  void* output = checked_malloc(bytes);
  void* expected = checked_malloc(bytes);
  fill_keys(type, input, n, 17 + n, 0);
  Streams streams;
  init_streams(&streams, bytes);
  Stream in = stream(&streams, input, bytes), out = stream(&streams, output, bytes);
  vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, VKC_ORDER_DESCENDING);
  CHECK_OK(vkc_sort_streamed(context, type, read_stream, &in, write_stream, &out, n, options));
  reference_sort(type, input, expected, n, 1);
  CHECK(memcmp(output, expected, bytes) == 0);
  expect_contract_kept(&streams);
  vkc_sort_options_destroy(options);
  free(input);
  free(output);
  free(expected);
}

static void check_pairs_streamed(vkc_context* context, size_t n) {
  float* keys = checked_malloc(n * 4);
  uint64_t* values = checked_malloc(n * 8);
  float* sorted_keys = checked_malloc(n * 4);
  uint64_t* sorted_values = checked_malloc(n * 8);
  uint64_t* expected = checked_malloc(n * 8);
  fill_keys(VKC_KEY_F32, keys, n, 3, 1);
  for (size_t i = 0; i < n; ++i) values[i] = i;
  Streams streams;
  init_streams(&streams, 12 * (uint64_t)n);
  Stream keys_in = stream(&streams, keys, 4 * n), keys_out = stream(&streams, sorted_keys, 4 * n);
  Stream values_in = stream(&streams, values, 8 * n), values_out = stream(&streams, sorted_values, 8 * n);
  vkc_sort_options* radix = sort_options(VKC_ALGORITHM_RADIX, VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_sort_pairs_streamed(context, VKC_KEY_F32, read_stream, &keys_in, write_stream, &keys_out,
                                   VKC_VALUE_U64, read_stream, &values_in, write_stream, &values_out, n, radix));
  reference_argsort(VKC_KEY_F32, keys, expected, n, 0);
  CHECK(memcmp(sorted_values, expected, 8 * n) == 0);
  expect_contract_kept(&streams);
  vkc_sort_options_destroy(radix);
  free(keys);
  free(values);
  free(sorted_keys);
  free(sorted_values);
  free(expected);
}

static void check_argsort_streamed(vkc_context* context, size_t n, int wide) {
  int32_t* keys = checked_malloc(n * 4);
  void* indices = checked_malloc(n * 8);
  uint64_t* expected = checked_malloc(n * 8);
  fill_keys(VKC_KEY_I32, keys, n, 11, 1);
  Streams streams;
  init_streams(&streams, 4 * (uint64_t)n);
  Stream in = stream(&streams, keys, 4 * n), out = stream(&streams, indices, (wide ? 8 : 4) * (uint64_t)n);
  if (wide) CHECK_OK(vkc_argsort64_streamed(context, VKC_KEY_I32, read_stream, &in, write_stream, &out, n, NULL));
  else CHECK_OK(vkc_argsort_streamed(context, VKC_KEY_I32, read_stream, &in, write_stream, &out, n, NULL));
  reference_argsort(VKC_KEY_I32, keys, expected, n, 0);
  long wrong = -1;
  for (size_t i = 0; i < n && wrong < 0; ++i) {
    const uint64_t got = wide ? ((uint64_t*)indices)[i] : ((uint32_t*)indices)[i];
    if (got != expected[i]) wrong = (long)i;
  }
  CHECK(wrong < 0);
  expect_contract_kept(&streams);
  free(keys);
  free(indices);
  free(expected);
}

void case_streamed(void) {
  vkc_context* context = test_context();
  check_sort_streamed(context, VKC_KEY_U32, STREAMED);
  check_sort_streamed(context, VKC_KEY_F64, 1000);
  check_sort_streamed(context, VKC_KEY_BF16, STREAMED); /* 16-bit keys: chunks of an odd number of them */
  check_sort_streamed(context, VKC_KEY_I8, 1001);
  check_pairs_streamed(context, STREAMED);
  check_argsort_streamed(context, STREAMED, 0);
  check_argsort_streamed(context, 1000, 1);
  /* Nothing to read or write: no callback is needed. */
  CHECK_OK(vkc_sort_streamed(context, VKC_KEY_U32, NULL, NULL, NULL, NULL, 0, NULL));
}

/* A read or a write callback that fails, on the calling thread (the first piece of a small
 * array) or on a worker (a later piece of a large one): VKC_ERROR_CALLBACK, and the context
 * sorts correctly afterwards. */
void case_callback_failures(void) {
  vkc_context* context = test_context();
  static const size_t counts[] = {1000, STREAMED};
  for (int c = 0; c < 2; ++c) {
    const size_t n = counts[c], bytes = 4 * n;
    uint32_t* keys = checked_malloc(bytes);
    uint32_t* output = checked_malloc(bytes);
    fill_keys(VKC_KEY_U32, keys, n, 5, 0);
    for (int failing_write = 0; failing_write <= 1; ++failing_write) {
      Streams streams;
      init_streams(&streams, bytes);
      Stream in = stream(&streams, keys, bytes), out = stream(&streams, output, bytes);
      Stream* failing = failing_write ? &out : &in;
      failing->fail_with = 7;
      failing->fail_from = n == 1000 ? 0 : 1; /* the large array's later pieces go to workers */
      CHECK_FAILS(vkc_sort_streamed(context, VKC_KEY_U32, read_stream, &in, write_stream, &out, n, NULL),
                  VKC_ERROR_CALLBACK, "vkc_sort_streamed");
      CHECK(strstr(vkc_last_error(), failing_write ? "write_keys" : "read_keys") != NULL);
    }
    CHECK_OK(vkc_sort_to(context, VKC_KEY_U32, keys, output, n, NULL));
    uint32_t* expected = checked_malloc(bytes);
    reference_sort(VKC_KEY_U32, keys, expected, n, 0);
    CHECK(memcmp(output, expected, bytes) == 0);
    free(expected);
    free(keys);
    free(output);
  }
  /* argsort's index writer failing on a worker thread. */
  const size_t n = STREAMED;
  uint32_t* keys = checked_malloc(4 * n);
  uint32_t* indices = checked_malloc(4 * n);
  fill_keys(VKC_KEY_U32, keys, n, 6, 0);
  Streams streams;
  init_streams(&streams, 4 * n);
  Stream in = stream(&streams, keys, 4 * n), out = stream(&streams, indices, 4 * n);
  out.fail_with = -3;
  out.fail_from = 1;
  CHECK_FAILS(vkc_argsort_streamed(context, VKC_KEY_U32, read_stream, &in, write_stream, &out, n, NULL),
              VKC_ERROR_CALLBACK, "vkc_argsort_streamed");
  CHECK(strstr(vkc_last_error(), "-3") != NULL);
  free(keys);
  free(indices);
}
