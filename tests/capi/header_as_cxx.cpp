// vkc.h compiles as C++ (-Wall -Wextra -Werror -pedantic), its declarations with C linkage.
#include "vkc/vkc.h"

static_assert(VKC_ABI_VERSION == 1);
extern "C" vkc_status vkc_sort(vkc_context*, vkc_key_type, void*, uint64_t, const vkc_sort_options*);
