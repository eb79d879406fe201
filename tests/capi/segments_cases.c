/* The segmented sorts (vkc_sort_segments, vkc_sort_segments_pairs, vkc_argsort_segments and their
 * _rows forms) against the reference of reference.c applied to each segment alone: qsort for the
 * keys, the stable merge sort for the permutation. Keys outside every segment must come back as
 * they were. */
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

static const vkc_key_type segment_types[] = {VKC_KEY_U32, VKC_KEY_F32, VKC_KEY_U64};
enum { SEGMENT_TYPES = sizeof segment_types / sizeof segment_types[0] };

/* Segment i is [begins[i], ends[i]). */
typedef struct {
  uint64_t* begins;
  uint64_t* ends;
  uint64_t count;
  const char* name;
} segments;

static segments allocate_segments(uint64_t count, const char* name) {
  segments s = {checked_malloc(count * sizeof(uint64_t)), checked_malloc(count * sizeof(uint64_t)), count, name};
  return s;
}

static void free_segments(segments* s) {
  free(s->begins);
  free(s->ends);
}

/* Segments of lengths 0, 1, a few and hundreds, with gaps between some of them, over [0, n);
 * with `shuffled`, listed in an order other than their positions'. */
static segments random_segments(size_t n, uint64_t seed, int shuffled) {
  segments s = allocate_segments(n + 1, shuffled ? "random segments, shuffled" : "random segments");
  uint64_t state = seed, at = 0;
  s.count = 0;
  while (at < n) {
    const uint64_t r = next_random(&state);
    if (r % 5 == 0) at += 1 + (r >> 8) % 7; /* a gap */
    const uint64_t lengths[] = {0, 1, 2, 1 + (r >> 16) % 40, 100 + (r >> 24) % 600};
    uint64_t length = lengths[(r >> 40) % 5];
    if (at > n) at = n;
    if (length > n - at) length = n - at;
    s.begins[s.count] = at;
    s.ends[s.count] = at + length;
    ++s.count;
    at += length;
  }
  for (uint64_t i = s.count; shuffled && i > 1; --i) {
    const uint64_t j = next_random(&state) % i, b = s.begins[i - 1], e = s.ends[i - 1];
    s.begins[i - 1] = s.begins[j], s.ends[i - 1] = s.ends[j];
    s.begins[j] = b, s.ends[j] = e;
  }
  return s;
}

/* One segment of the whole array. */
static segments whole_array(size_t n) {
  segments s = allocate_segments(1, "the whole array");
  s.begins[0] = 0;
  s.ends[0] = n;
  return s;
}

/* `rows` rows of `columns`: what the _rows forms sort. */
static segments rows_of(uint64_t rows, uint64_t columns) {
  segments s = allocate_segments(rows, "rows");
  for (uint64_t r = 0; r < rows; ++r) s.begins[r] = r * columns, s.ends[r] = (r + 1) * columns;
  return s;
}

static const char* order_name(int descending) { return descending ? "descending" : "ascending"; }

static vkc_sort_options* order_options(int descending) {
  return sort_options(VKC_ALGORITHM_AUTO, descending ? VKC_ORDER_DESCENDING : VKC_ORDER_ASCENDING);
}

/* Whether `output` is `input` with each segment sorted by the contract and every key outside
 * the segments as it was. */
static int expect_segments_sorted(vkc_key_type type, const void* input, const void* output, size_t n,
                                  const segments* s, int descending, const char* what) {
  const size_t size = key_size(type);
  unsigned char* expected = checked_malloc(n * size);
  memcpy(expected, input, n * size);
  for (uint64_t i = 0; i < s->count; ++i) {
    const unsigned char* from = (const unsigned char*)input + s->begins[i] * size;
    reference_sort(type, from, expected + s->begins[i] * size, s->ends[i] - s->begins[i], descending);
  }
  const long at = first_difference(expected, output, n, size);
  if (at >= 0) {
    fprintf(stderr, "%s: %s keys, %zu of them, %s, %s: wrong key at %ld\n", what, key_type_name(type), n, s->name,
            order_name(descending), at);
  }
  free(expected);
  return at < 0;
}

/* The index expected at every position: within a segment the stable permutation of its keys
 * (plus its begin when `global`), elsewhere `outside(position)`. */
