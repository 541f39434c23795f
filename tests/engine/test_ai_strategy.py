"""Computer players, one rule-sensitive decision at a time, on explicit decks through real tables."""

from __future__ import annotations

import random
import threading

import pytest

from engine.actions import Action
from engine.ai.hands import discards, qualifies_to_open
from engine.ai.strategy import decide
from engine.ai.view import HandLog, PlayerView
from engine.cards import deck, parse_cards
from engine.errors import EngineError
from engine.events import Street
from engine.options import TableOptions
from engine.ranking import Ranking
from engine.table import Table
from tests.engine.table_helpers import K, act, make_table, stacked

LEVELS = ("facile", "esperto")


def codes(text: str) -> list[int]:
    return [c.code for c in parse_cards(text)]


def cards(text: str) -> set[str]:
    return {c.ascii for c in parse_cards(text)}


def thrown(action: Action) -> set[str]:
    return {c.ascii for c in action.cards}


class Game:
    """A real table with its event log, for asking a computer player at a chosen moment."""

    def __init__(self, table: Table, deal: list[str], rest: str = "") -> None:
        self.table = table
        self.log = HandLog()
        self.log.feed(table.start_hand(deck=stacked(deal, rest)))

    def act(self, player: int, kind: K, amount: int | None = None, discard: str = "") -> None:
        self.log.feed(act(self.table, player, kind, amount, discard))

    def view(self) -> PlayerView:
        player = self.table.to_act
        assert player is not None
        return self.log.view(self.table, player)

    def decide(self, level: str = "esperto", seed: int = 0) -> Action:
        return decide(self.view(), random.Random(seed), level)


# ------------------------------------------------------------------ the opening (rules §2.4)


def with_others(hand: str, players: int, size: int = 32) -> list[str]:
    """``hand`` first in deal order, the other players' hands from the rest of the deck."""
    mine = set(parse_cards(hand))
    rest = [c.ascii for c in deck(size) if c not in mine]
    random.Random(hand).shuffle(rest)
    return [hand] + [" ".join(rest[5 * i : 5 * i + 5]) for i in range(players - 1)]


def opening_game(hand: str, level_rises: int = 0) -> Game:
    """Player 2 holds ``hand`` at the opening, after ``level_rises`` void hands."""
    table = make_table("italiana", players=4)
    for _ in range(level_rises):  # nobody opens: the level rises J -> Q -> K
        log = HandLog()
        log.feed(table.start_hand())
        while table.hand_running:
            act(table, table.to_act or 0, K.PASSO)
    # The dealer moved on: ``hand`` goes to the first player after him, who speaks first.
    return Game(table, with_others(hand, 4))


def first_speaker(game: Game) -> int:
    if game.table.street is Street.BUIO:
        game.act(game.table.to_act or 0, K.PASSO)
    player = game.table.to_act
    assert player is not None
    return player


@pytest.mark.parametrize("level", LEVELS)
def test_never_opens_without_the_requirement(level: str) -> None:
    game = opening_game("Th Ts 9c 8d Ac")  # a pair of tens: below jacks
    first_speaker(game)
    assert game.decide(level).kind is K.PASSO


@pytest.mark.parametrize("level", LEVELS)
def test_opens_with_a_pair_of_the_level_in_late_position(level: str) -> None:
    game = opening_game_last("Jh Js 9c 8d Ac")
    action = game.decide(level)
    assert action.kind is K.APRO
    game.act(action.player, K.APRO, action.amount)  # the engine accepts it


def opening_game_last(hand: str) -> Game:
    """``hand`` goes to the dealer, who speaks last in the opening; the others pass before him."""
    table = make_table("italiana", players=4)
    deal = with_others(hand, 4)
    game = Game(table, deal[1:] + deal[:1])
    first_speaker(game)
    for _ in range(3):
        game.act(game.table.to_act or 0, K.PASSO)
    return game


def test_esperto_passes_a_marginal_opener_in_early_position() -> None:
    """Position (rules §2.4): the first to speak with only jacks, three players behind him, passes
    (he may still play if another opens); the easy level opens with it anywhere."""
    game = opening_game("Jh Js 9c 8d 7c")
    first_speaker(game)
    assert game.decide("esperto").kind is K.PASSO
    assert game.decide("facile").kind is K.APRO


