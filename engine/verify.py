"""``python -m engine.verify``: check a hand's deck against the commitment shown before it.

    python -m engine.verify "<stringa>" [--commitment IMPRONTA]
                            [--variante italiana|32carte|texas --giocatori N [--mazzo auto|32|americano]]
                            [--scarti CARTE ...] [--fuori POSIZIONE ...]

The string is the one the bot publishes after the hand (``tavolo-verde/v1|sale|carte``); the
impronta is the SHA-256 the bot showed before the first card (on the table message and in each
player's first private message of the hand, which the bot never edits). The tool hashes the
string, compares it with the impronta given, prints the committed order and, given the variant and
the players, how the hand was dealt from it (engine.fairness). ``--scarti`` once per position, from
the dealer's left, gives the discards of the draw (``servito`` or an empty string for none; ``-N``
for the N-th player to fold before the draw, as the folded hands may be reshuffled in that order;
a bare ``-`` for a folder whose turn is not known). ``--fuori`` (poker tradizionale) once per
position of a player who left while the buio was asked, before any card. After a hand the bot's
command gives all of them.

The output uses the suit symbols; where the terminal or the file cannot write them (a Windows
code page), the cards are written in the ASCII notation of the string (``Td`` is the 10♦).

Exit status: 0 when the string matches (or no impronta was given), 1 when it does not match, 2 for
any mistake in the input, always as one Italian sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn, TextIO

from engine.cards import Card, CardError, format_cards, parse_cards
from engine.errors import EngineError
from engine.fairness import DealPlan, FairnessError, deal_plan, digest_of, parse_reveal, verify
from engine.options import Mazzo, TableOptions, Variant

USAGE = (
    'python -m engine.verify "STRINGA" [--commitment IMPRONTA] '
    "[--variante italiana|32carte|texas --giocatori N [--mazzo auto|32|americano]] "
    "[--scarti CARTE|servito|-N ...] [--fuori POSIZIONE ...]"
)


class InputError(Exception):
    """Bad input: the message is the one Italian sentence shown to the user."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise InputError(f"Non capisco gli argomenti; si scrive: {USAGE}.")


def _parser() -> _Parser:
    parser = _Parser(
        prog="python -m engine.verify",
        usage=USAGE,
        description="Verifica il mazzo di una mano contro l'impronta mostrata prima della prima carta.",
    )
    parser.add_argument("stringa", help="la stringa pubblicata dopo la mano: tavolo-verde/v1|sale|carte")
    parser.add_argument(
        "--commitment", "--impronta", dest="impronta", default=None, help="lo SHA-256 mostrato"
    )
    parser.add_argument("--variante", default=None, help="italiana, 32carte o texas")
    parser.add_argument("--giocatori", default=None, help="quanti giocatori ricevono le carte")
    parser.add_argument("--mazzo", default="auto", help="poker tradizionale: auto, 32 o americano")
    parser.add_argument(
        "--scarti",
        action="append",
        default=None,
        help="gli scarti di una posizione: le carte, servito, o -N per l'N-esimo a passare prima del cambio",
    )
    parser.add_argument(
        "--fuori", action="append", default=None, help="la posizione di chi è uscito prima delle carte"
    )
    return parser


def _clean(text: str) -> str:
    """The string as copied from a code span: surrounding spaces and backticks do not count."""
    return text.strip().strip("`").strip()