static uint64_t* expected_indices(vkc_key_type type, const void* keys, size_t n, const segments* s, int descending,
                                  int global, uint64_t (*outside)(uint64_t)) {
  const size_t size = key_size(type);
  uint64_t* expected = checked_malloc(n * sizeof *expected);
  for (size_t i = 0; i < n; ++i) expected[i] = outside(i);
  for (uint64_t i = 0; i < s->count; ++i) {
    const uint64_t begin = s->begins[i], length = s->ends[i] - begin;
    reference_argsort(type, (const unsigned char*)keys + begin * size, expected + begin, length, descending);
    for (uint64_t j = 0; j < length && global; ++j) expected[begin + j] += begin;
  }
  return expected;
}

static uint64_t own_position(uint64_t position) { return position; }
static uint64_t untouched_u32(uint64_t position) { return (void)position, 0xabababab; }
static uint64_t untouched_u64(uint64_t position) { return (void)position, 0xababababababababu; }

/* Whether `indices` (of `index_size` bytes) equal `expected`. */
static int expect_indices(const void* indices, size_t index_size, const uint64_t* expected, size_t n,
                          const char* what, const segments* s, int descending) {
  for (size_t i = 0; i < n; ++i) {
    uint32_t narrow;
    uint64_t wide;
    if (index_size == 4) memcpy(&narrow, (const uint32_t*)indices + i, 4), wide = narrow;
    else memcpy(&wide, (const uint64_t*)indices + i, 8);
    if (wide != expected[i]) {
      fprintf(stderr, "%s: %s, %s: index %zu is %llu, expected %llu\n", what, s->name, order_name(descending), i,
              (unsigned long long)wide, (unsigned long long)expected[i]);
      return 0;
    }
  }
  return 1;
}

/* ---- Keys alone */

static void check_sort_segments(vkc_context* context, vkc_key_type type, const void* input, size_t n,
                                const segments* s) {
  void* keys = checked_malloc(n * key_size(type));
  for (int descending = 0; descending <= 1; ++descending) {
    vkc_sort_options* options = order_options(descending);
    memcpy(keys, input, n * key_size(type));
    CHECK_OK(vkc_sort_segments(context, type, keys, n, s->begins, s->ends, s->count, options));
    CHECK(expect_segments_sorted(type, input, keys, n, s, descending, "vkc_sort_segments"));
    vkc_sort_options_destroy(options);
  }
  free(keys);
}

/* Every layout of segments over one array of each type: random (in order and shuffled), the
 * whole array, none at all, and only empty ones. */
void case_segments(void) {
  vkc_context* context = test_context();
  const size_t n = 6007;
  for (int t = 0; t < SEGMENT_TYPES; ++t) {
    const vkc_key_type type = segment_types[t];
    void* input = checked_malloc(n * key_size(type));
    fill_keys(type, input, n, 90 + t, 0);
    segments layouts[] = {random_segments(n, 3 + t, 0), random_segments(n, 5 + t, 1), whole_array(n),
                          allocate_segments(0, "no segments"), allocate_segments(3, "empty segments")};
    for (int e = 0; e < 3; ++e) layouts[4].begins[e] = layouts[4].ends[e] = 10 * e;
    for (int l = 0; l < 5; ++l) {
      check_sort_segments(context, type, input, n, &layouts[l]);
      free_segments(&layouts[l]);
    }
    free(input);
  }
}

/* ---- Pairs */

static void check_segment_pairs(vkc_context* context, vkc_key_type type, vkc_value_type value_type, const void* input,
                                size_t n, const segments* s) {
  const size_t value_size = value_type == VKC_VALUE_U32 ? 4 : 8;
  void* keys = checked_malloc(n * key_size(type));
  void* values = checked_malloc(n * value_size);
  for (int descending = 0; descending <= 1; ++descending) {
    memcpy(keys, input, n * key_size(type));
    for (size_t i = 0; i < n; ++i) {
      if (value_size == 4) ((uint32_t*)values)[i] = (uint32_t)i;
      else ((uint64_t*)values)[i] = i;
    }
    vkc_sort_options* options = order_options(descending);
    CHECK_OK(vkc_sort_segments_pairs(context, type, keys, value_type, values, n, s->begins, s->ends, s->count, options));
    CHECK(expect_segments_sorted(type, input, keys, n, s, descending, "vkc_sort_segments_pairs"));
    uint64_t* expected = expected_indices(type, input, n, s, descending, 1, own_position);
    CHECK(expect_indices(values, value_size, expected, n, "vkc_sort_segments_pairs: values", s, descending));
    free(expected);
    vkc_sort_options_destroy(options);
  }
  free(keys);
  free(values);
}

