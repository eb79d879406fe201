// The library internals that `vkc bench` (the vkc-bench program) measures by design, and the only
// private headers of the library that its commands include; vkc itself (tools/vkc) uses include/vkc
// alone.
// The benchmarks need the sort's own recording entry and algorithm list (sorting::record,
// sorting::available), the barrier-tracking Recorder with the shader copy that gives each timed
// run fresh input, the raw device state behind the transfer copy bound (a pinned buffer), the
// checks that verify large outputs without a CPU sort (verify.hpp, beside this file), and the key
// table's ordered images cut to a bit range (key_bits.hpp), the reference order of a sort by
// SortOptions::begin_bit and end_bit, the segmented sort's recording (segmented.hpp), and the
// partition of the sorts on a DeviceSet, timed on its own (device_set_sort.hpp).
#pragma once

#include "core/kernels.hpp"
#include "core/loader.hpp"
#include "core/recorder.hpp"
#include "core/state.hpp"
#include "sort/algorithm.hpp"
#include "sort/device_set_sort.hpp"
#include "sort/key_bits.hpp"
#include "sort/record.hpp"
#include "sort/segmented.hpp"
#include "sort/workspace.hpp"
#include "verify.hpp"
