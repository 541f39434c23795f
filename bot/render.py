"""Engine state, events and ledger values turned into Italian text: pure functions, no I/O.

Players are named by mention (``<@id>``): Discord shows the name, and the bot sends every message
with mentions disabled, so nobody is pinged. Nothing here ever prints a player's private cards:
`public_events` drops every event addressed to one player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

import discord

from bot.computers import is_computer
from bot.computers import limit_of as computer_limit
from bot.computers import name_of as computer_name
from bot.storage import LeaderRow, LedgerEntry, PlayerHistory
from bot.table_settings import TableSettings
from engine.cards import Card, format_cards, hand_order, lowest_rank_for_deck
from engine.events import (
    ActionTaken,
    BetReturned,
    CardBurnt,
    ChipsPosted,
    DiscardsReshuffled,
    Event,
    HandEnded,
    HandMucked,
    HandShown,
    HandSkipped,
    HandStarted,
    HandVoid,
    OpeningShown,
    PlayerCameBack,
    PlayerLeft,
    PlayerSat,
    PlayerSatOut,
    PlayerTimedOut,
    PotAwarded,
    PotCarried,
    PotUpdated,
    StackReleased,
    StreetStarted,
)
from engine.italian import chips, chips_return, plural
from engine.levels import level_name
from engine.options import Limit, Mazzo, TableOptions, Variant
from engine.ranking import Ranking, evaluate
from engine.table import SeatView, TableView

__all__ = [
    "COLOUR",
    "MESSAGE_LIMIT",
    "RESULT_EVENTS",
    "RESULT_FIELDS",
    "balance_text",
    "bonus_text",
    "cards_text",
    "chips",
    "close_text",
    "event_lines",
    "event_text",
    "grant_text",
    "hand_category",
    "history_embed",
    "leaderboard_embed",
    "level_name",
    "mention",
    "packed",
    "public_events",
    "result_lines",
    "rules_embed",
    "table_content",
    "table_embed",
    "turn_line",
    "variant_name",
]

COLOUR = discord.Colour.dark_green()

VARIANT_NAMES = {
    Variant.ITALIANA: "poker tradizionale",
    Variant.TRENTADUE: "32 Card Draw",
    Variant.TEXAS: "Texas Hold'em",
}
LIMIT_NAMES = {limit: "limite fisso" if limit is Limit.FISSO else limit.words for limit in Limit}
REASON_NAMES = {
    "start": "fiches iniziali",
    "bonus": "bonus giornaliero",
    "grant": "accredito",
    "buy_in": "seduto al tavolo",
    "cash_out": "alzato dal tavolo",
    "hand": "mano",
    "refund": "mano annullata",
    "close": "tavolo chiuso",
    # A tournament's movements (LedgerEntry.tournament_id set): its buy-ins, refunds and prizes.
    "torneo_buy_in": "iscrizione al torneo",
    "torneo_refund": "iscrizione al torneo rimborsata",
    "torneo_close": "premio del torneo",
}
_ACTION_WORDS = {
    "apro": "apre",
    "passo": "passa",
    "vedo": "vede",
    "rilancio": "rilancia",
    "parol": "dice paròl",
    "punto": "punta",
    "servito": "è servito",
    "cambio": "cambia",
    "buio": "apre al buio",
    "controbuio": "fa controbuio",
}


def mention(user_id: int) -> str:
    """A person's Discord mention; a computer player's name (he has no Discord account)."""
    if is_computer(user_id):
        return computer_name(user_id)
    return f"<@{user_id}>"


def variant_name(variant: Variant | str) -> str:
    return VARIANT_NAMES[Variant(variant)]


# Chips and ledger -------------------------------------------------------------------------------


def balance_text(balance: int) -> str:
    return f"Il tuo saldo è di {chips(balance)}."


def bonus_text(user_id: int, amount: int, balance: int) -> str:
    return f"{mention(user_id)} ritira il bonus giornaliero di {chips(amount)}: ora ha {chips(balance)}."


def grant_text(by_user_id: int, user_id: int, amount: int, balance: int) -> str:
    return (
        f"{mention(by_user_id)} accredita {chips(amount)} a {mention(user_id)}, che ora ha {chips(balance)}."
    )


def close_text(by_user_id: int, payouts: dict[int, int]) -> str:
    """Who closed the table and where its chips went: the people's to their balances, the computers'
    to the house (a computer has no balance)."""
    people = sorted((user, amount) for user, amount in payouts.items() if amount and not is_computer(user))
    house = sum(amount for user, amount in payouts.items() if is_computer(user))
    paid = ", ".join(f"{mention(user)} {chips(amount)}" for user, amount in people)
    back = f" Fiches tornate nei saldi: {paid}." if paid else ""
    if house:
        computers = sum(1 for user, amount in payouts.items() if is_computer(user) and amount)
        whose = plural(computers, "dal giocatore", "dai giocatori")
        back += f" {chips_return(house)} alla casa {whose} del computer."
    return f"{mention(by_user_id)} chiude il tavolo.{back}"


def leaderboard_embed(rows: Sequence[LeaderRow]) -> discord.Embed:
    embed = discord.Embed(title="Classifica del server", colour=COLOUR)
    if not rows:
        embed.description = "Nessuno ha ancora giocato su questo server."
        return embed
    lines = []
    for row in rows:
        extra = f" (di cui {chips(row.at_tables)} al tavolo)" if row.at_tables else ""
        lines.append(f"**{row.rank}.** {mention(row.user_id)}: {chips(row.total)}{extra}")
    embed.description = "\n".join(lines)
    return embed


def _when(at: datetime) -> str:
    return discord.utils.format_dt(at if at.tzinfo else at.replace(tzinfo=UTC), "R")


def _entry_line(entry: LedgerEntry) -> str:
    key = entry.reason if entry.tournament_id is None else f"torneo_{entry.reason}"
    reason = REASON_NAMES.get(key, entry.reason)
    if entry.tournament_id is not None:
        reason += f" n. {entry.tournament_id}"
    sign = "+" if entry.amount > 0 else "−"
    return f"{sign}{chips(abs(entry.amount))} ({reason}) {_when(entry.at)}"


def history_embed(history: PlayerHistory) -> discord.Embed:
    embed = discord.Embed(title="Il tuo storico", colour=COLOUR)
    hands = []
    for hand in history.hands:
        if hand.result is None:
            outcome = "annullata" if hand.status == "cancelled" else "in corso"
        else:
            outcome = f"{'+' if hand.result >= 0 else '−'}{chips(abs(hand.result))}"
        hands.append(f"Tavolo {hand.table_id}, mano {hand.number}: {outcome} {_when(hand.started_at)}")
    embed.add_field(name="Ultime mani", value="\n".join(hands) or "Nessuna mano giocata.", inline=False)
    # The balance side of each movement: the seat side of a buy-in is the same chips seen from the table.
    entries = [_entry_line(entry) for entry in history.entries if entry.account == "balance"]
    embed.add_field(name="Ultimi movimenti", value="\n".join(entries) or "Nessun movimento.", inline=False)
    return embed


# Tables -----------------------------------------------------------------------------------------


def stakes_text(options: TableOptions) -> str:
    if options.variant is Variant.ITALIANA:
        ante = "invito di tutti" if options.invito_tutti else "invito del mazziere"
        return f"cip {chips(options.cip)}, {ante} {chips(options.invito)}, pot limit"
    return (
        f"buio piccolo {chips(options.cip // 2)}, buio grande {chips(options.cip)}, "
        f"{LIMIT_NAMES[options.limit]}"
    )


def _seat_line(view: TableView, seat: SeatView) -> str:
    marks = []
    if view.dealer == seat.player:
        marks.append("mazziere")
    if seat.folded:
        marks.append("ha passato")
    if seat.all_in:
        marks.append("tutto dentro")
    if seat.sitting_out:
        marks.append("fuori dal gioco")
    if seat.leaving:
        marks.append("se ne va a fine mano")
    if view.hand_running and not (seat.in_hand or seat.folded or seat.sitting_out or seat.leaving):
        marks.append("aspetta la prossima mano")
    if seat.bet:
        marks.append(f"puntata {chips(seat.bet)}")
    if seat.cards_drawn is not None:
        marks.append("servito" if seat.cards_drawn == 0 else f"ha cambiato {seat.cards_drawn}")
    if seat.debt:
        marks.append(f"deve {chips(seat.debt)} al piatto di paròl")
    if view.to_act == seat.player:
        marks.append("**tocca a lui**")
    suffix = f" ({', '.join(marks)})" if marks else ""
    return f"{mention(seat.player)}: {chips(seat.stack)}{suffix}"


def table_embed(
    view: TableView,
    options: TableOptions,
    *,
    creator_id: int | None = None,
    deadline: float | None = None,
    dm_failed: Iterable[int] = (),
    results: Sequence[str] = (),
    next_hand: str | None = None,
) -> discord.Embed:
    """The table as the channel sees it: stakes, seats and stacks, pot, who is to act.

    ``next_hand`` replaces the line on how the next hand starts (a tournament deals by itself).

    ``deadline`` (epoch seconds) becomes Discord's live countdown; ``dm_failed`` names the players
    whose cards could not be sent privately; ``results`` are the closing lines of the last hand.
    """
    embed = discord.Embed(title=f"Tavolo di {variant_name(view.variant)}", colour=COLOUR)
    stakes = stakes_text(options)
    embed.description = stakes[0].upper() + stakes[1:] + "."
    seats = "\n".join(_seat_line(view, seat) for seat in view.seats)
    embed.add_field(
        name=f"Giocatori ({len(view.seats)}/{options.max_seats})",
        value=_clip(seats) or "Nessuno: siediti con /tavolo siedi.",
        inline=False,
    )
    if view.hand_running:
        street = view.street.value if view.street is not None else "-"
        state = [f"Mano n. {view.hand_number}, fase: {street}", f"Piatto: {chips(view.pot)}"]
        if len(view.pots) > 1:
            state.append("Piatti: " + ", ".join(chips(p) for p in view.pots))
        if view.board:
            state.append(f"Carte in tavola: {format_cards(view.board)}")
        if view.opening_level is not None and view.variant is Variant.ITALIANA:
            state.append(f"Si apre con: coppia di {level_name(view.opening_level)} o meglio")
        turn = turn_line(view, deadline)
        if turn:
            state.append(turn)
        closed = sorted(set(dm_failed))
        if closed:
            names = ", ".join(mention(player) for player in closed)
            state.append(
                f"Carte non consegnate in privato: {names}; usate /carte o il pulsante «Le mie carte»."
            )
        embed.add_field(name="Mano in corso", value=_clip("\n".join(state)), inline=False)
    else:
        state = []
        if view.carried:
            state.append(f"Piatto rimasto dalla mano precedente: {chips(view.carried)}")
        if view.variant is Variant.ITALIANA and view.opening_level is not None:
            state.append(f"Prossima apertura: coppia di {level_name(view.opening_level)} o meglio")
        state.append(
            next_hand
            if next_hand is not None
            else "Pronti per la prossima mano: /tavolo inizia."
            if view.can_start
            else f"Servono almeno {view.variant.min_players} giocatori seduti per iniziare."
            if len(view.seats) < view.variant.min_players
            else f"Servono almeno {view.variant.min_players} giocatori in gioco per iniziare: chi è fuori "
            "torna con /tavolo rientra."
        )
        # Every pot and every hand shown: the message is the channel's record of the hand. A field
        # holds 1,024 characters; a ten-way showdown with nine pots needs several.
        for i, part in enumerate(packed(results, 1024)[:RESULT_FIELDS]):
            embed.add_field(
                name=f"Com'è finita la mano n. {view.hand_number}" + (" (segue)" if i else ""),
                value=part,
                inline=False,
            )
        embed.add_field(name="Tra una mano e l'altra", value="\n".join(state), inline=False)
    if creator_id is not None:
        embed.set_footer(
            text="Chi ha aperto il tavolo (o chi gestisce il server) può chiuderlo con /tavolo chiudi."
        )
    return embed


MESSAGE_LIMIT = 2000
"""Discord's limit on a message's content."""
RESULT_FIELDS = 4
"""At most this many fields for a hand's result: with the seats and the rest, well inside Discord's
6,000 characters of embed text per message."""


def packed(lines: Sequence[str], limit: int) -> list[str]:
    """``lines`` in as few texts of at most ``limit`` characters as they fit in, whole lines only (one
    line longer than ``limit`` alone is clipped): for Discord's limits on a field, a message, a
    description, without cutting a line in the middle."""
    parts: list[str] = []
    for line in lines:
        line = _clip(line, limit)
        if parts and len(parts[-1]) + 1 + len(line) <= limit:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return parts


def _clip(text: str, limit: int = 1024) -> str:
    """Discord refuses an embed field over 1024 characters: keep the end readable."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def turn_line(view: TableView, deadline: float | None) -> str | None:
    """Whose turn it is, with Discord's relative timestamp (every client counts down by itself)."""
    if view.to_act is None:
        return None
    when = f", scade <t:{int(deadline)}:R>" if deadline is not None else ""
    return f"Tocca a {mention(view.to_act)}{when}."


