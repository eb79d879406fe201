"""Devices, contexts and the library's errors."""

import dataclasses
import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import numpy as np
import pytest

import vkcompute


def test_devices_lists_at_least_the_one_the_default_context_uses():
    devices = vkcompute.devices()
    assert devices, "no Vulkan device"
    ctx = vkcompute.default_context()
    assert ctx.device in devices
    assert ctx.device.index == vkcompute.choose_device()
    for d in devices:
        assert d.name and d.subgroup_size >= 1 and d.api_version >= (1, 2, 0)
        assert d.type in ("discrete_gpu", "integrated_gpu", "virtual_gpu", "cpu", "other")


def test_the_default_context_is_created_once():
    assert vkcompute.default_context() is vkcompute.default_context()


def test_default_context_is_shared_by_threads():
    seen = []
    threads = [threading.Thread(target=lambda: seen.append(vkcompute.default_context())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert all(c is seen[0] for c in seen)


def test_a_bad_device_name_raises_error_with_its_status():
    with pytest.raises(vkcompute.Error) as info:
        vkcompute.Context(device="no such device")
    assert info.value.status == vkcompute.Status.NO_DEVICE
    assert isinstance(info.value, RuntimeError)
    assert "no such device" in str(info.value)
    with pytest.raises(vkcompute.Error) as info:
        vkcompute.choose_device("no such device")
    assert info.value.status == vkcompute.Status.NO_DEVICE


def test_an_explicit_context_sorts_and_closes(rng):
    a = rng.random(1000).astype(np.float32)
    # validation= explicitly, where the layer is there (CTest's runs); a GPU machine may lack it.
    validation = os.environ.get("VKC_VALIDATION") == "1"
    with vkcompute.Context(device=str(vkcompute.choose_device()), memory_limit=64 << 20, pipeline_cache="off",
                           validation=validation, quiet=True, host_threads=2) as ctx:
        np.testing.assert_array_equal(vkcompute.sort(a, context=ctx), np.sort(a))
        np.testing.assert_array_equal(vkcompute.argsort(a, context=ctx), np.argsort(a, kind="stable"))
        ctx.release_cached_memory()
        np.testing.assert_array_equal(vkcompute.sort(a, descending=True, context=ctx), np.sort(a)[::-1])
        assert ctx.take_validation_messages() == []
    assert ctx.closed
    with pytest.raises(ValueError, match="closed"):
        vkcompute.sort(a, context=ctx)
    ctx.close()  # twice: nothing


def test_bad_context_arguments_raise_type_or_value_errors():
    with pytest.raises(TypeError):
        vkcompute.Context(device=1.5)
    with pytest.raises(ValueError):
        vkcompute.Context(memory_limit=-1)
    with pytest.raises(TypeError):
        vkcompute.Context(memory_limit="1G")


def test_library_facts():
    assert vkcompute.ABI_VERSION == 1
    assert vkcompute.version().count(".") == 2
    assert vkcompute.__version__ == vkcompute.version()
    assert vkcompute.library_path


def test_every_status_has_the_library_name():
    from vkcompute._capi import lib

    for status in vkcompute.Status:
        assert lib.vkc_status_name(int(status)).decode() == ("VKC_OK" if status == 0 else "VKC_ERROR_" + status.name)


def test_errors_pickle_with_their_status():
    import pickle

    e = pickle.loads(pickle.dumps(vkcompute.Error("vkc_x: out of memory", vkcompute.Status.OUT_OF_MEMORY)))
    assert isinstance(e, vkcompute.Error) and e.status == vkcompute.Status.OUT_OF_MEMORY
    assert str(e) == e.message == "vkc_x: out of memory"


def vkc_program():
    """The vkc tool of this build (beside build/python), else the one on PATH."""
    beside = Path(vkcompute.__file__).resolve().parents[2] / "vkc"
    found = str(beside) if beside.is_file() else shutil.which("vkc")
    if not found:
        pytest.skip("no vkc program to compare with")
    return found


def test_every_device_has_its_pci_facts_or_none():
    for d in vkcompute.devices():
        if d.pci is None:
            continue
        assert isinstance(d.pci, vkcompute.PciInfo) and isinstance(d.pci.address, str) and d.pci.address
        for name in ("numa_node", "link_width", "max_link_width"):
            value = getattr(d.pci, name)
            assert value is None or (isinstance(value, int) and value >= 0), (name, value)
        for name in ("link_speed", "max_link_speed"):
            value = getattr(d.pci, name)
            assert value is None or (isinstance(value, str) and value), (name, value)
    assert vkcompute.default_context().device.pci == vkcompute.devices()[vkcompute.choose_device()].pci


def test_pci_facts_agree_with_vkc_info_json():
    listed = json.loads(subprocess.run([vkc_program(), "info", "--json"], check=True, capture_output=True,
                                       text=True, timeout=120).stdout)
    devices = vkcompute.devices()
    assert [d["index"] for d in listed] == [d.index for d in devices]
    for entry, d in zip(listed, devices):
        expected = entry["pci"]
        assert (d.pci is None) == (expected is None), (entry["name"], d.pci, expected)
        if expected is not None:
            assert dataclasses.asdict(d.pci) == expected
