"""Metrics: corpus-level aggregations and the LLM jury."""