LOG_LINES = 12

CANCELLED_BY_RESTART = (
    "Mano annullata: il bot si è riavviato e ogni giocatore ha di nuovo le fiches "
    "che aveva all'inizio della mano."
)
"""The line a restart leaves on the message of the hand it cancelled (the ledger's recovery rule)."""
"""How many of the last public lines the table message keeps in view."""


def ended_hand(hand_number: int) -> dict[str, Any]:
    """What a restart makes of an older table message Discord kept showing in the middle of its hand
    (its ending edit failed before the restart; the state it should have shown is gone with the run)."""
    embed = discord.Embed(
        title=f"Mano n. {hand_number}",
        description=f"Questa mano è finita: /mano numero:{hand_number} mostra com'è andata.",
        colour=COLOUR,
    )
    return {"content": None, "embed": embed, "view": None}


def table_content(log: Sequence[str], view: TableView, deadline: float | None) -> str:
    """The text above the table embed: the last actions, then whose turn it is."""
    lines = list(log[-LOG_LINES:])
    turn = turn_line(view, deadline)
    if turn:
        lines.append(turn)
    text = "\n".join(lines)
    while len(text) > MESSAGE_LIMIT and len(lines) > 1:
        lines.pop(0)
        text = "\n".join(lines)
    return text[:MESSAGE_LIMIT]


