"""Per-module facts the rules ask for, each computed once per module."""
