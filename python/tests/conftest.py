"""Fixtures of the vkcompute tests: a seeded generator, and a check after every test that the
default context (when the test created or used it) got no validation message."""

import os
import sys

import numpy as np
import pytest

from vkcompute import _context

LARGE = os.environ.get("VKC_PYTHON_LARGE_TESTS") == "1"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "large: arrays past lavapipe's 128 MiB storage range; run only where "
        "VKC_PYTHON_LARGE_TESTS=1 (CTest's subgroup-size-8 registration)")


def pytest_collection_modifyitems(config, items):
    if LARGE:
        return
    skip = pytest.mark.skip(reason="past 128 MiB: runs where VKC_PYTHON_LARGE_TESTS=1 (CTest's sg8 registration)")
    for item in items:
        if "large" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def rng(request):
    """A generator seeded from the test's name: each test its own reproducible data."""
    return np.random.default_rng(_seed(request.node.name))


def _seed(name: str) -> int:
    return sum((i + 1) * ord(c) for i, c in enumerate(name)) % (1 << 32)


@pytest.fixture(autouse=True)
def no_validation_messages():
    """Fails a test after which the default context holds validation messages (printed with the
    prefix CTest's FAIL_REGULAR_EXPRESSION watches, too)."""
    yield
    ctx = _context._default_if_created()
    if ctx is None or ctx.closed:
        return
    messages = ctx.take_validation_messages()
    for message in messages:
        print(f"vkc: validation message: {message}", file=sys.stderr)
    assert not messages, f"{len(messages)} validation message(s), the first: {messages[0]}"