RESULT_EVENTS = (HandShown, HandMucked, PotAwarded, OpeningShown, HandVoid, PotCarried, BetReturned)
"""Told in a hand's result (`result_lines`), not among its actions (the table's log, /mano)."""


def result_lines(events: Iterable[Event], board: Sequence[Card] = ()) -> list[str]:
    """How a hand ended, enough to check every chip: the board (texas), the hands shown (mucked ones
    stay hidden), every chip movement (uncalled chips returned, each pot and side pot with its
    winners and odd chip, a pot carried in from the last hand or on to the next one), the opening
    cards, one line each. ``events`` are all the public events of the hand, not only the last batch:
    an uncalled bet can go back long before the hand ends."""
    shown = public_events(events)
    lines: list[str] = []
    if board:
        lines.append(f"Carte in tavola: {format_cards(board)}.")
    for event in shown:
        if isinstance(event, HandStarted) and event.carried:
            n = event.carried
            were, left = plural(n, "c'era", "c'erano"), plural(n, "rimasta", "rimaste")
            lines.append(f"Nel piatto {were} {chips(n)} {left} dalla mano prima.")
        elif isinstance(event, RESULT_EVENTS) and (text := event_text(event)):
            lines.append(text)
    return lines


# Private cards ----------------------------------------------------------------------------------


