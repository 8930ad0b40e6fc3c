"""Helpers and synthetic data writers shared by the tests (importable: tests/ is on the path)."""
