"""One library call on a context: sort options, the progress callback, Ctrl-C and cancellation.

Without a progress callback (the user's, or the internal one that lets Ctrl-C cancel a long
sort), a call passes shared, never-modified sort options (or NULL for the defaults), so that a
small sort costs a handful of microseconds of Python. With one, the call gets its own options,
a single module-wide C trampoline that finds the call's state from its `user` pointer, and,
on the main thread, a SIGINT handler for the call's duration:

Python runs a signal's handler at the first bytecode it executes after the signal arrived. A
Ctrl-C that arrives while the library works (the GIL released) is therefore handled as the
progress callback is entered, before any `try` in it could catch the KeyboardInterrupt, and
ctypes would print and drop an exception that leaves a callback. The call's own SIGINT handler
runs the previous handler (Python's default raises KeyboardInterrupt) inside a `try`, keeps
what it raised, and the callback then cancels the sort; the exception is raised again when the
library has returned.
"""

from __future__ import annotations

import signal
import threading
from ctypes import byref, c_void_p

from ._capi import PROGRESS_FN, Error, check, last_error, lib, require
from ._context import in_callback

__all__ = ["invoke", "ALGORITHMS"]


# vkc_sort_algorithm
AUTO, BITONIC, BITONIC_TRANSPOSE, ODD_EVEN, RADIX = 0, 1, 2, 3, 4
ALGORITHMS = {"auto": AUTO, "bitonic": BITONIC, "bitonic_transpose": BITONIC_TRANSPOSE, "odd_even": ODD_EVEN, "radix": RADIX}

_shared_options = {}
_shared_lock = threading.Lock()


def _options_for(algorithm: int, descending: bool, bits):
    """Options shared by every call with this algorithm, order and bit range (None: the
    defaults). A few dozen at most: bit ranges are pairs of numbers up to 64."""
    if algorithm == AUTO and not descending and bits is None:
        return None
    key = (algorithm, descending, bits)
    opts = _shared_options.get(key)
    if opts is None:
        with _shared_lock:
            opts = _shared_options.get(key)
            if opts is None:
                opts = _new_options(algorithm, descending, bits)
                _shared_options[key] = opts
    return opts


def _new_options(algorithm: int, descending: bool, bits) -> int:
    handle = c_void_p()
    check(lib.vkc_sort_options_create(byref(handle)))
    try:
        if algorithm != AUTO:
            check(lib.vkc_sort_options_set_algorithm(handle, algorithm))
        if descending:
            check(lib.vkc_sort_options_set_order(handle, 1))
        if bits is not None:
            check(require("vkc_sort_options_set_bits")(handle, *bits))
    except BaseException:
        lib.vkc_sort_options_destroy(handle)
        raise
    return handle.value


class _Call:
    """What the trampoline needs to know about one call in progress."""

    __slots__ = ("progress", "error")

    def __init__(self, progress):
        self.progress = progress
        self.error = None


_active = {}  # id(_Call) -> _Call, for every call with a progress callback in flight


def _trampoline(user, done, total):
    call = _active.get(user)
    if call is None:
        return 0
    try:
        if call.error is not None:  # a signal handler caught Ctrl-C meanwhile
            return 1
        if call.progress is not None:
            call.progress(done, total)
        return 0
    except BaseException as e:  # KeyboardInterrupt too: kept, the sort cancelled, raised later
        if call.error is None:
            call.error = e
        return 1


_TRAMPOLINE = PROGRESS_FN(_trampoline)


def _install_sigint(call: _Call):
    """On the main thread, while Python handles SIGINT: a handler that runs the previous one
    and keeps what it raises in `call`. Returns the previous handler, or None if not installed."""
    if threading.current_thread() is not threading.main_thread():
        return None
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):  # SIG_IGN, SIG_DFL, or a handler not set from Python
        return None

    def handler(signum, frame):
        try:
            previous(signum, frame)
        except BaseException as e:
            if call.error is None:
                call.error = e

    try:
        signal.signal(signal.SIGINT, handler)
    except (ValueError, OSError):  # not the main interpreter
        return None
    return previous


def invoke(context, function, args, count: int, algorithm: int, descending: bool, progress, bits=None) -> None:
    """Calls `function(handle, *args, options)` on `context`; raises on failure. `bits` is a
    (begin_bit, end_bit) range, or None for the whole key.

    The internal progress callback is installed when the caller gave `progress` or the sort
    has at least the context's _cancel_check_min_elements elements."""
    handle = context._enter()
    try:
        if progress is None and count < context._cancel_check_min_elements:
            status = function(handle, *args, _options_for(algorithm, descending, bits))
            if status:
                check(status)
            return
        outer, in_callback.context = getattr(in_callback, "context", None), context
        try:
            _invoke_with_progress(handle, function, args, algorithm, descending, progress, bits)
        finally:
            in_callback.context = outer
    finally:
        context._leave()


def _invoke_with_progress(handle, function, args, algorithm, descending, progress, bits):
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable as progress(done, total), not {type(progress).__name__}")
    options = _new_options(algorithm, descending, bits)
    call = _Call(progress)
    key = id(call)
    try:
        check(lib.vkc_sort_options_set_progress(options, _TRAMPOLINE, key))
        _active[key] = call
        previous = _install_sigint(call)
        try:
            status = function(handle, *args, options)
            failure = Error(last_error() or "vkcompute: the sort failed", status) if status else None
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
            del _active[key]
    finally:
        lib.vkc_sort_options_destroy(options)
    error, call.error = call.error, None
    if error is not None:
        raise error
    if failure is not None:
        raise failure