def hand_category(
    cards: Sequence[Card], board: Sequence[Card], options: TableOptions, deck_size: int | None
) -> str | None:
    """The player's current hand category in Italian, or None when there is nothing to name yet."""
    # The deck option is poker tradizionale's: 32carte always plays 32 cards and the Italian ranking.
    variant = options.variant
    italian = variant is Variant.TRENTADUE or (
        variant is Variant.ITALIANA and options.mazzo is not Mazzo.AMERICANO
    )
    everything = list(cards) + list(board)
    if len(everything) < 5:
        if len(cards) == 2 and cards[0].rank == cards[1].rank:
            return "coppia"
        return "carta alta" if cards else None
    try:
        if italian:
            low = lowest_rank_for_deck(deck_size) if deck_size else min(c.rank for c in everything)
            return evaluate(everything[:5], ranking=Ranking.ITALIANA, lowest_rank=low).category.nome
        return evaluate(everything[:7], ranking=Ranking.INTERNAZIONALE, lowest_rank=2).category.nome
    except ValueError:  # CardError included: a card outside the deck named
        return None


def draw_waiting(count: int) -> str:
    """/carte between a player's own «cambio» and the last player's: the draw is dealt once everyone
    has chosen (rules §2.6), so he still holds his old cards."""
    if count == 0:
        return "Sei servito: il cambio si fa quando tutti hanno scelto."
    cards = f"{count} {plural(count, 'carta', 'carte')}"
    return f"Hai chiesto di cambiare {cards}: le ricevi quando tutti hanno scelto."


