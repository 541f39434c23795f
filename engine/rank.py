"""``python -m engine.rank``: rank hands from the command line, for players and for testing.

    python -m engine.rank [--regole italiana|internazionale] [--mazzo N] [--board CARTE]
                          [--senza-semi] [--json] MANO MANO [MANO ...]

Every mistake in the input ends with one Italian sentence on stderr and exit status 2, never a
traceback: the tool is meant for players as much as for scripts.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence

from engine.cards import Card, CardError, format_cards, lowest_rank_for_deck, parse_cards
from engine.cli import InputError, ItalianParser
from engine.ranking import HandValue, Ranking, evaluate, winners

USAGE = (
    "python -m engine.rank [--regole italiana|internazionale] [--mazzo N] [--board CARTE] "
    "[--senza-semi] [--json] MANO MANO [MANO ...]"
)
_DEFAULT_DECK = {Ranking.ITALIANA: 32, Ranking.INTERNAZIONALE: 52}
_CARD_RUN = re.compile(r"(10|[2-9tjqka])([shdc♠♣♦♥♤♧♢♡])", re.IGNORECASE)


def _parser() -> ItalianParser:
    parser = ItalianParser(
        refusal=f"Non capisco gli argomenti; si scrive: {USAGE}",
        prog="python -m engine.rank",
        usage=USAGE,
        description="Valuta mani di poker e dice chi vince (regole italiane o internazionali).",
        epilog="Esempio: python -m engine.rank 'A♥ K♥ Q♥ J♥ 10♥' 'Ah 7h 8h 9h Th'",
    )
    parser.add_argument("--regole", default="italiana", help="italiana (predefinita) o internazionale")
    parser.add_argument("--mazzo", default=None, help="carte nel mazzo: da 24 a 52, di 4 in 4")
    parser.add_argument("--board", default=None, help="le 5 carte comuni del Texas Hold'em")
    parser.add_argument("--senza-semi", action="store_true", help="a parità di valori il piatto si divide")
    parser.add_argument("--json", action="store_true", help="stampa un oggetto JSON")
    parser.add_argument(
        "mani", nargs="*", metavar="MANO", help="una mano tra virgolette, es. 'Ah Kh Qh Jh Th'"
    )
    return parser


def _read_cards(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces or commas, or written one after the other (``AhKhQh``)."""
    tokens: list[str] = []
    for token in re.split(r"[\s,]+", text.strip()):
        pieces = _CARD_RUN.findall(token)
        if len(pieces) > 1 and "".join(rank + suit for rank, suit in pieces) == token:
            tokens.extend(rank + suit for rank, suit in pieces)
        elif token:
            tokens.append(token)
    return parse_cards(tokens)


def _ordinal_list(numbers: Sequence[int]) -> str:
    names = [str(n) for n in numbers]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " e " + names[-1]


def rank_hands(argv: Sequence[str]) -> tuple[list[HandValue], list[int], bool]:
    """Parse and check the arguments, value the hands; raise ``InputError`` on bad input."""
    args = _parser().parse_args(list(argv))
    try:
        ranking = Ranking(args.regole.strip().lower())
    except ValueError:
        raise InputError(
            f"Le regole «{args.regole}» non esistono: scegli italiana o internazionale."
        ) from None
    size = _DEFAULT_DECK[ranking]
    if args.mazzo is not None:
        if not args.mazzo.strip().isdecimal() or not args.mazzo.strip().isascii():
            raise InputError(f"Il mazzo «{args.mazzo}» non è un numero di carte: va da 24 a 52, di 4 in 4.")
        size = int(args.mazzo)
    try:
        low = lowest_rank_for_deck(size)
        if len(args.mani) < 2:
            raise InputError("Servono almeno due mani da confrontare.")
        board: tuple[Card, ...] = ()
        if args.board is not None:
            if ranking is Ranking.ITALIANA:
                raise InputError(
                    "Il poker all'italiana non ha carte comuni: --board vale con --regole internazionale."
                )
            board = _read_cards(args.board)
            if len(board) != 5:
                raise InputError(f"Le carte comuni (--board) sono 5, non {len(board)}.")
        hands = [_read_cards(text) for text in args.mani]
        wanted = 2 if board else 5
        for number, hand in enumerate(hands, start=1):
            if len(hand) != wanted:
                raise InputError(f"La mano {number} ha {len(hand)} carte: ne servono {wanted}.")
        seen: set[Card] = set()
        for card in [card for hand in hands for card in hand] + list(board):
            if card in seen:
                raise InputError(f"La carta {card} compare due volte.")
            seen.add(card)
            if card.rank < low:
                raise InputError(f"La carta {card} non fa parte del mazzo di {size} carte.")
        values = [evaluate(hand + board, ranking=ranking, lowest_rank=low) for hand in hands]
    except CardError as error:
        raise InputError(str(error)) from None
    return values, winners(values, suits=not args.senza_semi), args.json


def main(argv: Sequence[str] | None = None) -> int:
    try:
        values, winning, as_json = rank_hands(sys.argv[1:] if argv is None else argv)
    except InputError as error:
        print(error, file=sys.stderr)
        return 2
    if as_json:
        report = {
            "mani": [{"categoria": v.category.nome, "carte": [str(c) for c in v.cards]} for v in values],
            "vincitori": winning,
        }
        print(json.dumps(report, ensure_ascii=False))
        return 0
    for number, value in enumerate(values, start=1):
        print(f"Mano {number}: {value.category.nome}, {format_cards(value.cards)}")
    numbers = [i + 1 for i in winning]
    if len(numbers) == 1:
        print(f"Vince la mano {numbers[0]}.")
    else:
        print(f"Piatto diviso tra le mani {_ordinal_list(numbers)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
