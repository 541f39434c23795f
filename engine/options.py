"""Table options: the variant and its stakes, validated once when the table is created."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from engine.errors import InvalidOptions

__all__ = ["Limit", "Mazzo", "TableOptions", "Variant"]


class Variant(StrEnum):
    ITALIANA = "italiana"
    TRENTADUE = "32carte"
    TEXAS = "texas"

    @property
    def min_players(self) -> int:
        return 2

    @property
    def max_players(self) -> int:
        return {Variant.ITALIANA: 9, Variant.TRENTADUE: 5, Variant.TEXAS: 10}[self]


class Limit(StrEnum):
    POTLIMIT = "potlimit"
    NOLIMIT = "nolimit"
    FISSO = "fisso"

    @property
    def words(self) -> str:
        """As players name it (and the bot's choices: «Pot limit»), not its stored value."""
        return {"potlimit": "pot limit", "nolimit": "no limit"}.get(self.value, self.value)


class Mazzo(StrEnum):
    AUTO = "auto"
    TRENTADUE = "32"
    AMERICANO = "americano"


_DEFAULT_LIMIT = {
    Variant.ITALIANA: Limit.POTLIMIT,
    Variant.TRENTADUE: Limit.NOLIMIT,
    Variant.TEXAS: Limit.FISSO,
}
_ALLOWED_LIMITS = {
    Variant.ITALIANA: {Limit.POTLIMIT},
    Variant.TRENTADUE: {Limit.POTLIMIT, Limit.NOLIMIT},
    Variant.TEXAS: {Limit.POTLIMIT, Limit.NOLIMIT, Limit.FISSO},
}


@dataclass(frozen=True, slots=True)
class TableOptions:
    """Everything the players agree on before the first hand (rules §2-§5).

    ``limite=None`` picks the variant's default. Options that do not apply to the variant are
    accepted and ignored, so one settings form can serve every variant.
    """

    variant: Variant = Variant.ITALIANA
    cip: int = 10
    invito: int = 10
    limite: Limit | None = None
    mazzo: Mazzo = Mazzo.AUTO
    max_cambio: int = 4
    invito_tutti: bool = False
    buio_multiplo: int = 2
    controcontrobuio: bool = False
    over: bool = False
    semi: bool = True
    timeout: int = 60

    def __post_init__(self) -> None:
        try:
            variant = Variant(self.variant)
        except ValueError:
            raise InvalidOptions(
                f"La variante «{self.variant}» non esiste: scegli italiana, 32carte o texas."
            ) from None
        object.__setattr__(self, "variant", variant)
        limite = _DEFAULT_LIMIT[variant] if self.limite is None else self.limite
        try:
            limite = Limit(limite)
        except ValueError:
            raise InvalidOptions(
                f"Il limite «{limite}» non esiste: scegli fisso, potlimit o nolimit."
            ) from None
        if limite not in _ALLOWED_LIMITS[variant]:
            allowed = ", ".join(sorted(x.words for x in _ALLOWED_LIMITS[variant]))
            raise InvalidOptions(f"Nella variante {variant} il limite può essere solo: {allowed}.")
        object.__setattr__(self, "limite", limite)
        try:
            object.__setattr__(self, "mazzo", Mazzo(self.mazzo))
        except ValueError:
            raise InvalidOptions(
                f"Il mazzo «{self.mazzo}» non esiste: scegli auto, 32 o americano."
            ) from None
        for name in ("cip", "invito", "max_cambio", "buio_multiplo", "timeout"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidOptions(f"L'opzione {name} deve essere un numero intero.")
        if self.cip < 1:
            raise InvalidOptions("Il cip deve essere almeno 1 fiche.")
        if variant is Variant.TEXAS and self.cip < 2:
            raise InvalidOptions("Nel texas il cip (il grande buio) deve essere almeno 2 fiches.")
        if variant is Variant.TRENTADUE and self.cip < 2:
            raise InvalidOptions(
                "Nel 32carte il cip deve essere almeno 2 fiches: il piccolo buio ne è la metà."
            )
        if variant is Variant.ITALIANA and self.invito < 1:
            raise InvalidOptions("L'invito deve essere almeno 1 fiche.")
        if self.invito < 0:
            raise InvalidOptions("L'invito non può essere negativo.")
        if self.max_cambio not in (4, 5):
            raise InvalidOptions("Il cambio massimo può essere 4 o 5 carte.")
        if self.buio_multiplo < 1:
            raise InvalidOptions("Il multiplo del buio deve essere almeno 1.")
        if not 10 <= self.timeout <= 3600:
            raise InvalidOptions("Il tempo per parlare va da 10 a 3600 secondi.")
        if variant is not Variant.TRENTADUE and not self.semi:
            raise InvalidOptions("I semi si possono ignorare solo nel 32carte.")

    @property
    def limit(self) -> Limit:
        """The resolved betting limit (never ``None`` after validation)."""
        assert self.limite is not None
        return self.limite

    @property
    def max_seats(self) -> int:
        """Seats at the table: the variant's maximum, 6 with a 32-card deck in italiana (5 × 6 = 30)."""
        if self.variant is Variant.ITALIANA and self.mazzo is Mazzo.TRENTADUE:
            return 6
        return self.variant.max_players

    @property
    def max_draw(self) -> int:
        return self.max_cambio if self.variant is Variant.ITALIANA else 4

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for key, value in data.items():
            if isinstance(value, StrEnum):
                data[key] = str(value)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableOptions:
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise InvalidOptions(f"Opzioni sconosciute: {', '.join(sorted(unknown))}.")
        return cls(**data)
