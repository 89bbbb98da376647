"""Example arguments for the functions behind findings, read from the source (never run): the
planning side of the dynamic mode, in jaxlint's own process.  The engine calls them while it
derives a finding's facts (jaxlint.engine.finding_facts), which only ``--dynamic`` asks for;
the worker builds the JSON-able values they describe (jaxlint.dynamic.protocol.Value).

``arguments`` finds them for a function (explicit spec, the module's calls, annotations,
defaults, guesses), ``params`` reads a function's signature, ``render`` turns one expression
into text the worker may evaluate, ``values`` holds the plain value forms.
"""
