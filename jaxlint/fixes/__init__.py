"""Fixes: how rules declare them (declare), how they are applied to a source (apply), and the
transformations themselves, one per module."""
