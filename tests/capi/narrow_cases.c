/* The 8- and 16-bit key types (u8 i8 u16 i16 f16 bf16) and bit ranges (vkc_sort_options_set_bits),
 * against the reference of reference.c. (EveryKeyType and ArgsortStability take the new types
 * through all_key_types too.) */
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

static const vkc_key_type narrow_types[] = {VKC_KEY_U8, VKC_KEY_I8, VKC_KEY_U16, VKC_KEY_I16, VKC_KEY_F16, VKC_KEY_BF16};
enum { NARROW_TYPES = sizeof narrow_types / sizeof narrow_types[0] };

static const vkc_sort_algorithm every_algorithm[] = {VKC_ALGORITHM_AUTO, VKC_ALGORITHM_BITONIC,
                                                     VKC_ALGORITHM_BITONIC_TRANSPOSE, VKC_ALGORITHM_ODD_EVEN,
                                                     VKC_ALGORITHM_RADIX};
enum { ALGORITHMS = sizeof every_algorithm / sizeof every_algorithm[0] };

/* Shuffles `count` elements of `size` bytes in place (Fisher-Yates). */
static void shuffle(void* elements, size_t count, size_t size, uint64_t seed) {
  unsigned char* bytes = elements;
  unsigned char swap[8];
  uint64_t state = seed;
  for (size_t i = count; i > 1; --i) {
    const size_t j = (size_t)(next_random(&state) % i);
    memcpy(swap, bytes + (i - 1) * size, size);
    memcpy(bytes + (i - 1) * size, bytes + j * size, size);
    memcpy(bytes + j * size, swap, size);
  }
}

/* Sorts `input` (n keys) into a new array and checks it, ascending and descending. */
static void check_sorts(vkc_context* context, vkc_key_type type, const void* input, size_t n,
                        vkc_sort_algorithm algorithm, const char* what) {
  void* keys = checked_malloc(n * key_size(type));
  for (int descending = 0; descending <= 1; ++descending) {
    vkc_sort_options* options = sort_options(algorithm, descending ? VKC_ORDER_DESCENDING : VKC_ORDER_ASCENDING);
    CHECK_OK(vkc_sort_to(context, type, input, keys, n, options));
    CHECK(expect_sorted(type, input, keys, n, descending, what));
    vkc_sort_options_destroy(options);
  }
  free(keys);
}

/* Both argsort forms of `keys`, both orders, against the stable permutation. */
static void check_argsorts(vkc_context* context, vkc_key_type type, const void* keys, size_t n, const char* what) {
  uint32_t* indices = checked_malloc(n * sizeof *indices);
  uint64_t* indices64 = checked_malloc(n * sizeof *indices64);
  for (int descending = 0; descending <= 1; ++descending) {
    vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, descending ? VKC_ORDER_DESCENDING : VKC_ORDER_ASCENDING);
    CHECK_OK(vkc_argsort(context, type, keys, n, indices, options));
    CHECK(expect_stable_permutation(type, keys, indices, 4, n, descending, what));
    CHECK_OK(vkc_argsort64(context, type, keys, n, indices64, options));
    CHECK(expect_stable_permutation(type, keys, indices64, 8, n, descending, what));
    vkc_sort_options_destroy(options);
  }
  free(indices);
  free(indices64);
}

void case_narrow_keys_every_algorithm(void) {
  vkc_context* context = test_context();
  static const size_t counts[] = {3, 1000, 5001};
  for (int t = 0; t < NARROW_TYPES; ++t) {
    for (int c = 0; c < 3; ++c) {
      const size_t n = counts[c];
      void* input = checked_malloc(n * key_size(narrow_types[t]));
      fill_keys(narrow_types[t], input, n, 17 * t + c, 0);
      for (int a = 0; a < ALGORITHMS; ++a) check_sorts(context, narrow_types[t], input, n, every_algorithm[a], "vkc_sort_to");
      free(input);
    }
  }
}

void case_narrow_pairs(void) {
  vkc_context* context = test_context();
  for (int t = 0; t < NARROW_TYPES; ++t) {
    const vkc_key_type type = narrow_types[t];
    check_pairs(context, type, VKC_VALUE_U32, 1000, VKC_ALGORITHM_AUTO, 0);
    check_pairs(context, type, VKC_VALUE_U64, 1000, VKC_ALGORITHM_BITONIC, 1);
    check_pairs(context, type, VKC_VALUE_U32, 100003, VKC_ALGORITHM_RADIX, 1);
    check_pairs(context, type, VKC_VALUE_U64, 100003, VKC_ALGORITHM_RADIX, 0);
    check_pairs(context, type, VKC_VALUE_U32, 999, VKC_ALGORITHM_ODD_EVEN, 0);
  }
}

/* Every f16 and bf16 bit pattern (each NaN payload and sign, +-0, +-inf, subnormals), shuffled:
 * sorted, and argsorted (every NaN pair of equal payloads tests stability); every u8 and i8
 * value 300 times over, argsorted (long runs of equal keys). */
