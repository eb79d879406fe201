"""Arrays past lavapipe's 128 MiB storage range, sorted out of core (in runs, merged) through the
library. Marked `large`: they run only where VKC_PYTHON_LARGE_TESTS=1 (CTest's registration at
subgroup size 8), keeping the other runs short."""

import numpy as np
import pytest

import vkcompute


@pytest.mark.large
def test_sort_past_128_mib_matches_numpy(rng):
    n = (1 << 25) + 3  # 128 MiB + 12 bytes of uint32
    a = rng.integers(0, 1 << 32, size=n, dtype=np.uint64).astype(np.uint32)
    assert a.nbytes > vkcompute.default_context().device.max_storage_buffer_range or \
        vkcompute.default_context().device.type != "cpu"
    calls = []
    result = vkcompute.sort(a, progress=lambda done, total: calls.append((done, total)))
    expected = np.sort(a)
    np.testing.assert_array_equal(result, expected)
    assert calls and calls[-1][0] == calls[-1][1]
