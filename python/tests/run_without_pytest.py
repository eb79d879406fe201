#!/usr/bin/env python3
"""Runs test modules of this folder without pytest, where pytest is missing (the GPU machine):

    PYTHONPATH=build/python python3 python/tests/run_without_pytest.py [test_torch.py ...]

(default: test_torch.py). A small stand-in for the part of pytest the tests use (importorskip,
skip, raises, approx, mark.parametrize and mark.skipif) and for the fixtures `rng` and `tmp_path`
(a test that needs another fixture is skipped); each test function runs once per parameter set. Prints one
line per test and 'N passed, N failed, N skipped'; exits 1 if any failed.
"""

import contextlib
import inspect
import itertools
import math
import os
import re
import sys
import tempfile
import traceback
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent


class Skipped(Exception):
    pass


def _make_pytest_stand_in():
    pytest = types.ModuleType("pytest")
    pytest.__stand_in__ = True

    def importorskip(name, reason=None, **_):
        try:
            __import__(name)
        except ImportError:
            raise Skipped(reason or f"{name} is not installed") from None
        return sys.modules[name]

    def skip(reason=""):
        raise Skipped(reason)

    @contextlib.contextmanager
    def raises(expected, match=None):
        info = types.SimpleNamespace(value=None, type=None)
        try:
            yield info
        except expected as e:
            if match is not None and not re.search(match, str(e)):
                raise AssertionError(f"{e!r} does not match {match!r}") from e
            info.value, info.type = e, type(e)
        else:
            raise AssertionError(f"did not raise {expected}")

    def approx(expected, rel=1e-6, abs=1e-12):
        class Approx:
            def __eq__(self, other):
                return math.isclose(other, expected, rel_tol=rel, abs_tol=abs)

        return Approx()

    class Mark:
        def parametrize(self, names, values, ids=None):
            names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)

            def decorate(f):
                sets = [v if len(names) > 1 else (v,) for v in values]
                f.__params__ = [dict(zip(names, s)) for s in sets] if not hasattr(f, "__params__") else [
                    {**a, **dict(zip(names, s))} for a, s in itertools.product(f.__params__, sets)]
                return f

            return decorate

        def skipif(self, condition, reason=""):
            def decorate(f):
                if condition:
                    f.__skip__ = reason
                return f

            return decorate

        def __getattr__(self, name):  # other markers: labels only
            return lambda *a, **k: (a[0] if len(a) == 1 and callable(a[0]) and not k else (lambda f: f))

    pytest.importorskip, pytest.skip, pytest.raises, pytest.approx = importorskip, skip, raises, approx
    pytest.mark = Mark()
    pytest.fixture = lambda *a, **k: (a[0] if a and callable(a[0]) else (lambda f: f))
    return pytest


def _short(value) -> str:
    if isinstance(value, type):
        return value.__name__
    if hasattr(value, "shape") and hasattr(value, "dtype"):
        return f"{value.dtype}{list(value.shape)}"
    text = str(value)
    return text if len(text) <= 20 else text[:17] + "..."


def _is_skip(e: BaseException) -> bool:
    """This stand-in's Skipped, or pytest's own skip outcome (a BaseException named Skipped)."""
    return isinstance(e, Skipped) or type(e).__name__ == "Skipped"


def _fixtures(name):
    import numpy as np

    seed = sum((i + 1) * ord(c) for i, c in enumerate(name)) % (1 << 32)
    return {"rng": lambda: np.random.default_rng(seed), "tmp_path": lambda: Path(tempfile.mkdtemp())}


def main(argv):
    try:
        import pytest  # noqa: F401
    except ImportError:
        sys.modules["pytest"] = _make_pytest_stand_in()
    sys.path.insert(0, str(HERE))
    modules = argv or ["test_torch.py"]
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for file in modules:
        name = Path(file).stem
        try:
            module = __import__(name)
        except BaseException as e:
            if not _is_skip(e):
                raise
            print(f"SKIP {name}: {e}")
            counts["skipped"] += 1
            continue
        for test_name, f in inspect.getmembers(module, inspect.isfunction):
            if not test_name.startswith("test_") or f.__module__ != module.__name__:
                continue
            for params in getattr(f, "__params__", [{}]):
                label = f"{name}::{test_name}" + (f"[{'-'.join(map(_short, params.values()))}]" if params else "")
                if getattr(f, "__skip__", None):
                    print(f"SKIP {label}: {f.__skip__}")
                    counts["skipped"] += 1
                    continue
                fixtures = _fixtures(test_name)
                kwargs = dict(params)
                missing = [a for a in inspect.signature(f).parameters if a not in kwargs and a not in fixtures]
                if missing:
                    print(f"SKIP {label}: no stand-in for the fixture {missing[0]!r}")
                    counts["skipped"] += 1
                    continue
                for arg in inspect.signature(f).parameters:
                    if arg not in kwargs:
                        kwargs[arg] = fixtures[arg]()
                try:
                    f(**kwargs)
                except BaseException as e:
                    if isinstance(e, (KeyboardInterrupt, SystemExit)):
                        raise
                    if _is_skip(e):
                        print(f"SKIP {label}: {e}")
                        counts["skipped"] += 1
                        continue
                    print(f"FAIL {label}")
                    traceback.print_exc()
                    counts["failed"] += 1
                else:
                    print(f"ok   {label}")
                    counts["passed"] += 1
    print(f"{counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
