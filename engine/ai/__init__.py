"""Computer players: a seat's view of the table (``view``) and the strategies that decide on it.

Use: ``decide(view_for(table, player, events), rng, "esperto")`` for the player to act, or a
``ComputerPlayer`` per seat. Only the table's public API is read, and a strategy sees nothing a
human in the same seat would not.
"""

from engine.ai.betting import Level
from engine.ai.strategy import ComputerPlayer, decide
from engine.ai.view import HandLog, PlayerView, view_for

__all__ = ["ComputerPlayer", "HandLog", "Level", "PlayerView", "decide", "view_for"]
