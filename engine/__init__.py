"""The poker engine: cards, hand ranking and the table state machine.

Standard library only, so it runs with a bare ``python3 -m engine.rank`` from the repository root
and stays testable without Discord or a database.
"""