def cards_text(
    cards: Sequence[Card],
    *,
    board: Sequence[Card] = (),
    options: TableOptions,
    deck_size: int | None,
    heading: str = "Le tue carte",
    positions: bool = True,
) -> str:
    """What a player reads privately: his cards with suit symbols and what they make."""
    if not cards:
        return "Non hai carte: non sei in questa mano."
    shown = hand_order(cards)
    numbered = "  ".join(f"`{i}` {card}" for i, card in enumerate(shown, start=1))
    line = f"{heading}: **{format_cards(shown)}**"
    category = hand_category(shown, board, options, deck_size)
    if category:
        line += f" ({category})"
    lines = [line]
    if board:
        lines.append(f"In tavola: {format_cards(board)}")
    if positions and options.variant is not Variant.TEXAS:
        lines.append(f"Posizioni per /cambio: {numbered}")
    return "\n".join(lines)


def rules_embed(options: TableOptions, settings: TableSettings | None = None) -> discord.Embed:
    """The rules of this table in a few lines, from its options (rules §2-§5) and the bot's own
    settings of it (computer players, turn calls)."""
    variant = options.variant
    embed = discord.Embed(title=f"Regole del tavolo: {variant_name(variant)}", colour=COLOUR)
    lines: list[str] = []
    if variant is Variant.ITALIANA:
        if options.mazzo is Mazzo.AMERICANO:
            deck = "mazzo americano da 52 carte, punteggi internazionali (il full batte il colore)"
        elif options.mazzo is Mazzo.TRENTADUE:
            deck = "sempre 32 carte (dal 7 all'asso)"
        else:
            deck = (
                "mazzo secondo i giocatori: la carta più bassa è 11 meno il numero di giocatori "
                "(4 giocatori: dal 7)"
            )
        lines += [
            f"Da 2 a {options.max_seats} giocatori; {deck}.",
            "Cinque carte a testa; "
            + (
                "il full batte il colore; a punti uguali il piatto si divide."
                if options.mazzo is Mazzo.AMERICANO
                else "il colore batte il full; i semi spareggiano: ♥ > ♦ > ♣ > ♠."
            ),
            f"Invito: {chips(options.invito)} ({'tutti' if options.invito_tutti else 'il mazziere'}); "
            f"cip: {chips(options.cip)}; puntate e rilanci fino al piatto (pot limit).",
            "Per aprire serve almeno una coppia di jack (se nessuno apre: di donne, poi di re) "
            "o quattro carte di scala reale aperta da entrambi i lati.",
            f"Buio: il primo di mano può aprire al buio pagando {options.buio_multiplo} volte il piatto "
            "(solo con apertura a jack e almeno 3 giocatori); controbuio con almeno 4"
            + ("; contro-controbuio con almeno 5." if options.controcontrobuio else "."),
            f"Cambio: da 1 a {options.max_cambio} carte, oppure servito.",
            "Se tutti dicono paròl il piatto resta per la mano dopo (piatto di paròl).",
        ]
    elif variant is Variant.TRENTADUE:
        lines += [
            f"Da 2 a {variant.max_players} giocatori, 32 carte (dal 7 all'asso); il colore batte il full.",
            f"Bui: piccolo {chips(options.cip // 2)}, grande {chips(options.cip)}"
            + (f"; Over di {chips(2 * options.cip)} con più di 3 giocatori." if options.over else "."),
            f"Puntate: {LIMIT_NAMES[options.limit]}; nessun requisito per aprire.",
            "Cambio fino a 4 carte, poi un secondo giro di puntate.",
            "I semi spareggiano i punti uguali (♥ > ♦ > ♣ > ♠)."
            if options.semi
            else "I semi non contano: a punti uguali il piatto si divide.",
        ]
    else:
        big = 2 * options.cip
        lines += [
            f"Da 2 a {variant.max_players} giocatori, 52 carte, punteggi internazionali.",
            f"Bui: piccolo {chips(options.cip // 2)}, grande {chips(options.cip)}.",
            f"Puntate: {LIMIT_NAMES[options.limit]}"
            + (
                f" (puntata piccola {chips(options.cip)} prima del flop e al flop, grande {chips(big)} "
                "al turn e al river; al massimo una puntata e tre rilanci per giro)."
                if options.limit is Limit.FISSO
                else "."
            ),
            "Due carte a testa, poi flop, turn e river; "
            "vince la miglior combinazione di cinque carte su sette.",
            "A punti uguali il piatto si divide.",
        ]
    at_the_draw = "" if variant is Variant.TEXAS else "al cambio è servito, "
    lines += [
        f"Tempo per ogni decisione: {options.timeout} secondi; chi non risponde fa paròl se può, "
        f"{at_the_draw}altrimenti passa; dopo due volte di fila resta fuori finché non torna.",
        "Chi va tutto dentro gioca solo i piatti a cui ha contribuito; nelle divisioni la fiche "
        "dispari va al primo vincitore alla sinistra del mazziere.",
    ]
    if settings is not None:
        lines += _settings_lines(settings, options)
    embed.description = "\n".join(f"• {line}" for line in lines)
    return embed