@pytest.mark.parametrize("level", LEVELS)
def test_opens_a_strong_hand_in_early_position(level: str) -> None:
    game = opening_game("Jh Js Jc 8d Ac")
    first_speaker(game)
    action = game.decide(level)
    assert action.kind is K.APRO
    game.act(action.player, K.APRO, action.amount)


def test_jacks_do_not_open_once_the_level_is_queens() -> None:
    game = opening_game("Jh Js 9c 8d Ac", level_rises=1)
    assert game.view().table.opening_level == 12
    first_speaker(game)
    assert game.decide().kind is K.PASSO


def test_opens_with_a_bilateral_four_card_straight_flush() -> None:
    game = opening_game("8h 9h Th Jh 7c")
    first_speaker(game)
    assert game.decide().kind is K.APRO


@pytest.mark.parametrize("level", [11, 12, 13])
def test_the_requirement_check_agrees_with_the_engine(level: int) -> None:
    rng = random.Random(level)
    full = deck(32)
    for _ in range(150):
        hand = rng.sample(full, 5)
        game = opening_game(" ".join(c.ascii for c in hand), level_rises=level - 11)
        player = first_speaker(game)
        mine = game.table.cards_of(player)
        expected = qualifies_to_open([c.code for c in mine], level, Ranking.ITALIANA, 7)
        try:
            game.act(player, K.APRO, 10)
            accepted = True
        except EngineError:
            accepted = False
        assert accepted == expected, mine


def test_buio_is_rare() -> None:
    table = make_table("italiana", players=4)
    table.start_hand()
    view = HandLog().view(table, table.to_act or 0)
    assert {la.kind for la in view.legal} == {K.BUIO, K.PASSO}
    rng = random.Random(5)
    blind = sum(decide(view, rng, "esperto").kind is K.BUIO for _ in range(2000))
    assert 0 < blind < 100


# ------------------------------------------------------------------ the draw (rules §2.6)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("Th Ts 7c 8d Ks", "7c 8d Ks"),  # keeps a pair
        ("Ah Jh 9h 8h Ks", "Ks"),  # draws to a four-flush
        ("8c 9d Th Js Ac", "Ac"),  # an open-ended straight
        ("9c 9d 9h Js Ac", "Js Ac"),  # keeps trips
        ("9c 9d Kh Ks Ac", "Ac"),  # two pair: draws one
        ("Ac Kd 9h 8s 7c", "Kd 9h 8s 7c"),  # nothing: keeps the ace
    ],
)
def test_the_usual_draw(hand: str, expected: str) -> None:
    got = discards(codes(hand), Ranking.ITALIANA, 7, 4)
    assert {c for c in parse_cards(hand) if c.code in got} == set(parse_cards(expected))


@pytest.mark.parametrize("hand", ["7c 8d 9h Ts Jc", "7h 9h Jh Kh Ah", "9c 9d 9h Js Jd"])
def test_stands_pat_on_a_made_hand(hand: str) -> None:
    assert discards(codes(hand), Ranking.ITALIANA, 7, 4) == ()


def drawing_game(hand: str, variant: str = "32carte") -> Game:
    """Three players of 32carte; everyone calls the big blind, then player 2 (first to draw)
    holds ``hand``."""
    table = make_table(variant, players=3)
    game = Game(table, with_others(hand, 3))
    while game.table.street is not Street.CAMBIO:
        player = game.table.to_act or 0
        game.act(player, K.VEDO if K.VEDO in {la.kind for la in table.legal_actions()} else K.PAROL)
    return game


def test_a_computer_player_keeps_a_pair() -> None:
    game = drawing_game("Th Ts 7c 8d Ks")
    action = game.decide()
    assert action.kind is K.CAMBIO and thrown(action) == cards("7c 8d Ks")
    game.act(action.player, K.CAMBIO, discard="7c 8d Ks")


def test_a_computer_player_draws_to_a_four_flush() -> None:
    action = drawing_game("Ah Jh 9h 8h Ks").decide()
    assert action.kind is K.CAMBIO and thrown(action) == cards("Ks")


@pytest.mark.parametrize("level", LEVELS)
def test_a_computer_player_stands_pat_on_a_straight(level: str) -> None:
    assert drawing_game("7c 8d 9h Ts Jc").decide(level).kind is K.SERVITO


def test_facile_keeps_a_kicker_with_a_pair() -> None:
    action = drawing_game("Th Ts 7c 8d Ks").decide("facile")
    assert action.kind is K.CAMBIO and thrown(action) == cards("7c 8d")


