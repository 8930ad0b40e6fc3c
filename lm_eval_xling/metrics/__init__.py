"""Shared metrics: text overlap, the LLM jury; and the answer an unreadable reply is filtered to."""

INVALID = "[invalid]"  # what an answer filter returns for a reply no parser can read: scored wrong, counted as invalid
