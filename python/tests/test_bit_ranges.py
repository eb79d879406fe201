"""begin_bit/end_bit: sorts by the bits of the ordered image alone, against a NumPy reference that
masks the same bits (reference.bit_range_order); and the ranges and algorithms refused."""

import numpy as np
import pytest

import vkcompute
from reference import bit_range_order, random_keys, with_nan_signs_cleared

# (dtype, begin_bit, end_bit): inside a digit, across digits, the sign bit alone, the low half,
# empty, the top digit to the end (end_bit None).
RANGES = [
    (np.uint32, 3, 29), (np.int32, 31, 32), (np.float32, 0, 16), (np.uint64, 17, 45), (np.int64, 60, None),
    (np.float64, 52, 64), (np.uint8, 2, 6), (np.int8, 0, 7), (np.uint16, 5, 5), (np.int16, 4, 12),
    (np.float16, 10, 16), (np.float16, 0, 3), (np.float16, 8, None),
]


def _check_range(a, begin_bit, end_bit, descending, key_type=None):
    end = 8 * a.dtype.itemsize if end_bit is None else end_bit
    order = bit_range_order(a, begin_bit, end, descending)
    options = dict(begin_bit=begin_bit, end_bit=end_bit, descending=descending, key_type=key_type)
    np.testing.assert_array_equal(vkcompute.argsort(a, **options), order)
    result = vkcompute.sort(a, **options)
    np.testing.assert_array_equal(result.view(f"u{a.itemsize}"), with_nan_signs_cleared(a[order]).view(f"u{a.itemsize}"))
    keys, values = vkcompute.sort_pairs(a, np.arange(a.size, dtype=np.uint32), **options)
    np.testing.assert_array_equal(values, order)


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("dtype,begin_bit,end_bit", RANGES,
                         ids=lambda v: np.dtype(v).name if isinstance(v, type) else str(v))
def test_a_bit_range_orders_by_the_masked_ordered_image(dtype, begin_bit, end_bit, descending, rng):
    _check_range(random_keys(rng, dtype, 20001), begin_bit, end_bit, descending)


@pytest.mark.parametrize("descending", [False, True], ids=["asc", "desc"])
def test_a_bit_range_of_bfloat16_bits(descending, rng):
    bits = rng.integers(0, 1 << 16, 20001, dtype=np.uint16)
    # The same bits of the float32 the bfloat16 keys widen to: 16 places up.
    order = bit_range_order((bits.astype(np.uint32) << 16).view(np.float32), 16 + 3, 16 + 14, descending)
    np.testing.assert_array_equal(vkcompute.argsort(bits, key_type="bfloat16", begin_bit=3, end_bit=14,
                                                    descending=descending), order)


def test_the_whole_key_is_the_plain_sort_for_any_algorithm(rng):
    a = random_keys(rng, np.int16, 3000)
    plain = vkcompute.sort(a, kind="bitonic")
    np.testing.assert_array_equal(vkcompute.sort(a, kind="bitonic", begin_bit=0, end_bit=16), plain)
    np.testing.assert_array_equal(vkcompute.sort(a, kind="odd_even", end_bit=None), plain)


def test_an_int16_range_without_the_sign_bit_does_not_see_the_sign():
    # The documented surprise (as in CUB): under [0, 8), -1 (0xFFFF, image 0x7FFF) and 255
    # (0x00FF, image 0x80FF) are equal keys, both 0xFF, and keep their input order.
    a = np.array([255, -1, 0, 1], np.int16)
    np.testing.assert_array_equal(vkcompute.argsort(a, begin_bit=0, end_bit=8), [2, 3, 0, 1])


@pytest.mark.parametrize("begin_bit,end_bit", [(9, 8), (-1, 8), (0, 17), (17, None), (0, 1 << 40)])
def test_ranges_outside_the_key_raise_value_error(begin_bit, end_bit):
    a = np.zeros(8, np.uint16)
    for function in (vkcompute.sort, vkcompute.argsort):
        with pytest.raises(ValueError, match="0 <= begin_bit <= end_bit <= 16"):
            function(a, begin_bit=begin_bit, end_bit=end_bit)
    with pytest.raises(ValueError):
        vkcompute.sort_pairs(a, np.zeros(8, np.uint32), begin_bit=begin_bit, end_bit=end_bit)


def test_ranges_that_are_not_integers_raise_type_error():
    with pytest.raises(TypeError):
        vkcompute.sort(np.zeros(8, np.uint16), begin_bit=1.5)
    with pytest.raises(TypeError):
        vkcompute.argsort(np.zeros(8, np.uint16), end_bit="8")


@pytest.mark.parametrize("kind", ["bitonic", "bitonic_transpose", "odd_even"])
def test_a_range_with_another_algorithm_than_radix_raises_value_error(kind):
    a = np.zeros(8, np.float32)
    with pytest.raises(ValueError, match="radix only"):
        vkcompute.sort(a, kind=kind, end_bit=16)
    with pytest.raises(ValueError, match="radix only"):
        vkcompute.sort_pairs(a, np.zeros(8, np.uint32), kind=kind, begin_bit=1)
    if kind == "odd_even":  # argsort refuses the unstable ones by themselves
        with pytest.raises(ValueError, match="radix only"):
            vkcompute.argsort(a, kind=kind, begin_bit=4)


@pytest.mark.parametrize("kind", [None, "stable", "radix", "quicksort"])
def test_a_range_sorts_with_the_radix_kinds(kind, rng):
    a = random_keys(rng, np.uint32, 5000)
    expected = a[bit_range_order(a, 8, 24)]
    np.testing.assert_array_equal(vkcompute.sort(a, kind=kind, begin_bit=8, end_bit=24), expected)


def test_a_range_with_progress_goes_through_the_options_of_its_own(rng):
    a = random_keys(rng, np.int8, 4000)
    seen = []
    result = vkcompute.sort(a, begin_bit=1, end_bit=7, descending=True, progress=lambda done, total: seen.append(done))
    np.testing.assert_array_equal(result, a[bit_range_order(a, 1, 7, True)])
    assert seen
