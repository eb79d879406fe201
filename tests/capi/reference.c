/* The reference order of the tests, written from the contract in vkc.h: qsort for keys alone, a
 * merge sort for the stable permutation. Nothing here calls the library. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

const vkc_key_type all_key_types[KEY_TYPES] = {VKC_KEY_U32, VKC_KEY_I32, VKC_KEY_F32, VKC_KEY_U64,
                                               VKC_KEY_I64, VKC_KEY_F64, VKC_KEY_U8,  VKC_KEY_I8,
                                               VKC_KEY_U16, VKC_KEY_I16, VKC_KEY_F16, VKC_KEY_BF16};

const char* key_type_name(vkc_key_type type) {
  static const char* const names[] = {"u32", "i32", "f32", "u64", "i64", "f64",
                                      "u8",  "i8",  "u16", "i16", "f16", "bf16"};
  return names[type];
}

size_t key_size(vkc_key_type type) {
  switch (type) {
    case VKC_KEY_U8: case VKC_KEY_I8: return 1;
    case VKC_KEY_U16: case VKC_KEY_I16: case VKC_KEY_F16: case VKC_KEY_BF16: return 2;
    case VKC_KEY_U32: case VKC_KEY_I32: case VKC_KEY_F32: return 4;
    case VKC_KEY_U64: case VKC_KEY_I64: case VKC_KEY_F64: return 8;
  }
  return 0;
}

int is_float_key(vkc_key_type type) {
  return type == VKC_KEY_F32 || type == VKC_KEY_F64 || type == VKC_KEY_F16 || type == VKC_KEY_BF16;
}

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
static const uint16_t special_f16[] = {0x7e00u, 0xfe00u, 0x7e01u, 0x8000u, 0x0000u, 0x7c00u,
                                       0xfc00u, 0x0001u, 0x8001u, 0x7bffu, 0xfbffu};
static const uint16_t special_bf16[] = {0x7fc0u, 0xffc0u, 0x7fc1u, 0x8000u, 0x0000u, 0x7f80u,
                                        0xff80u, 0x0001u, 0x8001u, 0x7f7fu, 0xff7fu};
enum { SPECIALS = sizeof special_f32 / sizeof special_f32[0] };
/* Few distinct 16-bit floats (1.5, -2, +-0, 3.25 and the most negative finite one). */
static const uint16_t few_f16[] = {0x3e00u, 0xc000u, 0x0000u, 0x8000u, 0x4280u, 0xfbffu};
static const uint16_t few_bf16[] = {0x3fc0u, 0xc000u, 0x0000u, 0x8000u, 0x4050u, 0xff7fu};

/* A 16-bit float's bits: a special pattern one time in eight, else any pattern (every class of
 * value turns up: subnormals, NaNs of every payload), or one of six with few_values. */
static uint16_t random_half(uint64_t r, int special, int few_values, const uint16_t* specials, const uint16_t* few) {
  if (special) return specials[r % SPECIALS];
  return few_values ? few[r % 6] : (uint16_t)r;
}

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
      case VKC_KEY_U8: ((uint8_t*)keys)[i] = few_values ? (uint8_t)(r % 7) : (uint8_t)r; break;
      case VKC_KEY_I8: ((int8_t*)keys)[i] = (int8_t)(few_values ? (int)(r % 7) - 3 : (int)(r % 256) - 128); break;
      case VKC_KEY_U16: ((uint16_t*)keys)[i] = few_values ? (uint16_t)(r % 7) : (uint16_t)r; break;
      case VKC_KEY_I16: ((int16_t*)keys)[i] = (int16_t)(few_values ? (int32_t)(r % 7) - 3 : (int32_t)(r % 65536) - 32768); break;
      case VKC_KEY_F16: ((uint16_t*)keys)[i] = random_half(r, special, few_values, special_f16, few_f16); break;
      case VKC_KEY_BF16: ((uint16_t*)keys)[i] = random_half(r, special, few_values, special_bf16, few_bf16); break;
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

/* IEEE 754 binary16 bits as a double (exact), by the format's definition. */
double f16_value(uint16_t bits) {
  const int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
  double magnitude;
  if (exponent == 0x1f) magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0) magnitude = ldexp(mantissa, -24); /* subnormal */
  else magnitude = ldexp(mantissa | 0x400, exponent - 25);
  return bits & 0x8000u ? -magnitude : magnitude;
}

/* bfloat16 bits as a double (exact): the upper half of a binary32. */
double bf16_value(uint16_t bits) {
  const uint32_t wide = (uint32_t)bits << 16;
  float value;
  memcpy(&value, &wide, 4);
  return value;
}

static int compare_halves(double (*value)(uint16_t), const void* a, const void* b, int descending) {
  uint16_t xb, yb;
  memcpy(&xb, a, 2), memcpy(&yb, b, 2);
  const double x = value(xb), y = value(yb);
  return compare_floats(x, y, isnan(x), isnan(y), xb & 0x7fffu, yb & 0x7fffu, descending);
}