def _options(args: argparse.Namespace) -> tuple[TableOptions, int] | None:
    if args.variante is None and args.giocatori is None:
        if args.scarti is not None or args.fuori is not None:
            raise InputError("Per ricostruire la distribuzione servono anche --variante e --giocatori.")
        return None
    if args.variante is None or args.giocatori is None:
        raise InputError("Per ricostruire la distribuzione servono sia --variante sia --giocatori.")
    try:
        variant = Variant(args.variante.strip().lower())
    except ValueError:
        raise InputError(
            f"La variante «{args.variante}» non esiste: scegli italiana, 32carte o texas."
        ) from None
    try:
        players = int(args.giocatori)
    except ValueError:
        raise InputError(f"«{args.giocatori}» non è un numero di giocatori.") from None
    try:
        mazzo = Mazzo(args.mazzo.strip().lower())
    except ValueError:
        raise InputError(f"Il mazzo «{args.mazzo}» non esiste: scegli auto, 32 o americano.") from None
    try:
        return TableOptions(variant=variant, mazzo=mazzo), players
    except EngineError as error:
        raise InputError(str(error)) from None


def _draws(texts: Sequence[str] | None) -> tuple[list[tuple[Card, ...] | None] | None, list[int]]:
    """The discards by position, and the positions of those who folded before the draw in the
    order they folded (``-N``: the N-th to fold)."""
    if texts is None:
        return None, []
    draws: list[tuple[Card, ...] | None] = []
    turns: dict[int, int] = {}
    for position, text in enumerate(texts, 1):
        text = text.strip()
        turn = text[1:].strip()
        if text in ("-", "passo"):
            draws.append(None)
        elif text.startswith("-") and turn.isascii() and turn.isdigit() and int(turn) > 0:
            n = int(turn)
            if n in turns:
                raise InputError(f"Ogni giocatore che passa ha il suo numero: «-{n}» è ripetuto.")
            turns[n] = position
            draws.append(None)
        elif text in ("", "servito"):
            draws.append(())
        else:
            try:
                draws.append(parse_cards(text))
            except CardError as error:
                raise InputError(str(error)) from None
    return draws, [turns[turn] for turn in sorted(turns)]


def _positions(texts: Sequence[str] | None) -> list[int]:
    positions: list[int] = []
    for text in texts or ():
        word = text.strip()
        if not (word.isascii() and word.isdigit()):
            raise InputError(f"«{text}» non è una posizione: un numero, 1 a sinistra del mazziere.")
        positions.append(int(word))
    return positions


def _plan_lines(plan: DealPlan) -> list[str]:
    variant = plan.options.variant
    size = len(plan.deck)
    lines = [
        f"Mano: {variant}, {plan.players} giocatori, mazzo da {size} carte "
        "(le sue carte nell'ordine impegnato, dalla cima):",
        f"  {format_cards(plan.deck)}",
        "Carte distribuite una alla volta, in senso orario dalla sinistra del mazziere:",
    ]
    for i, hand in enumerate(plan.hands):
        dealer = " (mazziere)" if i == plan.players - 1 else ""
        shown = (
            format_cards(hand)
            if hand
            else "uscito prima delle carte"
            if i + 1 in plan.out
            else "nessuna carta, gli altri sono usciti prima"
        )
        lines.append(f"  posizione {i + 1}{dealer}: {shown}")
    if not any(plan.hands):
        lines.append(
            "Nessuna carta distribuita: la mano è finita mentre si chiedeva il buio, prima della prima carta."
        )
        return lines
    if variant is Variant.TEXAS:
        names = ("flop", "turn", "river")
        groups = (plan.board[:3], plan.board[3:4], plan.board[4:5])
        lines.append("Carte comuni (se la mano arriva fin lì), ognuna dopo una carta bruciata:")
        for burn, name, cards in zip(plan.burns, names, groups, strict=True):
            lines.append(f"  bruciata {burn}, {name}: {format_cards(cards)}")
        return lines
    lines.append("Tallone per il cambio, nell'ordine in cui si pesca:")
    lines.append(f"  {format_cards(plan.stub)}")
    if plan.no_draw_reason:
        lines.append(f"Cambio: {plan.no_draw_reason}.")
    elif plan.draw is not None:
        lines.append("Cambio, servito in senso orario dalla sinistra del mazziere:")
        served = {d.position: d for d in plan.draw}
        for position in range(1, plan.players + 1):
            d = served.get(position)
            if d is None:
                lines.append(f"  posizione {position}: non arriva al cambio")
            elif not d.discarded:
                lines.append(f"  posizione {position}: servito")
            else:
                out, got = format_cards(d.discarded), format_cards(d.received)
                lines.append(f"  posizione {position}: scarta {out}, riceve {got}")
        if plan.burnt_in_draw:
            burnt = f" ({plan.burnt_card})" if plan.burnt_card is not None else ""
            lines.append(
                f"  bruciata una carta del tallone{burnt}: il solo a cambiarne più di tre è l'ultimo"
            )
        for cards in plan.reshuffles:
            lines.append(f"  scarti rimescolati, nell'ordine in cui si pesca: {format_cards(cards)}")
    lines.append(
        "Gli scarti, se il tallone finisce, si rimescolano con random.Random inizializzato con "
        "HMAC-SHA256(sale, «tavolo-verde/v1|rimescolata»): anche questo è fissato dalla stringa."
    )
    return lines


