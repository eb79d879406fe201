/* The reference order of the tests, written from the contract in vkc.h: qsort for keys alone, a
 * merge sort for the stable permutation. Nothing here calls the library. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

const vkc_key_type all_key_types[KEY_TYPES] = {VKC_KEY_U32, VKC_KEY_I32, VKC_KEY_F32,
                                               VKC_KEY_U64, VKC_KEY_I64, VKC_KEY_F64};

const char* key_type_name(vkc_key_type type) {
  static const char* const names[] = {"u32", "i32", "f32", "u64", "i64", "f64"};
  return names[type];
}

size_t key_size(vkc_key_type type) { return type == VKC_KEY_U64 || type == VKC_KEY_I64 || type == VKC_KEY_F64 ? 8 : 4; }

void* checked_malloc(size_t bytes) {
  void* memory = malloc(bytes ? bytes : 1);
  if (!memory) {
    fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
    abort();
  }
  return memory;
}

uint64_t next_random(uint64_t* state) {
  uint64_t x = *state ? *state : 0x9e3779b97f4a7c15u;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return x * 0x2545f4914f6cdd1du;
}

/* Bit patterns worth sorting: NaNs of two payloads and both signs, zeros, infinities,
 * subnormals, the extremes. */
static const uint32_t special_f32[] = {0x7fc00000u, 0xffc00000u, 0x7fc00001u, 0x80000000u, 0x00000000u, 0x7f800000u,
                                       0xff800000u, 0x00000001u, 0x80000001u, 0x7f7fffffu, 0xff7fffffu};
static const uint64_t special_f64[] = {0x7ff8000000000000u, 0xfff8000000000000u, 0x7ff8000000000001u,
                                       0x8000000000000000u, 0x0000000000000000u, 0x7ff0000000000000u,
                                       0xfff0000000000000u, 0x0000000000000001u, 0x8000000000000001u,
                                       0x7fefffffffffffffu, 0xffefffffffffffffu};
enum { SPECIALS = sizeof special_f32 / sizeof special_f32[0] };

/* A float of either width: a special pattern one time in eight, else a value in [-1000, 1000]
 * with three decimals (so equal values recur); with few_values, one of six. */
static double random_value(uint64_t r, int few_values) {
  static const double few[] = {1.5, -2.0, 0.0, -0.0, 3.25, -1e30};
  if (few_values) return few[r % 6];
  return (double)((int64_t)(r % 2000001) - 1000000) / 1000.0;
}

void fill_keys(vkc_key_type type, void* keys, size_t count, uint64_t seed, int few_values) {
  uint64_t state = seed * 0x9e3779b97f4a7c15u + 1;
  for (size_t i = 0; i < count; ++i) {
    const uint64_t r = next_random(&state);
    const int special = (r >> 56) % 8 == 0;
    switch (type) {
      case VKC_KEY_U32: ((uint32_t*)keys)[i] = few_values ? (uint32_t)(r % 7) : (uint32_t)r; break;
      case VKC_KEY_I32: ((int32_t*)keys)[i] = few_values ? (int32_t)(r % 7) - 3 : (int32_t)(uint32_t)r; break;
      case VKC_KEY_U64: ((uint64_t*)keys)[i] = few_values ? r % 7 : r; break;
      case VKC_KEY_I64: ((int64_t*)keys)[i] = few_values ? (int64_t)(r % 7) - 3 : (int64_t)r; break;
      case VKC_KEY_F32: {
        const float value = (float)random_value(r, few_values);
        if (special) memcpy((uint32_t*)keys + i, &special_f32[r % SPECIALS], 4);
        else memcpy((float*)keys + i, &value, 4);
        break;
      }
      case VKC_KEY_F64: {
        const double value = random_value(r, few_values);
        if (special) memcpy((uint64_t*)keys + i, &special_f64[r % SPECIALS], 8);
        else memcpy((double*)keys + i, &value, 8);
        break;
      }
    }
  }
}

static int compare_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }
static int compare_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

/* Two floats that are not NaN: by value, -0.0 before +0.0. */
static int compare_numbers(double a, double b) {
  if (a != b) return a < b ? -1 : 1;
  return (signbit(b) != 0) - (signbit(a) != 0);
}

