/* Sorting host arrays: every key type and order, the _to forms, pairs, argsort, the float
 * order's edges, against the reference of reference.c. */
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

static const uint64_t sizes[] = {0, 1, 2, 1000, 100003};
enum { SIZES = sizeof sizes / sizeof sizes[0] };

int expect_sorted(vkc_key_type type, const void* input, const void* output, size_t count, int descending,
                         const char* what) {
  void* expected = checked_malloc(count * key_size(type));
  reference_sort(type, input, expected, count, descending);
  const long at = first_difference(expected, output, count, key_size(type));
  if (at >= 0) {
    fprintf(stderr, "%s: %s keys, %zu of them, %s: wrong key at %ld\n", what, key_type_name(type), count,
            descending ? "descending" : "ascending", at);
  }
  free(expected);
  return at < 0;
}

int expect_stable_permutation(vkc_key_type type, const void* keys, const void* permutation, size_t index_size,
                                     size_t count, int descending, const char* what) {
  uint64_t* expected = checked_malloc(count * sizeof *expected);
  reference_argsort(type, keys, expected, count, descending);
  long at = -1;
  for (size_t i = 0; i < count && at < 0; ++i) {
    const uint64_t got = index_size == 4 ? ((const uint32_t*)permutation)[i] : ((const uint64_t*)permutation)[i];
    if (got != expected[i]) at = (long)i;
  }
  if (at >= 0) {
    fprintf(stderr, "%s: %s keys, %zu of them, %s: index %ld is not the stable permutation's\n", what,
            key_type_name(type), count, descending ? "descending" : "ascending", at);
  }
  free(expected);
  return at < 0;
}

void case_every_key_type(void) {
  vkc_context* context = test_context();
  for (int t = 0; t < KEY_TYPES; ++t) {
    const vkc_key_type type = all_key_types[t];
    for (int descending = 0; descending <= 1; ++descending) {
      vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, descending ? VKC_ORDER_DESCENDING : VKC_ORDER_ASCENDING);
      for (int s = 0; s < SIZES; ++s) {
        const size_t n = sizes[s], bytes = n * key_size(type);
        void* input = checked_malloc(bytes);
        void* keys = checked_malloc(bytes);
        fill_keys(type, input, n, 100 * t + 10 * s + descending, 0);
        memcpy(keys, input, bytes);
        CHECK_OK(vkc_sort(context, type, n ? keys : NULL, n, options));
        CHECK(expect_sorted(type, input, keys, n, descending, "vkc_sort"));
        free(input);
        free(keys);
      }
      vkc_sort_options_destroy(options);
    }
  }
}

void case_every_algorithm(void) {
  static const vkc_sort_algorithm algorithms[] = {VKC_ALGORITHM_BITONIC, VKC_ALGORITHM_BITONIC_TRANSPOSE,
                                                  VKC_ALGORITHM_ODD_EVEN, VKC_ALGORITHM_RADIX};
  static const vkc_key_type types[] = {VKC_KEY_I32, VKC_KEY_F64};
  vkc_context* context = test_context();
  const size_t n = 1000;
  for (int a = 0; a < 4; ++a) {
    for (int t = 0; t < 2; ++t) {
      vkc_sort_options* options = sort_options(algorithms[a], VKC_ORDER_DESCENDING);
      void* input = checked_malloc(n * 8);
      void* keys = checked_malloc(n * 8);
      fill_keys(types[t], input, n, 7 + a, 0);
      CHECK_OK(vkc_sort_to(context, types[t], input, keys, n, options));
      CHECK(expect_sorted(types[t], input, keys, n, 1, "vkc_sort_to with an algorithm"));
      free(input);
      free(keys);
      vkc_sort_options_destroy(options);
    }
  }
}

void case_sort_to(void) {
  vkc_context* context = test_context();
  static const vkc_key_type types[] = {VKC_KEY_F32, VKC_KEY_I64, VKC_KEY_U32};
  for (int t = 0; t < 3; ++t) {
    for (int s = 3; s < SIZES; ++s) {
      const vkc_key_type type = types[t];
      const size_t n = sizes[s], bytes = n * key_size(type);
      void* input = checked_malloc(bytes);
      void* copy = checked_malloc(bytes);
      void* sorted = checked_malloc(bytes);
      fill_keys(type, input, n, 31 * t + s, 0);
      memcpy(copy, input, bytes);
      CHECK_OK(vkc_sort_to(context, type, input, sorted, n, NULL));
      CHECK(memcmp(input, copy, bytes) == 0); /* only read */
      CHECK(expect_sorted(type, copy, sorted, n, 0, "vkc_sort_to"));
      /* The same array for both: sorted in place. */
      CHECK_OK(vkc_sort_to(context, type, input, input, n, NULL));
      CHECK(expect_sorted(type, copy, input, n, 0, "vkc_sort_to in place"));
      free(input);
      free(copy);
      free(sorted);
    }
  }
  CHECK_OK(vkc_sort_to(context, VKC_KEY_U32, NULL, NULL, 0, NULL));
}