int compare_keys(vkc_key_type type, const void* a, const void* b, int descending) {
  int c = 0;
  switch (type) {
    case VKC_KEY_U8: c = compare_u64(*(const uint8_t*)a, *(const uint8_t*)b); break;
    case VKC_KEY_I8: c = compare_i64(*(const int8_t*)a, *(const int8_t*)b); break;
    case VKC_KEY_U16: c = compare_u64(*(const uint16_t*)a, *(const uint16_t*)b); break;
    case VKC_KEY_I16: c = compare_i64(*(const int16_t*)a, *(const int16_t*)b); break;
    case VKC_KEY_F16: return compare_halves(f16_value, a, b, descending);
    case VKC_KEY_BF16: return compare_halves(bf16_value, a, b, descending);
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
    if (type == VKC_KEY_F16 && isnan(f16_value(((uint16_t*)keys)[i]))) ((uint16_t*)keys)[i] &= 0x7fffu;
    if (type == VKC_KEY_BF16 && isnan(bf16_value(((uint16_t*)keys)[i]))) ((uint16_t*)keys)[i] &= 0x7fffu;
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

/* What the stable merge sort compares: keys of a type, whole or under a bit range. */
typedef struct {
  vkc_key_type type;
  const unsigned char* keys;
  int descending;
  int ranged; /* compare the masked ordered images (reference_argsort_bits) */
  uint32_t begin_bit, end_bit;
} ordering;

static int compare_at(const ordering* o, uint64_t i, uint64_t j) {
  const size_t size = key_size(o->type);
  const void *a = o->keys + i * size, *b = o->keys + j * size;
  if (!o->ranged) return compare_keys(o->type, a, b, o->descending);
  return compare_u64(ordered_bits(o->type, a, o->descending, o->begin_bit, o->end_bit),
                     ordered_bits(o->type, b, o->descending, o->begin_bit, o->end_bit));
}

static void stable_permutation(const ordering* o, uint64_t* permutation, size_t count);

void reference_argsort(vkc_key_type type, const void* keys, uint64_t* permutation, size_t count, int descending) {
  const ordering o = {type, keys, descending, 0, 0, 0};
  stable_permutation(&o, permutation, count);
}

void reference_argsort_bits(vkc_key_type type, const void* keys, uint64_t* permutation, size_t count, int descending,
                            uint32_t begin_bit, uint32_t end_bit) {
  const ordering o = {type, keys, descending, 1, begin_bit, end_bit};
  stable_permutation(&o, permutation, count);
}

/* The bits of a key as an unsigned number of its width. */
static uint64_t raw_bits(vkc_key_type type, const void* key) {
  uint8_t b8;
  uint16_t b16;
  uint32_t b32;
  uint64_t b64;
  switch (key_size(type)) {
    case 1: memcpy(&b8, key, 1); return b8;
    case 2: memcpy(&b16, key, 2); return b16;
    case 4: memcpy(&b32, key, 4); return b32;
    default: memcpy(&b64, key, 8); return b64;
  }
}

static int key_is_nan(vkc_key_type type, const void* key) {
  const uint64_t bits = raw_bits(type, key);
  switch (type) {
    case VKC_KEY_F16: return isnan(f16_value((uint16_t)bits));
    case VKC_KEY_BF16: return isnan(bf16_value((uint16_t)bits));
    case VKC_KEY_F32: {
      float value;
      memcpy(&value, key, 4);
      return isnan(value);
    }
    case VKC_KEY_F64: {
      double value;
      memcpy(&value, key, 8);
      return isnan(value);
    }
    default: return 0;
  }
}

uint64_t ordered_bits(vkc_key_type type, const void* key, int descending, uint32_t begin_bit, uint32_t end_bit) {
  const unsigned width = (unsigned)key_size(type) * 8;
  const uint64_t all = width == 64 ? ~(uint64_t)0 : ((uint64_t)1 << width) - 1, sign = (uint64_t)1 << (width - 1);
  const uint64_t bits = raw_bits(type, key);
  const int nan = key_is_nan(type, key);
  uint64_t image = bits;
  if (is_float_key(type)) image = nan ? bits | sign : (bits & sign) ? ~bits & all : bits | sign;
  else if (type == VKC_KEY_I8 || type == VKC_KEY_I16 || type == VKC_KEY_I32 || type == VKC_KEY_I64) image = bits ^ sign;
  if (descending && !nan) image = ~image & all;
  if (end_bit > width) end_bit = width;
  if (begin_bit >= end_bit) return 0;
  const uint64_t below_end = end_bit == 64 ? ~(uint64_t)0 : ((uint64_t)1 << end_bit) - 1;
  return image & below_end & ~(((uint64_t)1 << begin_bit) - 1);
}

static void stable_permutation(const ordering* o, uint64_t* permutation, size_t count) {
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
        const int c = compare_at(o, permutation[j], permutation[i]);
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
