/* Devices, statuses, and the arguments that every function refuses with a status and a message
 * rather than a crash. */
#include <stdlib.h>
#include <string.h>

#include "capi_test.h"

void case_devices(void) {
  uint32_t count = 0, chosen = 99;
  CHECK_OK(vkc_device_count(&count));
  CHECK(count >= 1);
  vkc_device_info info;
  memset(&info, 0xff, sizeof info);
  CHECK_OK(vkc_device_get_info(0, &info, sizeof info));
  CHECK(info.index == 0 && info.name[0] != '\0' && memchr(info.name, '\0', sizeof info.name) != NULL);
  CHECK(info.subgroup_size >= 1 && info.api_version != 0 && info.max_storage_buffer_range > 0);
  CHECK(info.type >= VKC_DEVICE_OTHER && info.type <= VKC_DEVICE_CPU && info.shader_int64 <= 1);
  /* An older caller's smaller struct: only its prefix is written. */
  unsigned char prefix[sizeof(uint32_t) + 8];
  memset(prefix, 0xab, sizeof prefix);
  CHECK_OK(vkc_device_get_info(0, (vkc_device_info*)(void*)prefix, sizeof(uint32_t)));
  CHECK(prefix[0] == 0 && prefix[sizeof(uint32_t)] == 0xab);
  /* The context's device is the one the choice names. */
  CHECK_OK(vkc_choose_device(NULL, &chosen));
  vkc_device_info used;
  CHECK_OK(vkc_context_get_device_info(test_context(), &used, sizeof used));
  CHECK(used.index == chosen);
  CHECK_OK(vkc_choose_device("0", &chosen));
  CHECK(chosen == 0);
  CHECK_OK(vkc_choose_device(info.name, &chosen));
  CHECK_FAILS(vkc_choose_device("no such device", &chosen), VKC_ERROR_NO_DEVICE, "vkc_choose_device");
  CHECK_FAILS(vkc_choose_device("4000", &chosen), VKC_ERROR_NO_DEVICE, "vkc_choose_device");
  vkc_context_options* options = NULL;
  vkc_context* context = (vkc_context*)&chosen;
  CHECK_OK(vkc_context_options_create(&options));
  CHECK_OK(vkc_context_options_set_device(options, "no such device"));
  CHECK_FAILS(vkc_context_create(options, &context), VKC_ERROR_NO_DEVICE, "vkc_context_create");
  CHECK(context == NULL);
  vkc_context_options_destroy(options);
  CHECK_OK(vkc_context_release_cached_memory(test_context()));
  CHECK(vkc_abi_version() == VKC_ABI_VERSION);
  CHECK(strcmp(vkc_version(), "0.1.0") >= 0 && strchr(vkc_version(), '.') != NULL);
}

/* Each device's PCI facts: an address that spells its numbers where the driver gives one, and
 * every fact at its "unknown" value where not. */