/* Values are the keys' positions: after the sort, each segment's values are its stable
 * permutation (in the whole array's numbers), and those outside the segments their own. */
void case_segment_pairs(void) {
  vkc_context* context = test_context();
  const size_t n = 5003;
  for (int t = 0; t < SEGMENT_TYPES; ++t) {
    const vkc_key_type type = segment_types[t];
    void* input = checked_malloc(n * key_size(type));
    fill_keys(type, input, n, 40 + t, 1);
    segments shuffled = random_segments(n, 11 + t, 1), whole = whole_array(n);
    check_segment_pairs(context, type, VKC_VALUE_U32, input, n, &shuffled);
    check_segment_pairs(context, type, VKC_VALUE_U64, input, n, &whole);
    free_segments(&shuffled);
    free_segments(&whole);
    free(input);
  }
}

/* ---- Argsort */

static void check_argsort_segments(vkc_context* context, vkc_key_type type, const void* keys, size_t n,
                                   const segments* s, vkc_value_type index_type, vkc_segment_indices numbering) {
  const size_t index_size = index_type == VKC_VALUE_U32 ? 4 : 8;
  const int global = numbering == VKC_SEGMENT_INDICES_GLOBAL;
  void* indices = checked_malloc(n * index_size);
  for (int descending = 0; descending <= 1; ++descending) {
    memset(indices, 0xab, n * index_size);
    vkc_sort_options* options = order_options(descending);
    CHECK_OK(vkc_argsort_segments(context, type, keys, n, s->begins, s->ends, s->count, index_type, indices, numbering,
                                  options));
    uint64_t* expected =
        expected_indices(type, keys, n, s, descending, global, index_size == 4 ? untouched_u32 : untouched_u64);
    CHECK(expect_indices(indices, index_size, expected, n, global ? "vkc_argsort_segments (global)"
                                                                  : "vkc_argsort_segments (local)", s, descending));
    free(expected);
    vkc_sort_options_destroy(options);
  }
  free(indices);
}

/* Local and global numbers, uint32 and uint64 indices, keys with many equals (stability); the
 * indices at positions outside every segment are not written. */
void case_segment_argsort(void) {
  vkc_context* context = test_context();
  const size_t n = 4099;
  for (int t = 0; t < SEGMENT_TYPES; ++t) {
    const vkc_key_type type = segment_types[t];
    void* keys = checked_malloc(n * key_size(type));
    void* copy = checked_malloc(n * key_size(type));
    fill_keys(type, keys, n, 70 + t, 1);
    memcpy(copy, keys, n * key_size(type));
    segments shuffled = random_segments(n, 21 + t, 1);
    check_argsort_segments(context, type, keys, n, &shuffled, VKC_VALUE_U32, VKC_SEGMENT_INDICES_LOCAL);
    check_argsort_segments(context, type, keys, n, &shuffled, VKC_VALUE_U64, VKC_SEGMENT_INDICES_GLOBAL);
    check_argsort_segments(context, type, keys, n, &shuffled, VKC_VALUE_U64, VKC_SEGMENT_INDICES_LOCAL);
    check_argsort_segments(context, type, keys, n, &shuffled, VKC_VALUE_U32, VKC_SEGMENT_INDICES_GLOBAL);
    CHECK(memcmp(keys, copy, n * key_size(type)) == 0); /* only read */
    free_segments(&shuffled);
    free(keys);
    free(copy);
  }
}

/* ---- Rows */