/* Pinned memory as input, output and both (sorted in place), then freed; freeing a pointer the
 * context did not give fails, NULL does nothing. */
void case_pinned_memory(void) {
  vkc_context* context = test_context();
  const size_t n = 100003, bytes = n * sizeof(uint32_t);
  uint32_t* input = checked_malloc(bytes);
  uint32_t* sorted = checked_malloc(bytes);
  void* pinned = NULL;
  fill_keys(VKC_KEY_U32, input, n, 7, 0);
  CHECK_OK(vkc_pinned_alloc(context, bytes, &pinned));
  CHECK(pinned != NULL);
  CHECK_OK(vkc_sort_to(context, VKC_KEY_U32, input, pinned, n, NULL));
  CHECK(expect_sorted(VKC_KEY_U32, input, pinned, n, 0, "vkc_sort_to into pinned memory"));
  memcpy(pinned, input, bytes);
  CHECK_OK(vkc_sort_to(context, VKC_KEY_U32, pinned, sorted, n, NULL));
  CHECK(expect_sorted(VKC_KEY_U32, input, sorted, n, 0, "vkc_sort_to from pinned memory"));
  CHECK_OK(vkc_sort(context, VKC_KEY_U32, pinned, n, NULL));
  CHECK(expect_sorted(VKC_KEY_U32, input, pinned, n, 0, "vkc_sort in pinned memory"));
  CHECK_OK(vkc_pinned_free(context, pinned));
  CHECK_FAILS(vkc_pinned_free(context, pinned), VKC_ERROR_INVALID_ARGUMENT, "vkc_pinned_free");
  CHECK_FAILS(vkc_pinned_free(context, input), VKC_ERROR_INVALID_ARGUMENT, "vkc_pinned_free");
  CHECK_OK(vkc_pinned_free(context, NULL));
  CHECK_FAILS(vkc_pinned_alloc(NULL, 4, &pinned), VKC_ERROR_INVALID_ARGUMENT, "vkc_pinned_alloc");
  CHECK_FAILS(vkc_pinned_alloc(context, 4, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_pinned_alloc");
  free(input);
  free(sorted);
}

/* Values are the keys' input positions, so each output pair can be traced to its input. */
static void fill_positions(vkc_value_type type, void* values, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (type == VKC_VALUE_U32) ((uint32_t*)values)[i] = (uint32_t)i;
    else ((uint64_t*)values)[i] = i;
  }
}

/* Whether every output key came with its own value (the value is its input position), each
 * input once: true of any sort, stable or not. */
static int expect_keys_with_their_values(vkc_key_type type, const void* input, const void* keys, vkc_value_type value_type,
                                         const void* values, size_t count) {
  const size_t size = key_size(type);
  unsigned char* seen = calloc(count ? count : 1, 1);
  unsigned char* traced = checked_malloc(size);
  int ok = 1;
  for (size_t i = 0; i < count && ok; ++i) {
    const uint64_t from = value_type == VKC_VALUE_U32 ? ((const uint32_t*)values)[i] : ((const uint64_t*)values)[i];
    if (from >= count || seen[from]) {
      ok = 0;
      break;
    }
    seen[from] = 1;
    memcpy(traced, (const unsigned char*)input + from * size, size);
    clear_nan_signs(type, traced, 1);
    ok = memcmp(traced, (const unsigned char*)keys + i * size, size) == 0;
  }
  free(seen);
  free(traced);
  return ok;
}

void check_pairs(vkc_context* context, vkc_key_type key_type, vkc_value_type value_type, size_t n,
                        vkc_sort_algorithm algorithm, int to_other_arrays) {
  const size_t key_bytes = n * key_size(key_type), value_bytes = n * (value_type == VKC_VALUE_U32 ? 4 : 8);
  void* input = checked_malloc(key_bytes);
  void* keys = checked_malloc(key_bytes);
  void* positions = checked_malloc(value_bytes);
  void* values = checked_malloc(value_bytes);
  fill_keys(key_type, input, n, n + key_type, 1);
  fill_positions(value_type, positions, n);
  vkc_sort_options* options = sort_options(algorithm, VKC_ORDER_ASCENDING);
  if (to_other_arrays) {
    CHECK_OK(vkc_sort_pairs_to(context, key_type, input, keys, value_type, positions, values, n, options));
  } else {
    memcpy(keys, input, key_bytes);
    memcpy(values, positions, value_bytes);
    CHECK_OK(vkc_sort_pairs(context, key_type, keys, value_type, values, n, options));
  }
  CHECK(expect_sorted(key_type, input, keys, n, 0, "vkc_sort_pairs"));
  CHECK(expect_keys_with_their_values(key_type, input, keys, value_type, values, n));
  if (algorithm == VKC_ALGORITHM_RADIX) {
    CHECK(expect_stable_permutation(key_type, input, values, value_type == VKC_VALUE_U32 ? 4 : 8, n, 0,
                                    "vkc_sort_pairs (radix: stable)"));
  }
  if (to_other_arrays) { /* the inputs were only read */
    void* again = checked_malloc(key_bytes);
    fill_keys(key_type, again, n, n + key_type, 1);
    CHECK(memcmp(again, input, key_bytes) == 0);
    fill_positions(value_type, values, n);
    CHECK(memcmp(values, positions, value_bytes) == 0);
    free(again);
  }
  vkc_sort_options_destroy(options);
  free(input);
  free(keys);
  free(positions);
  free(values);
}

void case_pairs(void) {
  vkc_context* context = test_context();
  check_pairs(context, VKC_KEY_F32, VKC_VALUE_U32, 1000, VKC_ALGORITHM_AUTO, 0);
  check_pairs(context, VKC_KEY_F32, VKC_VALUE_U32, 100003, VKC_ALGORITHM_RADIX, 1);
  check_pairs(context, VKC_KEY_U64, VKC_VALUE_U64, 100003, VKC_ALGORITHM_AUTO, 0);
  check_pairs(context, VKC_KEY_I32, VKC_VALUE_U64, 1000, VKC_ALGORITHM_RADIX, 1);
  check_pairs(context, VKC_KEY_F64, VKC_VALUE_U32, 1000, VKC_ALGORITHM_AUTO, 1);
  check_pairs(context, VKC_KEY_I64, VKC_VALUE_U32, 2, VKC_ALGORITHM_AUTO, 0);
  /* The same arrays for input and output. */
  uint32_t keys[] = {5, 1, 5, 0}, values[] = {0, 1, 2, 3};
  vkc_sort_options* radix = sort_options(VKC_ALGORITHM_RADIX, VKC_ORDER_DESCENDING);
  CHECK_OK(vkc_sort_pairs_to(context, VKC_KEY_U32, keys, keys, VKC_VALUE_U32, values, values, 4, radix));
  CHECK(keys[0] == 5 && keys[1] == 5 && keys[2] == 1 && keys[3] == 0);
  CHECK(values[0] == 0 && values[1] == 2 && values[2] == 1 && values[3] == 3);
  vkc_sort_options_destroy(radix);
}

void case_argsort_stability(void) {
  vkc_context* context = test_context();
  static const size_t counts[] = {1000, 100003};
  for (int t = 0; t < KEY_TYPES; ++t) {
    for (int c = 0; c < 2; ++c) {
      for (int descending = 0; descending <= 1; ++descending) {
        const vkc_key_type type = all_key_types[t];
        const size_t n = counts[c];
        void* keys = checked_malloc(n * key_size(type));
        void* copy = checked_malloc(n * key_size(type));
        uint32_t* indices = checked_malloc(n * sizeof *indices);
        uint64_t* indices64 = checked_malloc(n * sizeof *indices64);
        fill_keys(type, keys, n, 5 * t + c, 1); /* a handful of distinct keys: long runs of equals */
        memcpy(copy, keys, n * key_size(type));
        vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, descending ? VKC_ORDER_DESCENDING : VKC_ORDER_ASCENDING);
        if (c == 0) {
          CHECK_OK(vkc_argsort(context, type, keys, n, indices, options));
          CHECK(expect_stable_permutation(type, keys, indices, 4, n, descending, "vkc_argsort"));
        } else {
          CHECK_OK(vkc_argsort64(context, type, keys, n, indices64, options));
          CHECK(expect_stable_permutation(type, keys, indices64, 8, n, descending, "vkc_argsort64"));
        }
        CHECK(memcmp(keys, copy, n * key_size(type)) == 0);
        vkc_sort_options_destroy(options);
        free(keys);
        free(copy);
        free(indices);
        free(indices64);
      }
    }
  }
  /* odd_even is stable too; the 32-bit form at the larger size. */
  const size_t n = 100003;
  float* keys = checked_malloc(n * sizeof *keys);
  uint32_t* indices = checked_malloc(n * sizeof *indices);
  fill_keys(VKC_KEY_F32, keys, n, 99, 1);
  CHECK_OK(vkc_argsort(context, VKC_KEY_F32, keys, n, indices, NULL));
  CHECK(expect_stable_permutation(VKC_KEY_F32, keys, indices, 4, n, 0, "vkc_argsort"));
  vkc_sort_options* odd_even = sort_options(VKC_ALGORITHM_ODD_EVEN, VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_argsort(context, VKC_KEY_F32, keys, 1000, indices, odd_even));
  CHECK(expect_stable_permutation(VKC_KEY_F32, keys, indices, 4, 1000, 0, "vkc_argsort (odd_even)"));
  vkc_sort_options_destroy(odd_even);
  free(keys);
  free(indices);
}

