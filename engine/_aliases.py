"""Enum members as plain class attributes, for the engine's hot paths.

``EnumType`` defines ``__getattr__``, which routes every ``Street.FLOP`` through a slow attribute
hook (about ten times a plain class attribute); the table and the simulator's random player name
streets and words many times per action. One place for these aliases, typed like the enums.

The hottest paths (the table's per-action code, the random player) name members through the
module constants below instead: a module global, once imported, is read several times faster
than a class attribute in CPython 3.11.
"""

from __future__ import annotations

from engine.actions import ActionKind
from engine.events import PostKind, Street
from engine.options import Limit, Variant
from engine.ranking import Ranking

__all__ = [
    "K_APRO",
    "K_BUIO",
    "K_CAMBIO",
    "K_CONTROBUIO",
    "K_PAROL",
    "K_PASSO",
    "K_PUNTO",
    "K_RILANCIO",
    "K_SERVITO",
    "K_VEDO",
    "L_FISSO",
    "L_NOLIMIT",
    "S_APERTURA",
    "S_BUIO",
    "S_CAMBIO",
    "S_RIVER",
    "S_SECONDO_GIRO",
    "S_TURN",
    "K",
    "L",
    "P",
    "R",
    "S",
    "V",
]


class K:
    APRO = ActionKind.APRO
    PASSO = ActionKind.PASSO
    VEDO = ActionKind.VEDO
    RILANCIO = ActionKind.RILANCIO
    PAROL = ActionKind.PAROL
    PUNTO = ActionKind.PUNTO
    SERVITO = ActionKind.SERVITO
    CAMBIO = ActionKind.CAMBIO
    BUIO = ActionKind.BUIO
    CONTROBUIO = ActionKind.CONTROBUIO


class S:
    BUIO = Street.BUIO
    APERTURA = Street.APERTURA
    PRIMO_GIRO = Street.PRIMO_GIRO
    CAMBIO = Street.CAMBIO
    SECONDO_GIRO = Street.SECONDO_GIRO
    PREFLOP = Street.PREFLOP
    FLOP = Street.FLOP
    TURN = Street.TURN
    RIVER = Street.RIVER
    SHOWDOWN = Street.SHOWDOWN


class V:
    ITALIANA = Variant.ITALIANA
    TRENTADUE = Variant.TRENTADUE
    TEXAS = Variant.TEXAS


class L:
    FISSO = Limit.FISSO
    POTLIMIT = Limit.POTLIMIT
    NOLIMIT = Limit.NOLIMIT


class P:
    INVITO = PostKind.INVITO
    PICCOLO_BUIO = PostKind.PICCOLO_BUIO
    GRANDE_BUIO = PostKind.GRANDE_BUIO
    OVER = PostKind.OVER
    DEBITO = PostKind.DEBITO


class R:
    ITALIANA = Ranking.ITALIANA
    INTERNAZIONALE = Ranking.INTERNAZIONALE


# Module constants for the hottest paths (module doc).
K_APRO = K.APRO
K_BUIO = K.BUIO
K_CAMBIO = K.CAMBIO
K_CONTROBUIO = K.CONTROBUIO
K_PAROL = K.PAROL
K_PASSO = K.PASSO
K_PUNTO = K.PUNTO
K_RILANCIO = K.RILANCIO
K_SERVITO = K.SERVITO
K_VEDO = K.VEDO
L_FISSO = L.FISSO
L_NOLIMIT = L.NOLIMIT
S_APERTURA = S.APERTURA
S_BUIO = S.BUIO
S_CAMBIO = S.CAMBIO
S_RIVER = S.RIVER
S_SECONDO_GIRO = S.SECONDO_GIRO
S_TURN = S.TURN