static void check_rows(vkc_context* context, vkc_key_type type, uint64_t rows, uint64_t columns) {
  const size_t n = rows * columns, size = key_size(type);
  segments s = rows_of(rows, columns);
  void* input = checked_malloc(n * size);
  void* keys = checked_malloc(n * size);
  uint64_t* values = checked_malloc(n * sizeof *values);
  uint32_t* indices = checked_malloc(n * sizeof *indices);
  fill_keys(type, input, n, rows * 1000 + columns, columns % 2);
  for (int descending = 0; descending <= 1; ++descending) {
    vkc_sort_options* options = order_options(descending);
    memcpy(keys, input, n * size);
    CHECK_OK(vkc_sort_rows(context, type, keys, rows, columns, options));
    CHECK(expect_segments_sorted(type, input, keys, n, &s, descending, "vkc_sort_rows"));
    memcpy(keys, input, n * size);
    for (size_t i = 0; i < n; ++i) values[i] = i;
    CHECK_OK(vkc_sort_rows_pairs(context, type, keys, VKC_VALUE_U64, values, rows, columns, options));
    CHECK(expect_segments_sorted(type, input, keys, n, &s, descending, "vkc_sort_rows_pairs"));
    uint64_t* expected = expected_indices(type, input, n, &s, descending, 1, own_position);
    CHECK(expect_indices(values, 8, expected, n, "vkc_sort_rows_pairs: values", &s, descending));
    free(expected);
    CHECK_OK(vkc_argsort_rows(context, type, input, rows, columns, VKC_VALUE_U32, indices, options));
    expected = expected_indices(type, input, n, &s, descending, 0, own_position);
    CHECK(expect_indices(indices, 4, expected, n, "vkc_argsort_rows", &s, descending));
    free(expected);
    vkc_sort_options_destroy(options);
  }
  free_segments(&s);
  free(input);
  free(keys);
  free(values);
  free(indices);
}

/* Rows shorter than a subgroup, about as long, and past one workgroup's tile; packed 8- and
 * 16-bit keys too; no rows, and rows of no keys. */
void case_rows(void) {
  vkc_context* context = test_context();
  static const uint64_t columns[] = {1, 2, 31, 32, 33, 1000};
  for (int t = 0; t < SEGMENT_TYPES; ++t) {
    for (int c = 0; c < 6; ++c) check_rows(context, segment_types[t], 1 + 1500 / columns[c], columns[c]);
  }
  check_rows(context, VKC_KEY_F16, 37, 33);
  check_rows(context, VKC_KEY_I8, 5, 1001);
  check_rows(context, VKC_KEY_U32, 2, 100003);
  uint32_t none[1] = {7};
  CHECK_OK(vkc_sort_rows(context, VKC_KEY_U32, none, 0, 5, NULL));
  CHECK_OK(vkc_sort_rows(context, VKC_KEY_U32, NULL, 5, 0, NULL));
  CHECK_OK(vkc_argsort_rows(context, VKC_KEY_U32, NULL, 0, 0, VKC_VALUE_U64, NULL, NULL));
  CHECK(none[0] == 7);
}

/* ---- Refused arguments */

/* Segments that the library refuses, each with a message that says what is wrong; the keys
 * stay as they were. */
