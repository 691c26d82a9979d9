"""Every format version the tool writes or accepts, in one table (docs/architecture.md).

A JSON document's `schema_version` is the version of its shipped JSON Schema (a test holds
each schema's `const` to its constant here); `INDEX_SCHEMA_VERSION` says which tables a
stored index was written with; `PROTOCOL_VERSION` is the Project Corpus
Protocol a corpus, a policy and a trust grant declare. Nothing here imports anything.
"""

from __future__ import annotations

PROTOCOL_VERSION = "2.0"  # `Protocol-Version:`, `policy_version`, a grant's `protocol_version`

QUERY_SCHEMA_VERSION = "1"  # the `context query` result
BUNDLE_SCHEMA_VERSION = "1"  # Context Bundle v1
RECEIPT_SCHEMA_VERSION = "1"  # Receipt v1
CANDIDATE_SCHEMA_VERSION = "1"  # Candidate v1
EVAL_SCHEMA_VERSION = "1"  # a CorpusEval v1 dataset
REVIEW_SCHEMA_VERSION = "1"  # the `context review` report

INDEX_SCHEMA_VERSION = "1"  # the index's tables (INDEX_SCHEMA_MISMATCH when another)
GRANT_VERSION = "1"  # a trust grant file (`adapters/mcp_server/grant_file.py`)
