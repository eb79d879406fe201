"""Threads, progress callbacks, cancellation and Ctrl-C."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import vkcompute
from reference import assert_same_keys, random_keys, sorted_reference, stable_order


def test_two_threads_sort_at_once(rng):
    arrays = [random_keys(rng, np.float32, 200_003), random_keys(rng, np.int64, 150_001)]
    results = [None, None]
    errors = []
    barrier = threading.Barrier(2)

    def work(i):
        try:
            barrier.wait()
            for _ in range(3):
                results[i] = (vkcompute.sort(arrays[i], descending=bool(i)), vkcompute.argsort(arrays[i]))
        except BaseException as e:  # noqa: B902: reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert_same_keys(results[0][0], sorted_reference(arrays[0]))
    np.testing.assert_array_equal(results[0][1], stable_order(arrays[0]))
    assert_same_keys(results[1][0], sorted_reference(arrays[1], descending=True))
    np.testing.assert_array_equal(results[1][1], stable_order(arrays[1]))


def test_threads_on_two_contexts_sort_at_once(rng):
    a = rng.random(100_000)
    with vkcompute.Context(quiet=True) as other:
        out = {}
        t = threading.Thread(target=lambda: out.setdefault("other", vkcompute.sort(a, context=other)))
        t.start()
        mine = vkcompute.sort(a)
        t.join()
        assert other.take_validation_messages() == []
    np.testing.assert_array_equal(out["other"], np.sort(a))
    np.testing.assert_array_equal(mine, np.sort(a))


def test_the_gil_is_released_while_the_library_sorts(rng):
    # Sorts until a tenth of a second has passed inside the library (a GPU sorts this array in
    # a few milliseconds, lavapipe in hundreds), while another thread ticks every millisecond:
    # it can tick inside a call only if the call released the GIL.
    a = rng.random((1 << 20) + 3)
    ticks, calls = [], []
    done = threading.Event()

    def count():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    try:
        while sum(end - start for start, end in calls) < 0.1:
            start = time.perf_counter()
            vkcompute.sort(a)
            calls.append((start, time.perf_counter()))
    finally:
        done.set()
        t.join()
    during = sum(1 for x in ticks if any(start < x < end for start, end in calls))
    assert during >= 5, f"the other thread ran {during} times during {len(calls)} sorts"


@pytest.mark.parametrize("n", [1000, (1 << 20) + 3])
def test_progress_is_called_up_to_the_total(n, rng):
    calls = []
    a = rng.random(n).astype(np.float32)
    result = vkcompute.sort(a, progress=lambda done, total: calls.append((done, total)))
    np.testing.assert_array_equal(result, np.sort(a))
    assert len(calls) >= 2
    totals = {total for _, total in calls}
    assert len(totals) == 1 and totals.pop() > 0
    assert calls[-1][0] == calls[-1][1]
    assert all(b[0] >= a[0] for a, b in zip(calls, calls[1:]))


@pytest.mark.parametrize("function", ["sort", "argsort", "sort_pairs"])
def test_an_exception_from_progress_cancels_and_is_raised_with_the_input_as_it_was(function, rng):
    class Stop(Exception):
        pass

    a = rng.random(5000)
    before = a.copy()
    raised = Stop("from progress")

    def progress(done, total):
        raise raised

    with pytest.raises(Stop) as info:
        if function == "sort_pairs":
            vkcompute.sort_pairs(a, np.arange(5000, dtype=np.int64), progress=progress)
        else:
            getattr(vkcompute, function)(a, progress=progress)
    assert info.value is raised
    np.testing.assert_array_equal(a, before)


def test_keyboard_interrupt_from_progress_propagates_as_keyboard_interrupt(rng):
    a = rng.random(5000)
    before = a.copy()

    def progress(done, total):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        vkcompute.sort(a, progress=progress)
    np.testing.assert_array_equal(a, before)
    np.testing.assert_array_equal(vkcompute.sort(a), np.sort(a))  # the context still sorts


def test_progress_that_is_not_callable_raises_type_error():
    with pytest.raises(TypeError):
        vkcompute.sort(np.zeros(10), progress=3)


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(), reason="signals reach the main thread")
@pytest.mark.parametrize("user_progress", [False, True], ids=["internal", "user"])
def test_ctrl_c_while_the_library_sorts_raises_keyboard_interrupt(user_progress, rng):
    # SIGINT arrives while the library works (the GIL released, no Python running): with
    # 2^20 keys or more the internal progress callback is installed, so it cancels the sort.
    a = rng.random((1 << 20) + 3)
    before = a.copy()
    killer = []

    def progress(done, total):
        if not killer:
            t = threading.Thread(target=lambda: (time.sleep(0.02), os.kill(os.getpid(), signal.SIGINT)))
            killer.append(t)
            t.start()

    if not user_progress:
        threading.Timer(0.02, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt):
        vkcompute.sort(a, progress=progress if user_progress else None)
        time.sleep(1)  # a sort that ended before the signal: Python raises it here
    for t in killer:
        t.join()
    np.testing.assert_array_equal(a, before)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_progress_callback_calling_into_the_sorting_context_raises_instead_of_waiting_for_ever(rng):
    a = rng.random(1000)
    inner = []

    def progress(done, total):
        try:
            vkcompute.sort(a[:10])
        except RuntimeError as e:
            inner.append(e)
            raise

    with pytest.raises(RuntimeError, match="progress callback"):
        vkcompute.sort(a, progress=progress)
    assert inner
    np.testing.assert_array_equal(vkcompute.sort(a), np.sort(a))  # the context still sorts


def test_a_progress_callback_may_sort_on_another_context(rng):
    a = rng.random(1000)
    results = []
    with vkcompute.Context(quiet=True) as other:
        def progress(done, total):
            if not results:
                results.append(vkcompute.sort(a[:100], context=other, progress=lambda d, t: None))

        np.testing.assert_array_equal(vkcompute.sort(a, progress=progress), np.sort(a))
        assert other.take_validation_messages() == []
    np.testing.assert_array_equal(results[0], np.sort(a[:100]))