def _settings_lines(settings: TableSettings, options: TableOptions) -> list[str]:
    """What /tavolo nuovo's bot options (max_computer, avviso) say of this table."""
    most = computer_limit(options, settings)
    computers = (
        f"Giocatori del computer (/tavolo computer): al massimo {most}, lasciando sempre un posto "
        "libero per una persona."
        if most
        else "Giocatori del computer: nessuno a questo tavolo."
    )
    if settings.ping_after is None:
        calls = "Avviso a chi deve parlare: nessuno."
    elif settings.ping_after == 0:
        calls = "Avviso a chi deve parlare: una menzione appena tocca a lui."
    else:
        seconds = plural(settings.ping_after, "secondo", "secondi")
        calls = f"Avviso a chi deve parlare: una menzione dopo {settings.ping_after} {seconds} di silenzio."
    return [computers, calls]


# Events -----------------------------------------------------------------------------------------


def public_events(events: Iterable[Event]) -> list[Event]:
    """Only what the whole table may see: private events (a player's cards) never pass."""
    return [event for event in events if event.private_to is None]


def event_text(event: Event) -> str | None:
    """One line for a public event, or None for events the table message shows by itself."""
    if event.private_to is not None:
        return None
    match event:
        case HandStarted():
            level = (
                f", si apre con coppia di {level_name(event.opening_level)}"
                if event.opening_level is not None
                else ""
            )
            carried = f", nel piatto {chips(event.carried)} dalla mano prima" if event.carried else ""
            return (
                f"**Mano n. {event.hand_number}**: mazziere {mention(event.dealer)}, "
                f"{len(event.players)} giocatori, mazzo da {event.deck_size} carte{level}{carried}."
            )
        case ChipsPosted():
            return f"{mention(event.player)} mette {event.kind.value}: {chips(event.amount)}."
        case HandSkipped():
            return f"{mention(event.player)} salta la mano (deve {chips(event.debt)})."
        case StreetStarted():
            board = f": {format_cards(event.board)}" if event.board else ""
            return f"— {event.street.value.capitalize()}{board}"
        case ActionTaken():
            word = _ACTION_WORDS.get(event.kind.value, event.kind.value)
            amount = f" {chips(event.amount)}" if event.amount and event.kind.value not in ("cambio",) else ""
            if event.kind.value == "cambio":
                amount = f" {event.amount} {plural(event.amount, 'carta', 'carte')}"
            return f"{mention(event.player)} {word}{amount}{' (tutto dentro)' if event.all_in else ''}."
        case PlayerTimedOut():
            said = _ACTION_WORDS.get(event.kind.value, event.kind.value)
            return f"{mention(event.player)} non risponde in tempo: {said}."
        case CardBurnt():
            return "Una carta viene bruciata."
        case DiscardsReshuffled():
            return f"Il mazzo è finito: {event.count} carte scartate vengono rimescolate."
        case BetReturned():
            uncalled = plural(event.amount, "non chiamata torna", "non chiamate tornano")
            return f"{chips(event.amount)} {uncalled} a {mention(event.player)}."
        case HandShown():
            return f"{mention(event.player)} mostra {format_cards(event.cards)}: {event.hand}."
        case HandMucked():
            return f"{mention(event.player)} non mostra le carte."
        case PotAwarded():
            name = "il piatto" if event.pot == 0 else f"il piatto laterale {event.pot}"
            if len(event.winners) == 1:
                return f"{mention(event.winners[0])} vince {name}: {chips(event.amount)}."
            split = ", ".join(
                f"{mention(w)} {chips(s)}" for w, s in zip(event.winners, event.shares, strict=True)
            )
            odd = ""
            if len(set(event.shares)) > 1:
                low = min(event.shares)
                extra = [(w, s - low) for w, s in zip(event.winners, event.shares, strict=True) if s > low]
                odd = " Fiches dispari: " + ", ".join(f"{chips(n)} a {mention(w)}" for w, n in extra) + "."
            return f"{name.capitalize()} ({chips(event.amount)}) si divide: {split}.{odd}"
        case OpeningShown():
            return f"Carte di apertura di {mention(event.player)}: {format_cards(event.cards)}."
        case HandVoid():
            return (
                f"Nessuno apre: il piatto di {chips(event.carried)} resta, "
                f"la prossima mano si apre con coppia di {level_name(event.next_level)}."
            )
        case PotCarried():
            return f"Tutti paròl: il piatto di {chips(event.carried)} passa alla mano successiva."
        case PlayerSat():
            waits = " (gioca dalla prossima mano)" if event.waits else ""
            return f"{mention(event.player)} si siede con {chips(event.stack)}{waits}."
        case PlayerLeft():
            why = "ha finito le fiches e lascia" if event.busted else "lascia"
            return f"{mention(event.player)} {why} il tavolo."
        case StackReleased():
            if is_computer(event.player):  # he has no balance: his stack goes back to the house
                return f"{chips_return(event.amount)} alla casa da {mention(event.player)}."
            return f"{chips_return(event.amount)} nel saldo di {mention(event.player)}."
        case PlayerSatOut():
            why = " per i tempi scaduti" if event.timeouts else ""
            return f"{mention(event.player)} resta fuori dal gioco{why}."
        case PlayerCameBack():
            return f"{mention(event.player)} torna in gioco."
        case PotUpdated() | HandEnded():
            return None
    return None


def events_text(events: Iterable[Event]) -> str:
    return "\n".join(event_lines(public_events(events)))


def event_lines(events: Iterable[Event]) -> list[str]:
    """The lines of these events as the table tells them (the table message, its answers and /mano):
    a timeout is told once, «non risponde in tempo: passa.», not again as the word it said for him
    (the ActionTaken that follows it, after his being sat out if that came with it)."""
    lines: list[str] = []
    timed_out: int | None = None
    for event in events:
        if isinstance(event, ActionTaken) and event.player == timed_out:
            timed_out = None
            continue
        if isinstance(event, PlayerTimedOut):
            timed_out = event.player
        elif not (isinstance(event, PlayerSatOut) and event.player == timed_out):
            timed_out = None
        if text := event_text(event):
            lines.append(text)
    return lines