/* An f32 bit pattern as the f64 of the same value; a NaN keeps its sign and low payload bits. */
static uint64_t widen(uint32_t bits) {
  float value;
  memcpy(&value, &bits, 4);
  if (value != value) return ((uint64_t)(bits >> 31) << 63) | 0x7ff8000000000000u | (bits & 0x3fffffu);
  const double wide = value;
  uint64_t wide_bits;
  memcpy(&wide_bits, &wide, 8);
  return wide_bits;
}

/* The float order's edges, spelled out by hand rather than by the reference. */
void case_nan_and_zeros(void) {
  vkc_context* context = test_context();
  const uint32_t nan = 0x7fc00000u, minus_nan = 0xffc00000u, nan_1 = 0x7fc00001u;
  const uint32_t minus_zero = 0x80000000u, zero = 0, one = 0x3f800000u, minus_one = 0xbf800000u;
  const uint32_t inf = 0x7f800000u, minus_inf = 0xff800000u;
  const uint32_t input[] = {nan_1, minus_zero, zero, minus_nan, one, minus_inf, inf, minus_zero, nan, zero, minus_one};
  const uint32_t ascending[] = {minus_inf, minus_one, minus_zero, minus_zero, zero, zero, one, inf, nan, nan, nan_1};
  const uint32_t descending[] = {inf, one, zero, zero, minus_zero, minus_zero, minus_one, minus_inf, nan, nan, nan_1};
  /* Stable: the -NaN (position 3) and the NaN (8) are equal keys once the sign is cleared. */
  const uint32_t ascending_order[] = {5, 10, 1, 7, 2, 9, 4, 6, 3, 8, 0};
  enum { N = sizeof input / sizeof input[0] };
  uint32_t keys[N], indices[N];
  vkc_sort_options* down = sort_options(VKC_ALGORITHM_AUTO, VKC_ORDER_DESCENDING);
  CHECK_OK(vkc_sort_to(context, VKC_KEY_F32, input, keys, N, NULL));
  CHECK(memcmp(keys, ascending, sizeof keys) == 0);
  CHECK_OK(vkc_sort_to(context, VKC_KEY_F32, input, keys, N, down));
  CHECK(memcmp(keys, descending, sizeof keys) == 0);
  CHECK_OK(vkc_argsort(context, VKC_KEY_F32, input, N, indices, NULL));
  CHECK(memcmp(indices, ascending_order, sizeof indices) == 0);
  /* The same in f64. */
  uint64_t wide[N], wide_keys[N], wide_expected[N];
  for (int i = 0; i < N; ++i) {
    wide[i] = widen(input[i]);
    wide_expected[i] = widen(descending[i]);
  }
  CHECK_OK(vkc_sort_to(context, VKC_KEY_F64, wide, wide_keys, N, down));
  CHECK(memcmp(wide_keys, wide_expected, sizeof wide_keys) == 0);
  vkc_sort_options_destroy(down);
}
