"""English names and descriptions of the slash commands.

The commands are declared in Italian (their default names); a player whose Discord client is in
English sees the names below instead, through discord.py's `app_commands.Translator`. This table
is the one place for every English string: a command added elsewhere adds its words here, and the
test of the synced payloads fails if one is missing.

Keys are the Italian `locale_str` messages used in the cogs; the same Italian word always means
the same English word, so one flat table is enough.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str

__all__ = ["ENGLISH", "EnglishTranslator", "T", "localized_options"]

T = locale_str
"""Shorthand for marking an Italian command string as translatable."""

ENGLISH: dict[str, str] = {
    # /tavolo
    "tavolo": "table",
    "Un tavolo da poker in questo canale": "A poker table in this channel",
    "nuovo": "new",
    "Apri un tavolo in questo canale (o thread)": "Open a table in this channel (or thread)",
    "siedi": "sit",
    "Siediti al tavolo comprando fiches dal tuo saldo": "Take a seat, buying chips from your balance",
    "alzati": "leave",
    "Alzati dal tavolo: le tue fiches tornano nel saldo": (
        "Leave the table: your chips go back to your balance"
    ),
    "inizia": "start",
    "Inizia la prossima mano": "Start the next hand",
    "stato": "status",
    "Mostra il tavolo di questo canale": "Show this channel's table",
    "regole": "rules",
    "Le regole di questo tavolo": "The rules of this table",
    "chiudi": "close",
    "Chiudi il tavolo: le fiches tornano nei saldi dei giocatori": (
        "Close the table: chips go back to the players' balances"
    ),
    # /tavolo nuovo options
    "variante": "variant",
    "Il gioco: poker tradizionale, 32 carte o Texas Hold'em": (
        "The game: Italian draw poker, 32 Card Draw or Texas Hold'em"
    ),
    "Poker tradizionale (italiana)": "Italian draw poker",
    "32 Card Draw (32carte)": "32 Card Draw",
    "Texas Hold'em": "Texas Hold'em",
    "cip": "min_bet",
    "La puntata minima (cip); nel 32carte e nel texas è il buio grande": (
        "The minimum bet; the big blind in 32 Card Draw and Hold'em"
    ),
    "invito": "ante",
    "L'invito (solo poker tradizionale); se manca vale quanto il cip": (
        "The ante (Italian draw poker only); defaults to the minimum bet"
    ),
    "limite": "limit",
    "Il limite delle puntate (32carte e texas)": "The betting limit (32 Card Draw and Hold'em)",
    "Limite fisso": "Fixed limit",
    "Pot limit": "Pot limit",
    "No limit": "No limit",
    "mazzo": "deck",
    "Il mazzo del poker tradizionale": "The deck for Italian draw poker",
    "Automatico (11 meno i giocatori)": "Automatic (11 minus the players)",
    "Sempre 32 carte": "Always 32 cards",
    "Americano (52 carte, punteggi internazionali)": "American (52 cards, international ranking)",
    "max_cambio": "max_draw",
    "Quante carte si possono cambiare al massimo (poker tradizionale)": (
        "The most cards a player may draw (Italian draw poker)"
    ),
    "invito_tutti": "everyone_antes",
    "Tutti mettono l'invito, non solo il mazziere": "Every player antes, not just the dealer",
    "buio_multiplo": "blind_multiple",
    "Il buio costa questo multiplo del piatto": "The blind opening costs this multiple of the pot",
    "controcontrobuio": "third_blind",
    "Permetti il contro-controbuio (almeno 5 giocatori)": "Allow a third blind raise (at least 5 players)",
    "over": "over",
    "Con più di 3 giocatori si mette anche l'Over (32carte)": (
        "With more than 3 players the Over is posted too (32 Card Draw)"
    ),
    "semi": "suits",
    "I semi spareggiano i punti uguali (32carte)": "Suits break ties between equal hands (32 Card Draw)",
    "tempo": "turn_time",
    "Secondi a disposizione per ogni decisione": "Seconds allowed for each decision",
    "avviso": "ping",
    "Dopo quanti secondi menzionare chi deve giocare (0 subito, off mai; se manca: 15)": (
        "After how many seconds to mention the player to act (0 at once, off never; default 15)"
    ),
    # /avvisi (turn calls, bot/turn_calls.py)
    "avvisi": "notifications",
    "Ricevi o no una menzione quando tocca a te al tavolo": (
        "Get (or stop getting) a mention when it is your turn at a table"
    ),
    "Attivi o spenti; se manca, cambia quello che hai ora": "On or off; without it, switch what you have now",
    "Attivi": "On",
    "Spenti": "Off",
    # /tavolo siedi options
    "buyin": "buy_in",
    "Quante fiches portare al tavolo (se manca: 100 cip)": (
        "How many chips to bring to the table (default: 100 minimum bets)"
    ),
    # chip commands
    "saldo": "balance",
    "Le tue fiches in questo server": "Your chips in this server",
    "bonus": "bonus",
    "Ritira il bonus giornaliero di fiches": "Claim your daily chip bonus",
    "classifica": "leaderboard",
    "I giocatori con più fiches in questo server": "The players with the most chips in this server",
    "storico": "history",
    "Le tue ultime mani e i tuoi ultimi movimenti di fiches": "Your latest hands and chip movements",
    "accredita": "grant",
    "Dai fiches a un giocatore (solo chi gestisce il server)": (
        "Give chips to a player (server managers only)"
    ),
    "utente": "user",
    "Il giocatore che riceve le fiches": "The player who receives the chips",
    "importo": "amount",
    "Quante fiches": "How many chips",
    # The game commands' names, for the game cog.
    "apro": "open",
    "vedo": "call",
    "rilancio": "raise",
    "passo": "fold",
    "parol": "check",
    "punto": "bet",
    "servito": "stand",
    "cambio": "draw",
    "buio": "blind",
    "controbuio": "counterblind",
    "carte": "cards",
    "paròl": "check",
    "Apri il piatto (serve almeno la coppia richiesta)": "Open the pot (you need at least the required pair)",
    "Quante fiches: un numero, cip, piatto o tutto (se manca: un cip)": (
        "How many chips: a number, cip, piatto (pot) or tutto (all-in); default one minimum bet"
    ),
    "Vedi la puntata": "Call the bet",
    "Vedi e rilancia di un importo": "Call and raise by an amount",
    "Di quanto rilanci sopra la chiamata: un numero, cip, piatto o tutto": (
        "How much you raise over the call: a number, cip, piatto (pot) or tutto (all-in)"
    ),
    "Passa: non apri, oppure lasci la mano": "Pass: do not open, or fold",
    "Paròl: non punti e passi la parola": "Check: no bet, the turn passes on",
    "Punta un importo": "Bet an amount",
    "Quante fiches: un numero, cip, piatto o tutto": (
        "How many chips: a number, cip, piatto (pot) or tutto (all-in)"
    ),
    "Sei servito: non cambi carte": "Stand pat: draw no cards",
    "Cambia delle carte": "Draw new cards",
    "Le carte da cambiare: per posizione (1 3 5) o per carta (7♠ 9♦)": (
        "The cards to change: by position (1 3 5) or by card (7♠ 9♦)"
    ),
    "Apri al buio, prima di vedere le carte": "Open blind, before seeing your cards",
    "Rispondi al buio con il controbuio": "Answer the blind with a counter-blind",
    "Mostra solo a te le tue carte": "Show your cards to you only",
    # /torneo
    "torneo": "tournament",
    "Un torneo sit-and-go in questo canale": "A sit-and-go tournament in this channel",
    "Crea un torneo in questo canale (o thread)": "Create a tournament in this channel (or thread)",
    "L'iscrizione in fiches del server, che va nel montepremi (se manca: 100)": (
        "The entry fee in server chips, paid into the prize pool (default: 100)"
    ),
    "fiches": "stack",
    "I gettoni del torneo per ogni giocatore (se manca: 100 cip)": (
        "Tournament chips for each player (default: 100 times the first minimum bet)"
    ),
    "Il cip del primo livello; nel 32carte e nel texas è il buio grande": (
        "The first level's minimum bet; the big blind in 32 Card Draw and Hold'em"
    ),
    "L'invito del primo livello (solo poker tradizionale); se manca vale quanto il cip": (
        "The first level's ante (Italian draw poker only); defaults to the minimum bet"
    ),
    "ritmo": "pace",
    "Ogni quante mani (o minuti) salgono le puntate": (
        "How many hands (or minutes) between raises of the stakes"
    ),
    "unita": "unit",
    "Il ritmo si conta in mani o in minuti": "The pace counts hands or minutes",
    "Mani": "Hands",
    "Minuti": "Minutes",
    "struttura": "structure",
    "Come salgono le puntate": "How the stakes rise",
    "Scala (1, 1,5, 2, 3, 4, 6, 8, 10...)": "Ladder (1, 1.5, 2, 3, 4, 6, 8, 10...)",
    "Raddoppio a ogni livello": "Double at every level",
    "premi": "payouts",
    "Come si divide il montepremi (se manca: secondo il numero di iscritti)": (
        "How the prize pool is shared (default: by the number of entrants)"
    ),
    "Tutto al vincitore": "Winner takes all",
    "65% e 35%": "65% and 35%",
    "50%, 30% e 20%": "50%, 30% and 20%",
    "posti": "seats",
    "Quanti giocatori al massimo (il torneo parte da solo quando è al completo)": (
        "The most players (the tournament starts by itself when full)"
    ),
    "iscriviti": "join",
    "Iscriviti al torneo pagando l'iscrizione": "Join the tournament, paying the entry fee",
    "ritirati": "withdraw",
    "Ritirati: prima dell'inizio l'iscrizione ti torna, dopo resti assente": (
        "Withdraw: before the start your entry fee comes back, after it you are away"
    ),
    "Fai iniziare il torneo (chi l'ha creato)": "Start the tournament (its creator)",
    "Mostra il torneo di questo canale": "Show this channel's tournament",
    "annulla": "cancel",
    "Annulla il torneo prima della prima mano: le iscrizioni tornano": (
        "Call the tournament off before its first hand: entry fees are refunded"
    ),
    # /tavolo computer, /tavolo congeda and the table option for computer players
    "computer": "computer",
    "Fai sedere un giocatore del computer, con le fiches della casa": (
        "Seat a computer player, staked with the house's chips"
    ),
    "livello": "level",
    "Come gioca: facile o esperto (se manca: esperto)": "How he plays: easy or expert (default: expert)",
    "Facile": "Easy",
    "Esperto": "Expert",
    "congeda": "dismiss",
    "Fai alzare un giocatore del computer: le sue fiches tornano alla casa": (
        "Dismiss a computer player: his chips go back to the house"
    ),
    "nome": "name",
    "Quale giocatore del computer (se manca: l'ultimo seduto)": (
        "Which computer player (default: the last seated)"
    ),
    "Iscrivi un giocatore del computer: l'iscrizione la paga la casa": (
        "Enter a computer player: the house pays his entry fee"
    ),
    "max_computer": "max_computers",
    "Quanti giocatori del computer possono sedersi (se manca: tutti i posti meno uno)": (
        "How many computer players may sit (default: every seat but one)"
    ),
    # /tavolo rientra
    "rientra": "return",
    "Torna in gioco dopo essere rimasto fuori": "Play again after sitting out",
    # Replays, statistics and the night's summary
    "mano": "hand",
    "Rivedi una mano finita di questo tavolo": "Replay a finished hand of this table",
    "numero": "number",
    "Il numero della mano (se manca: l'ultima finita)": "The hand's number (default: the last finished one)",
    "statistiche": "stats",
    "Le statistiche di gioco di un giocatore in questo server": "A player's game statistics in this server",
    "Di chi vedere le statistiche (se manca: le tue)": "Whose statistics to show (default: yours)",
    "riepilogo": "summary",
    "Il riepilogo della serata a questo tavolo": "The summary of the night at this table",
}

_ENGLISH_LOCALES = frozenset({discord.Locale.american_english, discord.Locale.british_english})


class EnglishTranslator(app_commands.Translator):
    """Give every Italian command string its English form for English Discord clients."""

    def __init__(self) -> None:
        super().__init__()
        self.missing: set[str] = set()

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in _ENGLISH_LOCALES:
            return None
        english = ENGLISH.get(string.message)
        if english is None:
            self.missing.add(string.message)
        return english


_F = TypeVar("_F", bound=Callable[..., Any])


def localized_options(**descriptions: str) -> Callable[[_F], _F]:
    """Name and describe a command's options so that both are translatable.

    discord.py only translates an option's name when it was renamed with a `locale_str`, so every
    option gets renamed to itself here.
    """

    def decorator(func: _F) -> _F:
        func = app_commands.rename(**{name: T(name) for name in descriptions})(func)
        return app_commands.describe(**{name: T(text) for name, text in descriptions.items()})(func)

    return decorator
