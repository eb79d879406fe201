// vkc.h and vkc_mpi.h compile as C++ (-Wall -Wextra -Werror -pedantic), their declarations with C
// linkage; vkc_mpi.h without mpi.h.
#include "vkc/vkc.h"
#include "vkc/vkc_mpi.h"

static_assert(VKC_ABI_VERSION == 1);
static_assert(VKC_MPI_ABI_VERSION == 1);
extern "C" vkc_status vkc_sort(vkc_context*, vkc_key_type, void*, uint64_t, const vkc_sort_options*);
extern "C" vkc_status vkc_mpi_sort(vkc_context*, vkc_mpi_fint, vkc_key_type, const void*, uint64_t,
                                   const vkc_sort_options*, vkc_mpi_slice**);
