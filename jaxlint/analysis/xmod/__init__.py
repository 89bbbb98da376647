"""The cross-module phase over plain data: the modules of a run as a graph of summaries, the
records each file's lint makes of what it asks of other modules, and following those records
into the modules that define their targets."""