def run(argv: Sequence[str]) -> tuple[int, str]:
    """The exit status and the text for stdout; raises ``InputError`` for bad input."""
    args = _parser().parse_args(list(argv))
    reveal = _clean(args.stringa)
    try:
        parsed = parse_reveal(reveal)
    except FairnessError as error:
        raise InputError(str(error)) from None
    digest = digest_of(reveal)
    lines = [f"Impronta SHA-256 della stringa: {digest}"]
    if args.impronta is not None:
        claimed = _clean(args.impronta).lower()
        if len(claimed) != 64 or any(c not in "0123456789abcdef" for c in claimed):
            raise InputError("L'impronta deve essere di 64 cifre esadecimali (SHA-256).")
        if not verify(reveal, claimed):
            lines.append(
                "NON corrisponde all'impronta indicata (--commitment): la stringa non è quella impegnata."
            )
            return 1, "\n".join(lines)
        lines.append(
            "Corrisponde all'impronta indicata (--commitment). Controlla che sia quella che il bot ti ha "
            "mandato in privato con le tue carte, prima della mano: solo allora l'ordine era fissato "
            "prima di dare le carte."
        )
    else:
        lines.append(
            "Confrontala con l'impronta che il bot ti ha mandato in privato con le tue carte, "
            "prima della mano."
        )
    lines.append(f"Sale: {parsed.salt.hex()}")
    lines.append(f"Ordine impegnato ({len(parsed.cards)} carte, dalla cima): {format_cards(parsed.cards)}")
    table = _options(args)
    if table is not None:
        options, players = table
        try:
            draws, folds = _draws(args.scarti)
            plan = deal_plan(parsed, options, players, draws, _positions(args.fuori), folds)
        except FairnessError as error:
            raise InputError(str(error)) from None
        lines += _plan_lines(plan)
    return 0, "\n".join(lines)


_ASCII_SUITS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


def _writable(text: str, stream: TextIO) -> str:
    """``text`` as ``stream`` can write it: where its encoding has no suit symbols (a Windows code
    page, when the output goes to a pipe or a file), the cards in the ASCII notation (``10♦`` is
    ``Td``); anything else it cannot write is escaped rather than raising."""
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        text.encode(encoding)
        return text
    except (UnicodeEncodeError, LookupError):
        pass
    text = text.replace("10♠", "Ts").replace("10♥", "Th").replace("10♦", "Td").replace("10♣", "Tc")
    text = text.translate(_ASCII_SUITS)
    try:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:
        return text.encode("ascii", "backslashreplace").decode("ascii")


def main(argv: Sequence[str] | None = None) -> int:
    try:
        status, text = run(sys.argv[1:] if argv is None else argv)
    except InputError as error:
        print(_writable(str(error), sys.stderr), file=sys.stderr)
        return 2
    print(_writable(text, sys.stdout))
    return status


if __name__ == "__main__":
    sys.exit(main())
