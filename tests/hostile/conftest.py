"""Fixtures for hostile-input tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.support import shared_example


@pytest.fixture
def shared_root() -> Iterator[Path]:
    """fixtures/example copied where an unprivileged user can read it."""
    yield from shared_example()
