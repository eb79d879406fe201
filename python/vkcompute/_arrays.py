"""Array handling: any host array NumPy can view, the key types, and results of the input's kind."""

from __future__ import annotations

import numpy as np

__all__ = ["as_host_array", "as_writable_array", "refuse_device_array", "key_plan", "wrap_result", "AxisError", "KEY_TYPES_TEXT"]

try:  # NumPy 2
    AxisError = np.exceptions.AxisError
except AttributeError:  # NumPy 1.x
    AxisError = np.AxisError

class KeyType:
    """One vkc_key_type: its number, its NumPy-style name, the library's short one, its width."""

    __slots__ = ("number", "name", "short", "bits")

    def __init__(self, number, name, short, bits):
        self.number, self.name, self.short, self.bits = number, name, short, bits


# Every vkc_key_type; bfloat16, which NumPy lacks, is read from 16-bit integers or torch.bfloat16.
_ALL_KEY_TYPES = [KeyType(n, name, short, bits) for n, name, short, bits in (
    (0, "uint32", "u32", 32), (1, "int32", "i32", 32), (2, "float32", "f32", 32),
    (3, "uint64", "u64", 64), (4, "int64", "i64", 64), (5, "float64", "f64", 64),
    (6, "uint8", "u8", 8), (7, "int8", "i8", 8), (8, "uint16", "u16", 16),
    (9, "int16", "i16", 16), (10, "float16", "f16", 16), (11, "bfloat16", "bf16", 16))]
