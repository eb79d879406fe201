/* The C ABI's test program: shared checks, the context every case uses, and the reference
 * order that results are compared against (computed here, independently of the library). */
#ifndef VKC_CAPI_TEST_H
#define VKC_CAPI_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vkc/vkc.h"

/* ---- Checks: a failed one prints where and why, and the case goes on (failures counted). */

void note_failure(const char* file, int line, const char* what);
/* Whether `status` is `expected`; on an error, also that vkc_last_error() names `function`. */
int check_status(const char* file, int line, const char* call, vkc_status status, vkc_status expected,
                 const char* function);

#define CHECK(condition)                                                   \
  do {                                                                     \
    if (!(condition)) note_failure(__FILE__, __LINE__, #condition);        \
  } while (0)
/* `call` returns VKC_OK; else the status and vkc_last_error() are printed. */
#define CHECK_OK(call) check_status(__FILE__, __LINE__, #call, (call), VKC_OK, NULL)
/* `call` fails with `expected`, and vkc_last_error() is a message that names `function`. */
#define CHECK_FAILS(call, expected, function) check_status(__FILE__, __LINE__, #call, (call), (expected), (function))

/* ---- The context: made on first use from the environment (CTest sets VKC_VALIDATION=1 and
 * LP_NATIVE_VECTOR_WIDTH), quiet. */
vkc_context* test_context(void);
/* A context with a device memory limit, for sorts that run out of core. */
vkc_context* create_limited_context(uint64_t device_memory_limit);
/* Fails the case for every validation message `context` holds. */
void expect_no_validation_messages(vkc_context* context);

/* ---- Keys and the reference order */

enum { KEY_TYPES = 12 };
extern const vkc_key_type all_key_types[KEY_TYPES];
const char* key_type_name(vkc_key_type type);
size_t key_size(vkc_key_type type);
int is_float_key(vkc_key_type type);
/* The value of IEEE 754 binary16 bits and of bfloat16 bits (exact; NaN for NaNs). */
double f16_value(uint16_t bits);
double bf16_value(uint16_t bits);

/* A reproducible generator (xorshift64*). */
uint64_t next_random(uint64_t* state);

/* `count` keys of `type` into `keys`: random over the type's range, with NaNs of several
 * payloads and signs, zeros of both signs and infinities among the floats. With `few_values`,
 * only a handful of distinct keys, so that most keys have equals. */
void fill_keys(vkc_key_type type, void* keys, size_t count, uint64_t seed, int few_values);

/* The order contract: <0, 0, >0 as key a goes before, with, after key b. NaNs last in both
 * orders, ordered among themselves by their bits with the sign cleared; -0.0 before +0.0
 * ascending; descending the reverse for everything else. */
int compare_keys(vkc_key_type type, const void* a, const void* b, int descending);

/* `keys` sorted by qsort under compare_keys, then every NaN's sign bit cleared (as the library
 * writes NaNs): what a keys-only sort must produce, byte for byte. */
void reference_sort(vkc_key_type type, const void* keys, void* sorted, size_t count, int descending);
/* The stable permutation (a merge sort under compare_keys; equal keys keep input order). */
void reference_argsort(vkc_key_type type, const void* keys, uint64_t* permutation, size_t count, int descending);
/* The bits [begin_bit, end_bit) of a key's ordered image (vkc_sort_options_set_bits, written
 * from its documentation), as a number; end_bit past the key's width means the width. */
uint64_t ordered_bits(vkc_key_type type, const void* key, int descending, uint32_t begin_bit, uint32_t end_bit);
/* The stable permutation that orders keys by ordered_bits alone. */
void reference_argsort_bits(vkc_key_type type, const void* keys, uint64_t* permutation, size_t count, int descending,
                            uint32_t begin_bit, uint32_t end_bit);
/* Clears the sign bit of every NaN in a float array (a no-op for integer keys). */
void clear_nan_signs(vkc_key_type type, void* keys, size_t count);

/* ---- Checks of sorted arrays (sort_cases.c), which print what is wrong */

/* Whether `output` is `input` sorted by the contract. */
int expect_sorted(vkc_key_type type, const void* input, const void* output, size_t count, int descending,
                  const char* what);
/* Whether `permutation` (of `index_size`-byte indices) is the stable one. */
int expect_stable_permutation(vkc_key_type type, const void* keys, const void* permutation, size_t index_size,
                              size_t count, int descending, const char* what);
/* Sorts n pairs of keys (few distinct ones) and their positions with `algorithm`, ascending, in
 * place or into other arrays, and checks the keys sorted, each with its own value, and (radix)
 * the values in the stable order. */
void check_pairs(vkc_context* context, vkc_key_type key_type, vkc_value_type value_type, size_t n,
                 vkc_sort_algorithm algorithm, int to_other_arrays);

/* The index of the first element where the arrays differ, or -1. */
long first_difference(const void* a, const void* b, size_t count, size_t element_size);

/* A sort's options in one call (algorithm, order); destroy with vkc_sort_options_destroy. */
vkc_sort_options* sort_options(vkc_sort_algorithm algorithm, vkc_sort_order order);

void* checked_malloc(size_t bytes);

#endif
