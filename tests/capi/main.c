/* capi_test [case...]: runs the named cases (all without arguments; --list names them) against
 * libvkcompute.so. Exit status 0 only when every check of every case passed. */
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

/* The cases, defined in the other files. */
void case_devices(void);
void case_device_pci(void);
void case_options_read_back(void);
void case_statuses(void);
void case_bad_arguments(void);
void case_every_key_type(void);
void case_every_algorithm(void);
void case_sort_to(void);
void case_pinned_memory(void);
void case_pairs(void);
void case_argsort_stability(void);
void case_nan_and_zeros(void);
void case_narrow_keys_every_algorithm(void);
void case_narrow_pairs(void);
void case_every_narrow_value(void);
void case_bit_ranges(void);
void case_segments(void);
void case_segment_pairs(void);
void case_segment_argsort(void);
void case_rows(void);
void case_bad_segments(void);
void case_streamed(void);
void case_callback_failures(void);
void case_progress(void);
void case_out_of_core(void);
void case_threads(void);
void case_device_list(void);
void case_nbody(void);

static const struct {
  const char* name;
  void (*run)(void);
} cases[] = {
    {"Devices", case_devices},
    {"DevicePci", case_device_pci},
    {"OptionsReadBack", case_options_read_back},
    {"Statuses", case_statuses},
    {"BadArguments", case_bad_arguments},
    {"EveryKeyType", case_every_key_type},
    {"EveryAlgorithm", case_every_algorithm},
    {"SortTo", case_sort_to},
    {"PinnedMemory", case_pinned_memory},
    {"Pairs", case_pairs},
    {"ArgsortStability", case_argsort_stability},
    {"NaNAndZeros", case_nan_and_zeros},
    {"NarrowKeysEveryAlgorithm", case_narrow_keys_every_algorithm},
    {"NarrowPairs", case_narrow_pairs},
    {"EveryNarrowValue", case_every_narrow_value},
    {"BitRanges", case_bit_ranges},
    {"Segments", case_segments},
    {"SegmentPairs", case_segment_pairs},
    {"SegmentArgsort", case_segment_argsort},
    {"Rows", case_rows},
    {"BadSegments", case_bad_segments},
    {"Streamed", case_streamed},
    {"CallbackFailures", case_callback_failures},
    {"Progress", case_progress},
    {"OutOfCore", case_out_of_core},
    {"Threads", case_threads},
    {"DeviceList", case_device_list},
    {"NBody", case_nbody},
};
enum { CASES = sizeof cases / sizeof cases[0] };

static int failures;
static vkc_context* shared_context;

void note_failure(const char* file, int line, const char* what) {
  fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
  ++failures;
}

int check_status(const char* file, int line, const char* call, vkc_status status, vkc_status expected,
                 const char* function) {
  const char* message = vkc_last_error();
  if (status != expected) {
    fprintf(stderr, "%s:%d: %s returned %s, expected %s (last error: %s)\n", file, line, call, vkc_status_name(status),
            vkc_status_name(expected), message);
    ++failures;
    return 0;
  }
  if (function && (message[0] == '\0' || strncmp(message, function, strlen(function)) != 0)) {
    fprintf(stderr, "%s:%d: %s: the message '%s' does not start with %s\n", file, line, call, message, function);
    ++failures;
    return 0;
  }
  return 1;
}

static void on_validation_message(void* user, const char* message) {
  ++*(int*)user;
  fprintf(stderr, "validation layer: %s\n", message);
}

void expect_no_validation_messages(vkc_context* context) {
  int messages = 0;
  CHECK_OK(vkc_context_take_validation_messages(context, on_validation_message, &messages));
  CHECK(messages == 0);
}

static int env_is_set(const char* name) {
  const char* value = getenv(name);
  return value && *value && strcmp(value, "0") != 0;
}

/* A test that runs without the validation layer proves much less than it claims: refuse,
 * unless the person running it says so (as the GoogleTest programs do). */
static int environment_is_checked(void) {
  if (env_is_set("VKC_VALIDATION") || env_is_set("VKC_TEST_UNCHECKED")) return 1;
  fprintf(stderr, "capi_test runs under the validation layer: run it through CTest, or set VKC_VALIDATION=1 "
                  "(VKC_TEST_UNCHECKED=1 runs it without)\n");
  return 0;
}

static vkc_context* create_context(uint64_t device_memory_limit) {
  vkc_context_options* options = NULL;
  vkc_context* context = NULL;
  CHECK_OK(vkc_context_options_create(&options));
  CHECK_OK(vkc_context_options_set_quiet(options, 1));
  CHECK_OK(vkc_context_options_set_device_memory_limit(options, device_memory_limit));
  if (!CHECK_OK(vkc_context_create(options, &context))) exit(EXIT_FAILURE);
  vkc_context_options_destroy(options);
  return context;
}

/* On lavapipe, the subgroup size that CTest asked for (VKC_EXPECT_SUBGROUP_SIZE). */
static void check_subgroup_size(vkc_context* context) {
  const char* expected = getenv("VKC_EXPECT_SUBGROUP_SIZE");
  vkc_device_info info;
  CHECK_OK(vkc_context_get_device_info(context, &info, sizeof info));
  if (expected && info.type == VKC_DEVICE_CPU && info.subgroup_size != (uint32_t)atoi(expected)) {
    fprintf(stderr, "lavapipe gave subgroup size %u, CTest asked for %s\n", info.subgroup_size, expected);
    ++failures;
  }
}

vkc_context* test_context(void) {
  if (!shared_context) {
    shared_context = create_context(0);
    check_subgroup_size(shared_context);
  }
  return shared_context;
}

vkc_context* create_limited_context(uint64_t device_memory_limit) { return create_context(device_memory_limit); }

static int run_case(int index) {
  const int before = failures;
  fprintf(stderr, "[ RUN  ] %s\n", cases[index].name);
  cases[index].run();
  if (shared_context) expect_no_validation_messages(shared_context);
  fprintf(stderr, "[ %s ] %s\n", failures == before ? " OK " : "FAIL", cases[index].name);
  return failures == before;
}

static int find_case(const char* name) {
  for (int i = 0; i < CASES; ++i) {
    if (strcmp(cases[i].name, name) == 0) return i;
  }
  return -1;
}

int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--list") == 0) {
    for (int i = 0; i < CASES; ++i) printf("%s\n", cases[i].name);
    return EXIT_SUCCESS;
  }
  if (!environment_is_checked()) return EXIT_FAILURE;
  for (int a = 1; a < argc; ++a) {
    if (find_case(argv[a]) < 0) {
      fprintf(stderr, "no case named %s (--list names them)\n", argv[a]);
      return EXIT_FAILURE;
    }
  }
  for (int i = 0; i < CASES; ++i) {
    if (argc == 1) run_case(i);
  }
  for (int a = 1; a < argc; ++a) run_case(find_case(argv[a]));
  vkc_context_destroy(shared_context);
  if (failures) fprintf(stderr, "%d check(s) failed\n", failures);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
