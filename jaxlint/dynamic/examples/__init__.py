"""Example arguments for the functions behind findings, read from the source (never run): the
planning side of the dynamic mode.  The engine asks for them while it derives a finding's facts
(jaxlint.engine.finding_facts), which only ``--dynamic`` needs; the worker builds the JSON-able
values they describe (jaxlint.dynamic.protocol.Value).
"""
