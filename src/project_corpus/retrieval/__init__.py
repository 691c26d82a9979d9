"""Retrieval and bundles: tokens, ranking, Context Bundles and receipts."""