# The key type of each dtype that is one, by (kind, itemsize).
_BY_DTYPE = {(t.name[0], t.bits // 8): t for t in _ALL_KEY_TYPES if t.name != "bfloat16"}
# key_type= takes either name.
_BY_NAME = {name: t for t in _ALL_KEY_TYPES for name in (t.name, t.short)}

KEY_TYPES_TEXT = (
    "uint8, int8, uint16, int16, float16, uint32, int32, float32, uint64, int64, float64, and "
    "bfloat16 (a torch.bfloat16 tensor, or its bits in a uint16 array with key_type='bfloat16')"
)

# DLPack device types that hold host memory NumPy can read.
_DL_HOST_DEVICES = (1, 3, 11)  # kDLCPU, kDLCUDAHost, kDLROCMHost
_DL_DEVICE_NAMES = {2: "a CUDA GPU", 4: "an OpenCL device", 7: "a Vulkan device", 8: "a Metal device", 9: "a VPI device",
                    10: "a ROCm GPU", 12: "an external device", 13: "CUDA managed memory", 14: "a oneAPI device",
                    15: "a WebGPU device", 16: "a Hexagon device"}

_GPU_HINT = (
    "vkcompute sorts host arrays (it moves them to the GPU itself); this one is on {where}. "
    "Copy it to the host first: tensor.cpu() in PyTorch, array.get() or cupy.asnumpy(array) in CuPy"
)


class Kind:
    """What the caller gave, so that the result can come back as the same kind where cheap."""

    NUMPY = 0
    TORCH = 1
    TORCH_BFLOAT16 = 2  # a torch.bfloat16 tensor, seen as its bits (uint16)


def _is_torch(obj) -> bool:
    return type(obj).__module__.startswith("torch") and hasattr(obj, "is_cuda")


def refuse_device_array(obj) -> None:
    """TypeError for arrays in GPU memory (torch CUDA tensors, CuPy arrays, other DLPack devices)."""
    if _is_torch(obj):
        device = getattr(obj, "device", None)
        if obj.is_cuda or (device is not None and getattr(device, "type", "cpu") != "cpu"):
            raise TypeError(_GPU_HINT.format(where=f"torch device {device}"))
        return
    module = type(obj).__module__
    if module.startswith("cupy") or hasattr(obj, "__cuda_array_interface__"):
        raise TypeError(_GPU_HINT.format(where="a CUDA GPU"))
    dlpack_device = getattr(obj, "__dlpack_device__", None)
    if dlpack_device is not None:
        try:
            device_type = int(dlpack_device()[0])
        except Exception:
            return
        if device_type not in _DL_HOST_DEVICES:
            where = _DL_DEVICE_NAMES.get(device_type, f"DLPack device type {device_type}")
            raise TypeError(_GPU_HINT.format(where=where))


def as_host_array(obj):
    """(ndarray viewing obj without a copy where NumPy can, the Kind of obj).

    NumPy arrays come through as they are; torch CPU tensors through DLPack (a torch.bfloat16
    one as its bits, a uint16 view, Kind.TORCH_BFLOAT16); anything else through np.asarray
    (the buffer protocol, __array__, __array_interface__, sequences).
    Arrays on a GPU raise TypeError."""
    if type(obj) is np.ndarray:
        return obj, Kind.NUMPY
    if isinstance(obj, np.ndarray):  # subclasses (np.memmap, ...): the plain array view
        return obj.view(np.ndarray), Kind.NUMPY
    refuse_device_array(obj)
    if _is_torch(obj):
        tensor = obj.detach()
        if _is_torch_bfloat16(tensor):
            return _bfloat16_bits(tensor), Kind.TORCH_BFLOAT16
        try:
            return _from_dlpack(tensor), Kind.TORCH
        except (TypeError, ValueError, RuntimeError, BufferError, AttributeError):
            # a dtype DLPack or NumPy cannot carry (bool, bfloat16, complex with conj bit...)
            raise TypeError(f"vkcompute sorts {KEY_TYPES_TEXT} keys; got a torch tensor of {obj.dtype}") from None
    if hasattr(obj, "__dlpack__") and not hasattr(obj, "__array_interface__") and not hasattr(obj, "__array__"):
        try:
            return _from_dlpack(obj), Kind.NUMPY
        except (TypeError, ValueError, RuntimeError, BufferError, AttributeError):
            pass
    return np.asarray(obj), Kind.NUMPY


def _is_torch_bfloat16(tensor) -> bool:
    return str(tensor.dtype) == "torch.bfloat16"


def _bfloat16_bits(tensor):
    """A torch.bfloat16 CPU tensor's bits as a uint16 ndarray, zero copy (NumPy has no bfloat16,
    so neither DLPack nor .numpy() carries the tensor itself)."""
    import torch

    return tensor.view(torch.int16).numpy().view(np.uint16)


def _from_dlpack(obj):
    from_dlpack = getattr(np, "from_dlpack", None)
    if from_dlpack is None:  # NumPy < 1.22
        return np.asarray(obj)
    return from_dlpack(obj)


def as_writable_array(obj, name: str = "out"):
    """A writeable ndarray viewing obj (for out=); ValueError if it cannot be written."""
    if isinstance(obj, np.ndarray):
        arr = obj.view(np.ndarray) if type(obj) is not np.ndarray else obj
    elif _is_torch(obj):
        refuse_device_array(obj)
        if obj.requires_grad:
            raise ValueError(f"{name}: a tensor that requires grad cannot be written in place")
        try:
            # writeable and zero copy, unlike DLPack under NumPy 1.x
            arr = _bfloat16_bits(obj) if _is_torch_bfloat16(obj) else obj.numpy()
        except (TypeError, RuntimeError) as e:
            raise TypeError(f"{name}: {e}") from None
    else:
        refuse_device_array(obj)
        try:
            arr = np.asarray(memoryview(obj))
        except TypeError:
            raise TypeError(f"{name} must be a NumPy array, a torch CPU tensor or a writeable buffer, "
                            f"not {type(obj).__name__}") from None
    if not arr.flags.writeable:
        raise ValueError(f"{name} is read-only")
    return arr


class KeyPlan:
    """How keys of one dtype are sorted: the vkc_key_type, and the dtype the library sees."""

    __slots__ = ("key_type", "name", "bits", "work_dtype", "swapped")

    def __init__(self, key_type: KeyType, work_dtype, swapped):
        self.key_type = key_type.number
        self.name = key_type.name
        self.bits = key_type.bits  # what end_bit=None means
        self.work_dtype = work_dtype  # native-order dtype the library sorts
        self.swapped = swapped  # the input is not in native byte order


_plans = {}


def key_plan(dtype: np.dtype, key_type=None) -> KeyPlan:
    """The KeyPlan for keys of `dtype`, read as `key_type` (a name of _BY_NAME) where given;
    TypeError naming the supported dtypes otherwise."""
    plan = _plans.get((dtype, key_type))
    if plan is not None:
        return plan
    number_dtype = dtype.fields is None and dtype.subdtype is None and dtype.kind in "uif"
    if key_type is None:
        chosen = _BY_DTYPE.get((dtype.kind, dtype.itemsize)) if number_dtype else None
        if chosen is None:
            raise TypeError(f"vkcompute sorts {KEY_TYPES_TEXT} keys, not {dtype}")
    else:
        chosen = _named_key_type(key_type)
        if not number_dtype or dtype.itemsize * 8 != chosen.bits:
            raise TypeError(f"key_type={key_type!r} reads the bits of {chosen.bits // 8}-byte integers or floats, "
                            f"not of {dtype}")
    swapped = not dtype.isnative
    plan = KeyPlan(chosen, dtype.newbyteorder("=") if swapped else dtype, swapped)
    _plans[(dtype, key_type)] = plan
    return plan


def _named_key_type(name) -> KeyType:
    if not isinstance(name, str):
        raise TypeError(f"key_type must be a string such as 'bfloat16' or None, not {type(name).__name__}")
    chosen = _BY_NAME.get(name)
    if chosen is None:
        names = ", ".join(repr(t.name) for t in _ALL_KEY_TYPES)
        raise ValueError(f"key_type must be one of {names} (or their short names 'u8' ... 'bf16'), not {name!r}")
    return chosen


def wrap_result(arr, kind):
    """The result as the kind the caller gave: a torch tensor for a torch tensor (zero copy), of
    bfloat16 for the bits of a bfloat16 tensor."""
    if kind == Kind.TORCH_BFLOAT16 and arr.dtype == np.uint16:
        import torch

        return torch.from_numpy(arr.view(np.int16)).view(torch.bfloat16)
    if kind in (Kind.TORCH, Kind.TORCH_BFLOAT16):
        import torch

        try:
            return torch.from_numpy(arr)
        except TypeError:  # a dtype torch.from_numpy lacks (uint16 before torch 2.3, ...)
            return torch.from_dlpack(arr)
    return arr
