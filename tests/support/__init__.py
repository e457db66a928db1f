"""Helpers and data shared by several test files; one module per family (tests/README.md)."""
