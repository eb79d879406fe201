// Keys of 8 and 16 bits (KeyRow::narrow): every algorithm sorts them as their ordered images,
// one 32-bit word per key, which a pass before the sort makes from the packed keys and a pass
// after it turns back. The algorithm's own temporary storage comes first in the temporary
// buffer, the images after it.
#pragma once

#include "sort/algorithm.hpp"

namespace vkc::sorting {

/// `inner` (an algorithm of 32-bit keys) wrapped for the narrow key types: what choose() returns
/// for them.
const Algorithm& for_narrow_keys(const Algorithm& inner);

/// The sort that the wrapped algorithm runs on the images of desc's narrow keys: 32-bit keys,
/// ascending (the images hold the order), the bit range cut to the key's width.
SortDesc image_desc(SortDesc desc);

}  // namespace vkc::sorting