# ------------------------------------------------------------------ betting on equity and pot odds


def flop_game(mine: str, bet: int | None) -> Game:
    """Heads-up no-limit Hold'em: player 1 (button) holds ``mine``, player 2 aces; the flop is
    K♠ Q♠ 9♥ and player 2 bets ``bet`` into a pot of 20 (None: he checks)."""
    table = make_table("texas", players=2, limite="nolimit")
    game = Game(table, ["Ah Ad", mine], "2c Ks Qs 9h 3c 4c 5c 3d")
    game.act(1, K.VEDO)  # the button completes the small blind
    game.act(2, K.PAROL)
    assert game.table.street is Street.FLOP
    if bet is None:
        game.act(2, K.PAROL)
    else:
        game.act(2, K.PUNTO, bet)
    return game


@pytest.mark.parametrize("level", LEVELS)
def test_folds_junk_facing_a_big_bet(level: str) -> None:
    assert flop_game("7c 2d", bet=60).decide(level).kind is K.PASSO


def test_calls_a_small_bet_with_good_pot_odds() -> None:
    # Middle pair against the minimum bet, 10 into 20: a quarter of the final pot, below its equity.
    action = flop_game("9c 8d", bet=10).decide()
    assert action.kind in (K.VEDO, K.RILANCIO)


def test_the_same_hand_folds_to_an_overbet() -> None:
    assert flop_game("9c 8d", bet=400).decide().kind is K.PASSO


def test_bets_a_strong_hand_when_checked_to() -> None:
    action = flop_game("Kd Kc", bet=None).decide()  # top set
    assert action.kind is K.PUNTO and action.amount is not None and action.amount >= 10


def test_checks_junk_behind_rather_than_folding() -> None:
    action = flop_game("7c 2d", bet=None).decide("facile")
    assert action.kind is K.PAROL


def test_decide_refuses_when_it_is_not_his_turn() -> None:
    game = flop_game("7c 2d", bet=60)
    view = game.log.view(game.table, 2)
    with pytest.raises(ValueError):
        decide(view, random.Random(0))


def test_a_loose_aggressors_bet_is_not_read_as_strength() -> None:
    from engine.ai.betting import STYLES, Level, Rival, thresholds, tries_for

    style = STYLES[Level.ESPERTO]
    tight = Rival(2, None, aggression=2, opened=None, loose=False, sticky=False)
    loose = Rival(2, None, aggression=2, opened=None, loose=True, sticky=False)
    assert tries_for(tight, style) == 3 and tries_for(loose, style) == 1
    assert tries_for(tight, STYLES[Level.FACILE]) == 1
    view = flop_game("7c 2d", bet=None).view()
    station = Rival(2, None, aggression=0, opened=None, loose=False, sticky=True)
    unknown = Rival(2, None, aggression=0, opened=None, loose=False, sticky=False)
    assert thresholds(view, style, [station]).bet < thresholds(view, style, [unknown]).bet


def _decided_in_time(view: PlayerView, rng: random.Random, seconds: float = 10.0) -> Action:
    """`decide` in a daemon thread: a decision that never returns fails the test instead of hanging it."""
    result: list[Action] = []
    worker = threading.Thread(target=lambda: result.append(decide(view, rng, "esperto")), daemon=True)
    worker.start()
    worker.join(seconds)
    assert result, f"no decision within {seconds:g} s"
    return result[0]


@pytest.mark.parametrize("seed", range(3))
def test_experts_decide_at_a_full_italiana_table_on_the_32_card_deck(seed: int) -> None:
    """Six players, the most the 32-card deck seats: five opponents' hands and his own draw need more
    than the 27 cards he does not hold, and at the table the discards are shuffled back. The pre-draw
    equity must not look for a 28th unused card for ever (engine/ai/equity.py `draw_equity`)."""
    table = Table(TableOptions(variant="italiana", mazzo="32"), rng=random.Random(seed))
    for player in range(1, 7):
        table.sit(-player, 1000)
    log = HandLog()
    log.feed([e for e in table.start_hand() if e.private_to is None])
    rng = random.Random(seed + 1)
    while table.hand_running:
        player = table.to_act
        assert player is not None
        action = _decided_in_time(log.view(table, player), rng)
        log.feed([e for e in table.act(action) if e.private_to is None])