static void check_bad_segments(vkc_context* context, uint32_t* keys) {
  uint32_t indices[8];
  const uint64_t begins[] = {0, 4}, ends_backwards[] = {3, 2}, ends_past[] = {4, 9}, ends_overlap[] = {5, 8};
  CHECK_FAILS(vkc_sort_segments(context, VKC_KEY_U32, keys, 8, begins, ends_backwards, 2, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_segments");
  CHECK(strstr(vkc_last_error(), "segment 1 [4, 2) ends before it begins") != NULL);
  CHECK_FAILS(vkc_sort_segments(context, VKC_KEY_U32, keys, 8, begins, ends_past, 2, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_segments");
  CHECK(strstr(vkc_last_error(), "segment 1 [4, 9) ends past the 8 keys") != NULL);
  CHECK_FAILS(vkc_sort_segments(context, VKC_KEY_U32, keys, 8, begins, ends_overlap, 2, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_segments");
  CHECK(strstr(vkc_last_error(), "overlap") != NULL);
  /* Out of order, overlapping all the same. */
  const uint64_t late_first[] = {4, 0}, late_first_ends[] = {8, 5};
  CHECK_FAILS(vkc_argsort_segments(context, VKC_KEY_U32, keys, 8, late_first, late_first_ends, 2, VKC_VALUE_U32,
                                   indices, VKC_SEGMENT_INDICES_LOCAL, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort_segments");
  CHECK(strstr(vkc_last_error(), "segment 1 [0, 5) and segment 0 [4, 8) overlap") != NULL);
  /* Empty segments share no key, wherever they lie. */
  const uint64_t empty_begins[] = {2, 0, 2}, empty_ends[] = {2, 8, 2};
  CHECK_OK(vkc_argsort_segments(context, VKC_KEY_U32, keys, 8, empty_begins, empty_ends, 3, VKC_VALUE_U32, indices,
                                VKC_SEGMENT_INDICES_GLOBAL, NULL));
  CHECK_FAILS(vkc_sort_segments_pairs(context, VKC_KEY_U32, keys, VKC_VALUE_U32, indices, 8, NULL, ends_past, 2, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_segments_pairs");
  CHECK(strstr(vkc_last_error(), "begins is NULL") != NULL);
  CHECK_FAILS(vkc_sort_segments(context, VKC_KEY_U32, keys, 8, begins, NULL, 2, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_segments");
  CHECK(strstr(vkc_last_error(), "ends is NULL") != NULL);
}

/* Options and enumerators the segmented sorts refuse. */
static void check_bad_segment_options(vkc_context* context, uint32_t* keys) {
  uint32_t indices[8];
  const uint64_t begins[] = {0}, ends[] = {8};
  vkc_sort_options* bitonic = sort_options(VKC_ALGORITHM_BITONIC, VKC_ORDER_ASCENDING);
  CHECK_FAILS(vkc_sort_segments(context, VKC_KEY_U32, keys, 8, begins, ends, 1, bitonic), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_segments");
  CHECK(strstr(vkc_last_error(), "must be auto or radix, not bitonic") != NULL);
  CHECK_FAILS(vkc_sort_rows(context, VKC_KEY_U32, keys, 2, 4, bitonic), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_rows");
  vkc_sort_options_destroy(bitonic);
  vkc_sort_options* ranged = sort_options(VKC_ALGORITHM_RADIX, VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_sort_options_set_bits(ranged, 0, 16));
  CHECK_FAILS(vkc_argsort_rows(context, VKC_KEY_U32, keys, 2, 4, VKC_VALUE_U32, indices, ranged),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort_rows");
  CHECK(strstr(vkc_last_error(), "no bit range") != NULL);
  uint32_t rows[4] = {2, 1, 4, 3}; /* the whole key, however it is set, is no range */
  CHECK_OK(vkc_sort_options_set_bits(ranged, 0, 32));
  CHECK_OK(vkc_sort_rows(context, VKC_KEY_U32, rows, 2, 2, ranged));
  CHECK(rows[0] == 1 && rows[1] == 2 && rows[2] == 3 && rows[3] == 4);
  vkc_sort_options_destroy(ranged);
  CHECK_FAILS(vkc_argsort_segments(context, VKC_KEY_U32, keys, 8, begins, ends, 1, (vkc_value_type)0, indices,
                                   VKC_SEGMENT_INDICES_LOCAL, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort_segments");
  CHECK(strstr(vkc_last_error(), "index type 0") != NULL);
  CHECK_FAILS(vkc_argsort_segments(context, VKC_KEY_U32, keys, 8, begins, ends, 1, VKC_VALUE_U32, indices,
                                   (vkc_segment_indices)2, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort_segments");
  CHECK(strstr(vkc_last_error(), "segment indices 2") != NULL);
  CHECK_FAILS(vkc_sort_rows(context, VKC_KEY_U32, keys, UINT64_MAX / 2, 4, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_rows");
  CHECK(strstr(vkc_last_error(), "more keys than any array") != NULL);
  CHECK_FAILS(vkc_argsort_rows(context, VKC_KEY_U32, keys, 1, (uint64_t)UINT32_MAX + 1, VKC_VALUE_U32, indices, NULL),
              VKC_ERROR_UNSUPPORTED, "vkc_argsort_rows");
  CHECK_FAILS(vkc_sort_rows_pairs(NULL, VKC_KEY_U32, keys, VKC_VALUE_U32, indices, 2, 4, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_rows_pairs");
  CHECK_FAILS(vkc_sort_rows_pairs(context, VKC_KEY_U32, keys, VKC_VALUE_U32, NULL, 2, 4, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_rows_pairs");
}

void case_bad_segments(void) {
  vkc_context* context = test_context();
  uint32_t keys[8] = {5, 4, 3, 2, 1, 0, 7, 6};
  check_bad_segments(context, keys);
  check_bad_segment_options(context, keys);
  CHECK(keys[0] == 5 && keys[7] == 6);
}
