// Sort elements and the compare-exchange of bitonic networks: an element is an ordered key of
// one or two words (keys.glsl's to_ordered form) plus zero, one or two payload words.
#ifndef VKC_COMPARE_EXCHANGE_GLSL
#define VKC_COMPARE_EXCHANGE_GLSL

// k0 is the low word of the ordered key, k1 the high word (0 for one-word keys); v0, v1 the value.
// A three-word comparison (key_words 3) orders by k1, k0, then v0: a 64-bit key and a tie-break.
struct Elem {
  uint k0;
  uint k1;
  uint v0;
  uint v1;
};

// Whether a sorts after b. key_words is a specialization constant: the unused branch folds away.
bool elem_after(Elem a, Elem b, uint key_words) {
  if (key_words == 1u) return a.k0 > b.k0;
  if (key_words == 3u && a.k1 == b.k1 && a.k0 == b.k0) return a.v0 > b.v0;
  return a.k1 > b.k1 || (a.k1 == b.k1 && a.k0 > b.k0);
}

// The network's order at stage `stage` for global position q: ascending unless bit `stage` of q
// differs from that bit of n - 1. This is the classic direction mask with the block that holds
// the last real element always ascending, so a comparator that reaches past n (into virtual
// +inf padding) would leave the padding where it is: such comparators are skipped, and no real
// element ever moves to a position >= n.
bool ascending_at(uint q, uint stage, uint n) {
  return stage >= 32u || (((q ^ (n - 1u)) >> stage) & 1u) == 0u;
}

// Compare-exchange with the padding check folded into the data, for networks whose padding
// positions hold maximal keys (all ones): a comparator reaching past n lies in an ascending block
// (see ascending_at), and since equal keys never swap, nothing ever moves past maximal padding.
// `descending` is the direction of the comparator's block. With keys alone (no values) the pair
// is simply (min, max): which of two equal keys goes where cannot be seen.
void order_pair(inout Elem lo, inout Elem hi, bool descending, uint key_words, bool keys_only) {
  if (key_words == 1u && keys_only) {
    const uint small = min(lo.k0, hi.k0), large = max(lo.k0, hi.k0);
    lo.k0 = descending ? large : small;
    hi.k0 = descending ? small : large;
    return;
  }
  if (descending ? elem_after(hi, lo, key_words) : elem_after(lo, hi, key_words)) {
    const Elem t = lo;
    lo = hi;
    hi = t;
  }
}

// order_pair for two invocations: each holds one side and keeps the smaller element when
// `keep_smaller` (the lower side of an ascending pair, the upper side of a descending one);
// both sides reach the same decision, so equal keys stay where they are.
Elem keep_smaller_or_larger(Elem mine, Elem other, bool keep_smaller, uint key_words, bool keys_only) {
  if (key_words == 1u && keys_only) {
    mine.k0 = keep_smaller ? min(mine.k0, other.k0) : max(mine.k0, other.k0);
    return mine;
  }
  return (keep_smaller ? elem_after(mine, other, key_words) : elem_after(other, mine, key_words)) ? other : mine;
}

// One side of a compare-exchange whose two elements live in different invocations: `mine` is
// this invocation's element, `other` its partner's; both sides compute the same decision.
Elem keep_or_take(Elem mine, Elem other, bool mine_is_lower, bool ascending, bool hi_is_real, uint key_words) {
  const Elem lo = mine_is_lower ? mine : other;
  const Elem hi = mine_is_lower ? other : mine;
  const bool out_of_order = ascending ? elem_after(lo, hi, key_words) : elem_after(hi, lo, key_words);
  return (hi_is_real && out_of_order) ? other : mine;
}

#endif
