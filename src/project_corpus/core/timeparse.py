"""RFC 3339 timestamps and plain dates, normalised to `YYYY-MM-DDTHH:MM:SSZ` (docs/protocol.md)."""

from __future__ import annotations

import re
from datetime import UTC
from datetime import date
from datetime import datetime

_DATETIME_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})\Z"
)
_DATE_RE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})\Z")
STRICT_UTC_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z\Z")


def parse_timestamp(value: str) -> str | None:
    """An RFC 3339 date-time or a plain date as UTC `YYYY-MM-DDTHH:MM:SSZ`, else None."""
    value = value.strip()
    if _DATE_RE.match(value):
        try:
            day = date.fromisoformat(value)
        except ValueError:
            return None
        # A four-digit year needs no formatting; strftime pads years below 1000 its own way.
        return f"{value}T00:00:00Z" if day.year >= 1000 else day.strftime("%Y-%m-%dT00:00:00Z")
    if not _DATETIME_RE.match(value):
        return None
    try:
        parsed = datetime.fromisoformat(value.upper().replace("Z", "+00:00"))
    except ValueError:
        return None
    if STRICT_UTC_RE.match(value) and value[0] != "0":  # already the form (most timestamps)
        return value
    return parsed.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def is_strict_utc(value: str) -> bool:
    """`YYYY-MM-DDTHH:MM:SSZ` naming a real instant (for Candidate `created_at`)."""
    return bool(STRICT_UTC_RE.match(value)) and parse_timestamp(value) is not None


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
