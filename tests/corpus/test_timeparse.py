"""Timestamps normalised to `YYYY-MM-DDTHH:MM:SSZ`: a value already in that form is returned as
it is only when the full conversion would give the same text."""

from __future__ import annotations

from datetime import UTC
from datetime import datetime

from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from project_corpus.core.timeparse import parse_timestamp


def converted(value: str) -> str | None:
    """The conversion in full, without the shortcut."""
    try:
        parsed = datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@settings(max_examples=300, deadline=None)
@given(
    st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9999, 12, 30)),
    st.sampled_from(["Z", "z", "+00:00", "+02:00", "-05:30"]),
    st.booleans(),
)
def test_a_timestamp_is_what_the_full_conversion_gives(
    moment: datetime, zone: str, fraction: bool
) -> None:
    text = moment.strftime("%Y-%m-%dT%H:%M:%S") if moment.year >= 1000 else None
    if text is None:
        text = f"{moment.year:04d}" + moment.strftime("-%m-%dT%H:%M:%S")
    if fraction:
        text += ".5"
    value = text + zone
    assert parse_timestamp(value) == converted(value)


def test_impossible_instants_are_refused() -> None:
    for value in ("2026-02-30T10:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T23:59:60Z"):
        assert parse_timestamp(value) is None
    assert parse_timestamp("2026-01-01T10:00:00Z") == "2026-01-01T10:00:00Z"
    assert parse_timestamp("2026-01-01T10:00:00+01:00") == "2026-01-01T09:00:00Z"
