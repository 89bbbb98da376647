"""Traced code: the abstract values, the interpreter, and the events it publishes."""