void case_every_narrow_value(void) {
  vkc_context* context = test_context();
  const size_t patterns = 65536;
  uint16_t* halves = checked_malloc(patterns * sizeof *halves);
  static const vkc_key_type half_types[] = {VKC_KEY_F16, VKC_KEY_BF16};
  for (int t = 0; t < 2; ++t) {
    for (size_t i = 0; i < patterns; ++i) halves[i] = (uint16_t)i;
    shuffle(halves, patterns, 2, 1000 + t);
    check_sorts(context, half_types[t], halves, patterns, VKC_ALGORITHM_AUTO, "every 16-bit pattern");
    check_sorts(context, half_types[t], halves, patterns, VKC_ALGORITHM_BITONIC, "every 16-bit pattern (bitonic)");
    check_argsorts(context, half_types[t], halves, patterns, "every 16-bit pattern");
  }
  free(halves);
  const size_t repeats = 300, n = 256 * repeats;
  uint8_t* bytes = checked_malloc(n);
  for (size_t i = 0; i < n; ++i) bytes[i] = (uint8_t)i;
  shuffle(bytes, n, 1, 77);
  check_argsorts(context, VKC_KEY_U8, bytes, n, "every byte, 300 times");
  check_argsorts(context, VKC_KEY_I8, bytes, n, "every byte, 300 times");
  check_sorts(context, VKC_KEY_I8, bytes, n, VKC_ALGORITHM_AUTO, "every byte, 300 times");
  free(bytes);
}

/* ---- Bit ranges */

/* `keys` permuted by `permutation`, NaN signs cleared: what a stable sort must write. */
static void *permuted_keys(vkc_key_type type, const void* keys, const uint64_t* permutation, size_t n) {
  const size_t size = key_size(type);
  unsigned char* out = checked_malloc(n * size);
  for (size_t i = 0; i < n; ++i) memcpy(out + i * size, (const unsigned char*)keys + permutation[i] * size, size);
  clear_nan_signs(type, out, n);
  return out;
}

/* One range of one type in one order: argsort, keys alone and pairs, each against the stable
 * order of the masked ordered images. */
static void check_bit_range(vkc_context* context, vkc_key_type type, const void* input, size_t n, int descending,
                            uint32_t begin_bit, uint32_t end_bit) {
  const size_t size = key_size(type);
  uint64_t* expected = checked_malloc(n * sizeof *expected);
  uint64_t* indices = checked_malloc(n * sizeof *indices);
  void* keys = checked_malloc(n * size);
  reference_argsort_bits(type, input, expected, n, descending, begin_bit, end_bit);
  void* expected_keys = permuted_keys(type, input, expected, n);
  vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, descending ? VKC_ORDER_DESCENDING : VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_sort_options_set_bits(options, begin_bit, end_bit));
  char what[96];
  snprintf(what, sizeof what, "%s keys, bits [%u, %u), %s", key_type_name(type), begin_bit, end_bit,
           descending ? "descending" : "ascending");
  CHECK_OK(vkc_argsort64(context, type, input, n, indices, options));
  long at = first_difference(indices, expected, n, sizeof *indices);
  if (at >= 0) fprintf(stderr, "vkc_argsort64 of %s: index %ld is not the reference's\n", what, at);
  CHECK(at < 0);
  CHECK_OK(vkc_sort_to(context, type, input, keys, n, options));
  at = first_difference(keys, expected_keys, n, size);
  if (at >= 0) fprintf(stderr, "vkc_sort_to of %s: key %ld is not the reference's\n", what, at);
  CHECK(at < 0);
  /* Pairs by radix: with the whole key, auto may pick bitonic, which is not stable. */
  for (size_t i = 0; i < n; ++i) indices[i] = i;
  memcpy(keys, input, n * size);
  CHECK_OK(vkc_sort_options_set_algorithm(options, VKC_ALGORITHM_RADIX));
  CHECK_OK(vkc_sort_pairs(context, type, keys, VKC_VALUE_U64, indices, n, options));
  at = first_difference(indices, expected, n, sizeof *indices);
  if (at >= 0) fprintf(stderr, "vkc_sort_pairs of %s: value %ld is not the reference's\n", what, at);
  CHECK(at < 0);
  vkc_sort_options_destroy(options);
  free(expected);
  free(expected_keys);
  free(indices);
  free(keys);
}

/* Ranges that cut inside a digit, take the sign bit alone, the low half, are empty, the whole
 * key, or run from the middle to "every bit" (UINT32_MAX); on every key type, both orders. */
void case_bit_ranges(void) {
  vkc_context* context = test_context();
  const size_t n = 3001;
  for (int t = 0; t < KEY_TYPES; ++t) {
    const vkc_key_type type = all_key_types[t];
    const uint32_t width = (uint32_t)key_size(type) * 8;
    const uint32_t ranges[][2] = {{3, width - 3}, {width - 1, width}, {0, width / 2}, {5, 5},
                                  {0, width},     {width / 2 + 1, UINT32_MAX}, {width, UINT32_MAX}};
    void* input = checked_malloc(n * key_size(type));
    fill_keys(type, input, n, 500 + t, 0);
    for (int r = 0; r < (int)(sizeof ranges / sizeof ranges[0]); ++r) {
      for (int descending = 0; descending <= 1; ++descending) {
        check_bit_range(context, type, input, n, descending, ranges[r][0], ranges[r][1]);
      }
    }
    free(input);
  }
}