void case_device_pci(void) {
  uint32_t count = 0;
  CHECK_OK(vkc_device_count(&count));
  for (uint32_t d = 0; d < count; ++d) {
    vkc_device_pci pci;
    memset(&pci, 0xff, sizeof pci);
    CHECK_OK(vkc_device_get_pci(d, &pci, sizeof pci));
    CHECK(pci.known <= 1 && memchr(pci.address, '\0', sizeof pci.address) != NULL);
    CHECK(memchr(pci.link_speed, '\0', sizeof pci.link_speed) && memchr(pci.max_link_speed, '\0', sizeof pci.max_link_speed));
    CHECK(pci.numa_node >= -1);
    if (pci.known) {
      char address[32];
      snprintf(address, sizeof address, "%04x:%02x:%02x.%x", pci.domain, pci.bus, pci.device, pci.function);
      CHECK(strcmp(address, pci.address) == 0);
    } else {
      CHECK(pci.address[0] == '\0' && pci.numa_node == -1 && pci.link_speed[0] == '\0' && pci.link_width == 0);
      CHECK(pci.max_link_speed[0] == '\0' && pci.max_link_width == 0 && pci.bus == 0 && pci.domain == 0);
    }
  }
  /* An older caller's smaller struct: only its prefix is written. */
  unsigned char prefix[sizeof(uint32_t) + 8];
  memset(prefix, 0xab, sizeof prefix);
  CHECK_OK(vkc_device_get_pci(0, (vkc_device_pci*)(void*)prefix, sizeof(uint32_t)));
  CHECK(prefix[0] <= 1 && prefix[sizeof(uint32_t)] == 0xab);
  vkc_device_pci pci;
  CHECK_FAILS(vkc_device_get_pci(count, &pci, sizeof pci), VKC_ERROR_INVALID_ARGUMENT, "vkc_device_get_pci");
  CHECK_FAILS(vkc_device_get_pci(0, NULL, sizeof pci), VKC_ERROR_INVALID_ARGUMENT, "vkc_device_get_pci");
  CHECK_FAILS(vkc_device_get_pci(0, &pci, 0), VKC_ERROR_INVALID_ARGUMENT, "vkc_device_get_pci");
}

