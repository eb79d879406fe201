"""torch CPU tensors in, torch tensors out (zero copy both ways, through DLPack); GPU tensors
refused."""

import numpy as np
import pytest

import vkcompute

torch = pytest.importorskip("torch", reason="torch is not installed: the torch tests need it")


def _keys(dtype, n=1000, seed=0):
    g = torch.Generator().manual_seed(seed)
    if dtype.is_floating_point:
        return (torch.randn(n, generator=g) * 100).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(max(info.min, -(1 << 30)), min(info.max, 1 << 30), (n,), generator=g, dtype=torch.int64).to(dtype)


def test_a_cpu_tensor_sorts_into_a_tensor_like_numpy():
    for dtype in (torch.float32, torch.float64, torch.int32, torch.int64, torch.int16, torch.uint8, torch.int8, torch.float16):
        t = _keys(dtype)
        before = t.clone()
        result = vkcompute.sort(t)
        assert isinstance(result, torch.Tensor), dtype
        assert result.dtype == dtype and result.shape == t.shape
        np.testing.assert_array_equal(result.numpy(), np.sort(t.numpy()))
        assert torch.equal(t, before)
        descending = vkcompute.sort(t, descending=True)
        assert torch.equal(descending, torch.sort(t, descending=True, stable=True).values), dtype


def test_argsort_of_a_tensor_is_an_int64_tensor_of_the_stable_permutation():
    t = torch.randint(0, 7, (3000,), dtype=torch.int32)
    result = vkcompute.argsort(t)
    assert isinstance(result, torch.Tensor) and result.dtype == torch.int64
    assert torch.equal(result, torch.sort(t, stable=True).indices.to(torch.int64))
    np.testing.assert_array_equal(result.numpy(), np.argsort(t.numpy(), kind="stable"))


def test_the_result_shares_memory_with_a_numpy_array_zero_copy():
    t = _keys(torch.float32)
    result = vkcompute.sort(t)
    view = result.numpy()
    view[0] = 12345.0
    assert result[0].item() == 12345.0


def test_tensors_are_read_without_a_copy_and_never_written():
    t = _keys(torch.float64, 5000)
    from vkcompute._arrays import as_host_array

    arr, _ = as_host_array(t)
    assert arr.__array_interface__["data"][0] == t.data_ptr()
    before = t.clone()
    vkcompute.argsort(t)
    vkcompute.sort_pairs(t, torch.arange(5000))
    assert torch.equal(t, before)


def test_non_contiguous_and_grad_tensors_sort():
    t = _keys(torch.float32, 2000)[::2]
    assert not t.is_contiguous()
    np.testing.assert_array_equal(vkcompute.sort(t).numpy(), np.sort(t.numpy()))
    g = _keys(torch.float32, 100).requires_grad_(True)
    result = vkcompute.sort(g)
    assert isinstance(result, torch.Tensor) and not result.requires_grad
    np.testing.assert_array_equal(result.numpy(), np.sort(g.detach().numpy()))


def test_axis_none_of_a_2d_tensor():
    t = torch.randn(20, 30)
    result = vkcompute.sort(t, axis=None)
    assert isinstance(result, torch.Tensor) and tuple(result.shape) == (600,)
    np.testing.assert_array_equal(result.numpy(), np.sort(t.numpy(), axis=None))


def test_out_a_tensor_sorts_it_in_place():
    t = _keys(torch.int64, 777)
    expected = torch.sort(t).values
    assert vkcompute.sort(t, out=t) is t
    assert torch.equal(t, expected)


def test_pairs_of_tensors_come_back_as_tensors():
    keys = torch.randint(0, 50, (1000,), dtype=torch.int32)
    values = torch.arange(1000, dtype=torch.float32)
    sorted_keys, sorted_values = vkcompute.sort_pairs(keys, values, stable=True)
    assert isinstance(sorted_keys, torch.Tensor) and isinstance(sorted_values, torch.Tensor)
    order = torch.sort(keys, stable=True).indices
    assert torch.equal(sorted_keys, keys[order])
    assert torch.equal(sorted_values, values[order])
    bools = torch.rand(1000) > 0.5  # values of a dtype NumPy's DLPack import may lack
    _, sorted_bools = vkcompute.sort_pairs(keys, bools, stable=True)
    assert torch.equal(sorted_bools, bools[order])


def test_tensors_of_unsupported_dtypes_raise_type_error():
    for t in (torch.tensor([True, False]), torch.tensor([1 + 1j, 2j])):  # bfloat16: test_narrow.py
        with pytest.raises(TypeError):
            vkcompute.sort(t)


def test_gpu_tensors_raise_type_error_saying_to_call_cpu():
    if not torch.cuda.is_available():
        pytest.skip("no CUDA device for torch")
    t = torch.arange(10, device="cuda")
    with pytest.raises(TypeError, match=r"\.cpu\(\)"):
        vkcompute.sort(t)
    with pytest.raises(TypeError, match=r"\.cpu\(\)"):
        vkcompute.argsort(t)
    with pytest.raises(TypeError, match=r"\.cpu\(\)"):
        vkcompute.sort_pairs(t.cpu(), t)
    np.testing.assert_array_equal(vkcompute.sort(t.flip(0).cpu()).numpy(), np.arange(10))


def test_cupy_arrays_raise_type_error_saying_to_call_get():
    cupy = pytest.importorskip("cupy", reason="cupy is not installed")
    try:
        a = cupy.arange(10)
    except Exception as e:  # no CUDA device for CuPy
        pytest.skip(f"cupy has no device: {e}")
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        vkcompute.sort(a)
    np.testing.assert_array_equal(vkcompute.sort(a.get()[::-1]), np.arange(10))
