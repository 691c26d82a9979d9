"""`python -m project_corpus`."""

from __future__ import annotations

from project_corpus.cli import main

raise SystemExit(main())