/* What options hold reads back as it was set; NULL options read as the defaults. */
void case_options_read_back(void) {
  vkc_sort_options* options = sort_options(VKC_ALGORITHM_RADIX, VKC_ORDER_DESCENDING);
  vkc_sort_order order = VKC_ORDER_ASCENDING;
  uint32_t begin = 99, end = 99;
  CHECK_OK(vkc_sort_options_set_bits(options, 3, 17));
  CHECK_OK(vkc_sort_options_get_order(options, &order));
  CHECK_OK(vkc_sort_options_get_bits(options, &begin, &end));
  CHECK(order == VKC_ORDER_DESCENDING && begin == 3 && end == 17);
  CHECK_OK(vkc_sort_options_get_order(NULL, &order));
  CHECK_OK(vkc_sort_options_get_bits(NULL, &begin, &end));
  CHECK(order == VKC_ORDER_ASCENDING && begin == 0 && end == UINT32_MAX);
  CHECK_FAILS(vkc_sort_options_get_order(options, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_options_get_order");
  CHECK_FAILS(vkc_sort_options_get_bits(options, &begin, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_options_get_bits");
  vkc_sort_options_destroy(options);
}

/* A context made with every option set, which sorts. */
static void check_context_with_every_option(void) {
  vkc_context_options* options = NULL;
  vkc_context* context = NULL;
  CHECK_OK(vkc_context_options_create(&options));
  CHECK_OK(vkc_context_options_set_device(options, "0"));
  CHECK_OK(vkc_context_options_set_device_memory_limit(options, 64u << 20));
  CHECK_OK(vkc_context_options_set_pipeline_cache_dir(options, "off"));
  CHECK_OK(vkc_context_options_set_validation(options, 1));
  CHECK_OK(vkc_context_options_set_quiet(options, 1));
  CHECK_OK(vkc_context_options_set_host_threads(options, 2));
  CHECK_OK(vkc_context_create(options, &context));
  vkc_context_options_destroy(options);
  uint32_t keys[] = {3, 1, 2};
  vkc_sort_options* radix = sort_options(VKC_ALGORITHM_RADIX, VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_sort_options_set_radix_scan(radix, VKC_RADIX_SCAN_REDUCE_THEN_SCAN));
  CHECK_OK(vkc_sort(context, VKC_KEY_U32, keys, 3, radix));
  CHECK(keys[0] == 1 && keys[1] == 2 && keys[2] == 3);
  vkc_sort_options_destroy(radix);
  expect_no_validation_messages(context);
  vkc_context_destroy(context);
}

void case_statuses(void) {
  static const char* const names[] = {"VKC_OK", "VKC_ERROR_INVALID_ARGUMENT", "VKC_ERROR_UNSUPPORTED",
                                      "VKC_ERROR_OUT_OF_MEMORY", "VKC_ERROR_DEVICE_LOST", "VKC_ERROR_NO_DEVICE",
                                      "VKC_ERROR_CANCELLED", "VKC_ERROR_CALLBACK", "VKC_ERROR_FAILED"};
  for (int s = VKC_OK; s <= VKC_ERROR_FAILED; ++s) CHECK(strcmp(vkc_status_name((vkc_status)s), names[s]) == 0);
  CHECK(strcmp(vkc_status_name((vkc_status)99), "VKC_STATUS_UNKNOWN") == 0);
  CHECK(strcmp(vkc_status_name((vkc_status)-1), "VKC_STATUS_UNKNOWN") == 0);
  check_context_with_every_option();
}

static void check_bad_context_and_options(void) {
  uint32_t keys[4] = {0};
  CHECK_FAILS(vkc_context_create(NULL, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_context_create");
  CHECK(strstr(vkc_last_error(), "context is NULL") != NULL);
  CHECK_FAILS(vkc_context_options_create(NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_context_options_create");
  CHECK_FAILS(vkc_context_options_set_device(NULL, "0"), VKC_ERROR_INVALID_ARGUMENT, "vkc_context_options_set_device");
  CHECK_FAILS(vkc_context_options_set_device_memory_limit(NULL, 1), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_context_options_set_device_memory_limit");
  CHECK_FAILS(vkc_context_options_set_pipeline_cache_dir(NULL, "off"), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_context_options_set_pipeline_cache_dir");
  CHECK_FAILS(vkc_context_options_set_validation(NULL, 1), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_context_options_set_validation");
  CHECK_FAILS(vkc_context_options_set_quiet(NULL, 1), VKC_ERROR_INVALID_ARGUMENT, "vkc_context_options_set_quiet");
  CHECK_FAILS(vkc_context_options_set_host_threads(NULL, 1), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_context_options_set_host_threads");
  CHECK_FAILS(vkc_context_get_device_info(NULL, NULL, 0), VKC_ERROR_INVALID_ARGUMENT, "vkc_context_get_device_info");
  CHECK_FAILS(vkc_context_release_cached_memory(NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_context_release_cached_memory");
  CHECK_FAILS(vkc_context_take_validation_messages(NULL, NULL, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_context_take_validation_messages");
  CHECK_FAILS(vkc_device_count(NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_device_count");
  vkc_device_info info;
  CHECK_FAILS(vkc_device_get_info(4000, &info, sizeof info), VKC_ERROR_INVALID_ARGUMENT, "vkc_device_get_info");
  CHECK_FAILS(vkc_device_get_info(0, NULL, sizeof info), VKC_ERROR_INVALID_ARGUMENT, "vkc_device_get_info");
  CHECK_FAILS(vkc_device_get_info(0, &info, 0), VKC_ERROR_INVALID_ARGUMENT, "vkc_device_get_info");
  CHECK_FAILS(vkc_context_get_device_info(test_context(), &info, 0), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_context_get_device_info");
  CHECK_FAILS(vkc_choose_device("0", NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_choose_device");
  CHECK_FAILS(vkc_sort_options_create(NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_options_create");
  CHECK_FAILS(vkc_sort_options_set_algorithm(NULL, VKC_ALGORITHM_AUTO), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_options_set_algorithm");
  CHECK_FAILS(vkc_sort_options_set_progress(NULL, NULL, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_options_set_progress");
  vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, VKC_ORDER_ASCENDING);
  CHECK_FAILS(vkc_sort_options_set_algorithm(options, (vkc_sort_algorithm)99), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_options_set_algorithm");
  CHECK(strstr(vkc_last_error(), "99") != NULL);
  CHECK_FAILS(vkc_sort_options_set_algorithm(options, (vkc_sort_algorithm)-1), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_options_set_algorithm");
  CHECK_FAILS(vkc_sort_options_set_order(options, (vkc_sort_order)2), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_options_set_order");
  CHECK_FAILS(vkc_sort_options_set_radix_scan(options, (vkc_radix_scan)3), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_options_set_radix_scan");
  CHECK_FAILS(vkc_sort_options_set_bits(NULL, 0, 8), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_options_set_bits");
  CHECK_FAILS(vkc_sort_options_set_bits(options, 9, 8), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_options_set_bits");
  CHECK(strstr(vkc_last_error(), "begin_bit 9 is past end_bit 8") != NULL);
  /* The refused settings left the options as they were: a sort with them is ascending. */
  uint32_t three[] = {2, 0, 1};
  CHECK_OK(vkc_sort(test_context(), VKC_KEY_U32, three, 3, options));
  CHECK(three[0] == 0 && three[2] == 2);
  vkc_sort_options_destroy(options);
  (void)keys;
}

/* Bit ranges that a sort refuses: one that starts past the key, one with an algorithm other
 * than radix (the whole key is any algorithm's). */
static void check_bad_bit_ranges(vkc_context* context, uint32_t* keys) {
  uint16_t narrow[8] = {0};
  uint32_t indices[8];
  vkc_sort_options* options = sort_options(VKC_ALGORITHM_AUTO, VKC_ORDER_ASCENDING);
  CHECK_OK(vkc_sort_options_set_bits(options, 17, 20));
  CHECK_FAILS(vkc_sort(context, VKC_KEY_U16, narrow, 8, options), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
  CHECK(strstr(vkc_last_error(), "starts past the 16 bits of u16 keys") != NULL);
  CHECK_OK(vkc_sort(context, VKC_KEY_U32, keys, 0, options)); /* within a u32 */
  CHECK_OK(vkc_sort_options_set_bits(options, 0, 12));
  static const vkc_sort_algorithm not_radix[] = {VKC_ALGORITHM_BITONIC, VKC_ALGORITHM_BITONIC_TRANSPOSE,
                                                 VKC_ALGORITHM_ODD_EVEN};
  for (int a = 0; a < 3; ++a) {
    CHECK_OK(vkc_sort_options_set_algorithm(options, not_radix[a]));
    CHECK_FAILS(vkc_sort(context, VKC_KEY_U32, keys, 8, options), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
    CHECK(strstr(vkc_last_error(), "only radix sorts by a bit range") != NULL);
  }
  CHECK_FAILS(vkc_argsort(context, VKC_KEY_U32, keys, 8, indices, options), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_argsort");
  /* The whole key, however end_bit says it, is not a range: any algorithm sorts it. */
  CHECK_OK(vkc_sort_options_set_bits(options, 0, 16));
  CHECK_OK(vkc_sort(context, VKC_KEY_U16, narrow, 8, options));
  vkc_sort_options_destroy(options);
}

static void check_bad_sort_arguments(vkc_context* context) {
  uint32_t keys[8] = {5, 4, 3, 2, 1, 0, 7, 6}, values[8] = {0};
  uint32_t indices[8];
  uint64_t indices64[8];
  CHECK_FAILS(vkc_sort(NULL, VKC_KEY_U32, keys, 8, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
  CHECK(strcmp(vkc_last_error(), "vkc_sort: context is NULL") == 0);
  CHECK_FAILS(vkc_sort(context, VKC_KEY_U32, NULL, 8, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
  CHECK(strstr(vkc_last_error(), "vkc_sort: keys is NULL") == vkc_last_error());
  CHECK_OK(vkc_sort(context, VKC_KEY_U32, NULL, 0, NULL));
  CHECK_FAILS(vkc_sort(context, (vkc_key_type)99, keys, 8, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
  CHECK(strstr(vkc_last_error(), "key type 99") != NULL);
  CHECK_FAILS(vkc_sort(context, (vkc_key_type)-1, keys, 8, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
  CHECK_FAILS(vkc_sort(context, VKC_KEY_U64, keys, UINT64_MAX, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort");
  CHECK_FAILS(vkc_sort_to(context, VKC_KEY_U32, keys, NULL, 8, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_to");
  CHECK(strstr(vkc_last_error(), "sorted_keys") != NULL);
  CHECK_FAILS(vkc_sort_to(context, VKC_KEY_U32, keys, keys + 1, 4, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_to");
  CHECK(strstr(vkc_last_error(), "overlaps") != NULL);
  CHECK_FAILS(vkc_sort_pairs(context, VKC_KEY_U32, keys, (vkc_value_type)0, values, 8, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_pairs");
  CHECK(strstr(vkc_last_error(), "value type 0") != NULL);
  CHECK_FAILS(vkc_sort_pairs(context, VKC_KEY_U32, keys, (vkc_value_type)3, values, 8, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_pairs");
  CHECK_FAILS(vkc_sort_pairs(context, VKC_KEY_U32, keys, VKC_VALUE_U32, NULL, 8, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_pairs");
  CHECK_FAILS(vkc_sort_pairs_to(context, VKC_KEY_U32, keys, keys, VKC_VALUE_U32, values, NULL, 8, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_pairs_to");
  CHECK_FAILS(vkc_argsort(context, VKC_KEY_U32, keys, 8, NULL, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort");
  CHECK_FAILS(vkc_argsort64(context, (vkc_key_type)(VKC_KEY_BF16 + 1), keys, 8, indices64, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort64");
  /* argsort is stable: the unstable algorithms are refused. */
  vkc_sort_options* bitonic = sort_options(VKC_ALGORITHM_BITONIC, VKC_ORDER_ASCENDING);
  CHECK_FAILS(vkc_argsort(context, VKC_KEY_U32, keys, 8, indices, bitonic), VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort");
  CHECK(strstr(vkc_last_error(), "bitonic") != NULL);
  CHECK_OK(vkc_sort_options_set_algorithm(bitonic, VKC_ALGORITHM_BITONIC_TRANSPOSE));
  CHECK_FAILS(vkc_argsort64(context, VKC_KEY_U32, keys, 8, indices64, bitonic), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_argsort64");
  vkc_sort_options_destroy(bitonic);
  /* More keys than uint32 indices number: refused before anything is read. */
  CHECK_FAILS(vkc_argsort(context, VKC_KEY_U32, keys, (uint64_t)UINT32_MAX + 1, indices, NULL), VKC_ERROR_UNSUPPORTED,
              "vkc_argsort");
  CHECK_FAILS(vkc_argsort_streamed(context, VKC_KEY_U32, NULL, NULL, NULL, NULL, 8, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_argsort_streamed");
  CHECK(strstr(vkc_last_error(), "read_keys is NULL") != NULL);
  CHECK_FAILS(vkc_sort_streamed(NULL, VKC_KEY_U32, NULL, NULL, NULL, NULL, 8, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_sort_streamed");
  CHECK_FAILS(vkc_sort_pairs_streamed(context, VKC_KEY_U32, NULL, NULL, NULL, NULL, VKC_VALUE_U32, NULL, NULL, NULL,
                                      NULL, 8, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_sort_pairs_streamed");
  CHECK_FAILS(vkc_argsort64_streamed(context, (vkc_key_type)42, NULL, NULL, NULL, NULL, 8, NULL),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_argsort64_streamed");
  check_bad_bit_ranges(context, keys);
  /* Nothing above touched the keys. */
  CHECK(keys[0] == 5 && keys[7] == 6);
}

static void check_bad_nbody_arguments(vkc_context* context) {
  float positions[16] = {0}, velocities[16] = {0};
  vkc_nbody* simulation = (vkc_nbody*)positions;
  vkc_nbody_diagnostics diagnostics;
  vkc_nbody_view view;
  uint8_t rgba[4];
  CHECK_FAILS(vkc_nbody_initial_conditions((vkc_initial_conditions)3, 4, 1, positions, velocities),
              VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_initial_conditions");
  CHECK_FAILS(vkc_nbody_initial_conditions(VKC_IC_PLUMMER, 1, 1, positions, velocities), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_initial_conditions");
  CHECK_FAILS(vkc_nbody_initial_conditions(VKC_IC_COLLISION, 3, 1, positions, velocities), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_initial_conditions");
  CHECK_FAILS(vkc_nbody_initial_conditions(VKC_IC_CUBE, 4, 1, NULL, velocities), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_initial_conditions");
  CHECK_OK(vkc_nbody_initial_conditions(VKC_IC_CUBE, 4, 1, positions, velocities));
  CHECK_FAILS(vkc_nbody_create(NULL, positions, velocities, 4, 1, 0.01f, &simulation), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_create");
  CHECK(simulation == NULL);
  CHECK_FAILS(vkc_nbody_create(context, positions, velocities, 4, 1, 0.01f, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_create");
  CHECK_FAILS(vkc_nbody_create(context, NULL, velocities, 4, 1, 0.01f, &simulation), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_create");
  CHECK_FAILS(vkc_nbody_create(context, positions, velocities, 1, 1, 0.01f, &simulation), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_create");
  CHECK_FAILS(vkc_nbody_create(context, positions, velocities, 4, 0, 0.01f, &simulation), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_create");
  CHECK_FAILS(vkc_nbody_create(context, positions, velocities, 4, 1, 0, &simulation), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_create");
  CHECK(strstr(vkc_last_error(), "softening") != NULL);
  CHECK_FAILS(vkc_nbody_step(NULL, 0.01f, 1), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_step");
  CHECK_FAILS(vkc_nbody_get_state(NULL, positions, velocities, NULL), VKC_ERROR_INVALID_ARGUMENT,
              "vkc_nbody_get_state");
  CHECK_FAILS(vkc_nbody_set_state(NULL, positions, velocities), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_set_state");
  CHECK_FAILS(vkc_nbody_diagnose(NULL, &diagnostics), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_diagnose");
  CHECK_FAILS(vkc_nbody_fit_view(NULL, &view), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_fit_view");
  CHECK_FAILS(vkc_nbody_render(NULL, 1, 1, NULL, rgba), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_render");
  /* On a real simulation. */
  CHECK_OK(vkc_nbody_create(context, positions, velocities, 4, 1, 0.01f, &simulation));
  CHECK_FAILS(vkc_nbody_step(simulation, 0, 1), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_step");
  CHECK_FAILS(vkc_nbody_step(simulation, -1, 1), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_step");
  CHECK_FAILS(vkc_nbody_set_state(simulation, positions, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_set_state");
  CHECK_FAILS(vkc_nbody_diagnose(simulation, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_diagnose");
  CHECK_FAILS(vkc_nbody_fit_view(simulation, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_fit_view");
  CHECK_FAILS(vkc_nbody_render(simulation, 0, 1, NULL, rgba), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_render");
  CHECK_FAILS(vkc_nbody_render(simulation, 1, 1, NULL, NULL), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_render");
  view = (vkc_nbody_view){0, 0, 0, -1, 0};
  CHECK_FAILS(vkc_nbody_render(simulation, 1, 1, &view, rgba), VKC_ERROR_INVALID_ARGUMENT, "vkc_nbody_render");
  /* A state the library refuses (a negative mass): a failure, not a crash. */
  positions[3] = -1;
  CHECK_FAILS(vkc_nbody_set_state(simulation, positions, velocities), VKC_ERROR_FAILED, "vkc_nbody_set_state");
  vkc_nbody_destroy(simulation);
}

void case_bad_arguments(void) {
  vkc_context* context = test_context();
  check_bad_context_and_options();
  check_bad_sort_arguments(context);
  check_bad_nbody_arguments(context);
  /* Destroying NULL does nothing. */
  vkc_context_destroy(NULL);
  vkc_context_options_destroy(NULL);
  vkc_sort_options_destroy(NULL);
  vkc_nbody_destroy(NULL);
}