/* Floats, of which `a_nan`/`b_nan` say which are NaN, and their bits with the sign cleared. */
static int compare_floats(double a, double b, int a_nan, int b_nan, uint64_t a_magnitude, uint64_t b_magnitude,
                          int descending) {
  if (a_nan || b_nan) return a_nan && b_nan ? compare_u64(a_magnitude, b_magnitude) : a_nan ? 1 : -1;
  return descending ? -compare_numbers(a, b) : compare_numbers(a, b);
}

int compare_keys(vkc_key_type type, const void* a, const void* b, int descending) {
  int c = 0;
  switch (type) {
    case VKC_KEY_U32: c = compare_u64(*(const uint32_t*)a, *(const uint32_t*)b); break;
    case VKC_KEY_I32: c = compare_i64(*(const int32_t*)a, *(const int32_t*)b); break;
    case VKC_KEY_U64: c = compare_u64(*(const uint64_t*)a, *(const uint64_t*)b); break;
    case VKC_KEY_I64: c = compare_i64(*(const int64_t*)a, *(const int64_t*)b); break;
    case VKC_KEY_F32: {
      float x, y;
      uint32_t xb, yb;
      memcpy(&x, a, 4), memcpy(&y, b, 4), memcpy(&xb, a, 4), memcpy(&yb, b, 4);
      return compare_floats(x, y, isnan(x), isnan(y), xb & 0x7fffffffu, yb & 0x7fffffffu, descending);
    }
    case VKC_KEY_F64: {
      double x, y;
      uint64_t xb, yb;
      memcpy(&x, a, 8), memcpy(&y, b, 8), memcpy(&xb, a, 8), memcpy(&yb, b, 8);
      const uint64_t magnitude = 0x7fffffffffffffffu;
      return compare_floats(x, y, isnan(x), isnan(y), xb & magnitude, yb & magnitude, descending);
    }
  }
  return descending ? -c : c;
}

/* qsort has no argument for the comparator: the type and order of the sort in progress. */
static vkc_key_type qsort_type;
static int qsort_descending;
static int qsort_compare(const void* a, const void* b) { return compare_keys(qsort_type, a, b, qsort_descending); }

void clear_nan_signs(vkc_key_type type, void* keys, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (type == VKC_KEY_F32 && isnan(((float*)keys)[i])) ((uint32_t*)keys)[i] &= 0x7fffffffu;
    if (type == VKC_KEY_F64 && isnan(((double*)keys)[i])) ((uint64_t*)keys)[i] &= 0x7fffffffffffffffu;
  }
}

void reference_sort(vkc_key_type type, const void* keys, void* sorted, size_t count, int descending) {
  if (count == 0) return;
  memcpy(sorted, keys, count * key_size(type));
  qsort_type = type;
  qsort_descending = descending;
  qsort(sorted, count, key_size(type), qsort_compare);
  clear_nan_signs(type, sorted, count);
}

void reference_argsort(vkc_key_type type, const void* keys, uint64_t* permutation, size_t count, int descending) {
  const unsigned char* bytes = keys;
  const size_t size = key_size(type);
  uint64_t* scratch = checked_malloc(count * sizeof *scratch);
  for (size_t i = 0; i < count; ++i) permutation[i] = i;
  /* Bottom-up merge sort: on a tie the left run's element goes first, so equal keys keep their
   * input order. */
  for (size_t width = 1; width < count; width *= 2) {
    for (size_t left = 0; left < count; left += 2 * width) {
      const size_t middle = left + width < count ? left + width : count;
      const size_t right = left + 2 * width < count ? left + 2 * width : count;
      size_t i = left, j = middle, out = left;
      while (i < middle && j < right) {
        const int c = compare_keys(type, bytes + permutation[j] * size, bytes + permutation[i] * size, descending);
        scratch[out++] = c < 0 ? permutation[j++] : permutation[i++];
      }
      while (i < middle) scratch[out++] = permutation[i++];
      while (j < right) scratch[out++] = permutation[j++];
    }
    memcpy(permutation, scratch, count * sizeof *scratch);
  }
  free(scratch);
}

long first_difference(const void* a, const void* b, size_t count, size_t element_size) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < count; ++i) {
    if (memcmp(x + i * element_size, y + i * element_size, element_size) != 0) return (long)i;
  }
  return -1;
}

vkc_sort_options* sort_options(vkc_sort_algorithm algorithm, vkc_sort_order order) {
  vkc_sort_options* options = NULL;
  CHECK_OK(vkc_sort_options_create(&options));
  CHECK_OK(vkc_sort_options_set_algorithm(options, algorithm));
  CHECK_OK(vkc_sort_options_set_order(options, order));
  return options;
}
