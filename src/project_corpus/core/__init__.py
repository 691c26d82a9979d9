"""The shared layer every stage stands on: records, errors, digests, time parsing, JSON, schemas
and the version (docs/architecture.md). It imports nothing else of the package."""
