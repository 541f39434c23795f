"""The provably fair deck (engine.fairness): the commitment, the reveal string, and a deal plan that
matches, card for card, a hand the engine plays from the committed order as the bot will play it
(``Table(options, rng=reshuffle_rng(salt))`` and ``start_hand(deck=hand_deck(order, size))``)."""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Sequence

import pytest

from engine.actions import Action, ActionKind
from engine.cards import Card, deck, deck_size_for_players, format_cards, parse_cards
from engine.errors import EngineError
from engine.events import (
    ActionTaken,
    CardsDealt,
    CardsDrawn,
    DiscardsReshuffled,
    Event,
    HandStarted,
    StreetStarted,
)
from engine.events import Street as S
from engine.fairness import (
    PREFIX,
    Commitment,
    FairnessError,
    deal_plan,
    digest_of,
    hand_deck,
    make_deck_commitment,
    new_deck_commitment,
    parse_reveal,
    reshuffle_rng,
    reveal_string,
    verify,
)
from engine.options import TableOptions, Variant
from engine.table import Table

K = ActionKind
SALT = bytes.fromhex("00112233445566778899aabbccddeeff")
# An explicit committed order of the 52 cards, top of the deck first.
ORDER = parse_cards(
    "Kd 7h Ac 3s Qh 9c 8h Jd 2c As Td 5h 6s Kc 9h 4d Qs 7c Ah Jc 8d 2s 3h Th 6c "
    "Ks 9d 5c Qc 7d Js 8c 4h 2d Ad 3c Tc 6h Kh 9s 5d Jh 7s Qd 8s 4c 2h 6d 3d Ts 5s 4s"
)


def _shuffled(seed: int) -> list[Card]:
    cards = deck(52)
    random.Random(seed).shuffle(cards)
    return cards


# ----------------------------------------------------------------------------- commitment


def test_the_reveal_string_holds_the_prefix_the_salt_and_every_card_in_order() -> None:
    commitment = make_deck_commitment(ORDER, SALT)
    assert commitment.reveal == f"{PREFIX}|{SALT.hex()}|" + " ".join(card.ascii for card in ORDER)
    assert commitment.reveal.isascii()
    assert commitment.digest == hashlib.sha256(commitment.reveal.encode()).hexdigest()
    assert commitment.digest == digest_of(commitment.reveal)
    parsed = parse_reveal(commitment.reveal)
    assert parsed.salt == SALT and parsed.cards == ORDER


def test_verify_accepts_the_reveal_and_refuses_any_change() -> None:
    commitment = make_deck_commitment(ORDER, SALT)
    assert verify(commitment.reveal, commitment)
    assert verify(commitment.reveal, "  " + commitment.digest.upper() + " ")
    swapped = [ORDER[1], ORDER[0], *ORDER[2:]]
    assert not verify(reveal_string(swapped, SALT), commitment)
    assert not verify(reveal_string(ORDER, bytes(16)), commitment)
    assert not verify(commitment.reveal + " ", commitment)


def test_the_symbol_notation_reads_the_same_cards_but_hashes_differently() -> None:
    ascii_reveal = reveal_string(ORDER, SALT)
    symbols = f"{PREFIX}|{SALT.hex()}|{format_cards(ORDER)}"
    assert parse_reveal(symbols).cards == parse_reveal(ascii_reveal).cards
    assert not verify(symbols, digest_of(ascii_reveal))  # the hash is of the exact string published


def test_a_new_commitment_is_a_whole_deck_and_a_fresh_salt() -> None:
    first, second = new_deck_commitment(), new_deck_commitment()
    for commitment in (first, second):
        parsed = parse_reveal(commitment.reveal)
        assert sorted(parsed.cards) == sorted(deck(52))
        assert len(parsed.salt) == 16
        assert verify(commitment.reveal, commitment.digest)
    assert first.reveal != second.reveal


@pytest.mark.parametrize(
    "reveal",
    [
        "",
        "tavolo-verde/v2|00112233445566778899aabbccddeeff|Ah",
        f"{PREFIX}|zz112233445566778899aabbccddeeff|{' '.join(c.ascii for c in ORDER)}",
        f"{PREFIX}|0011|{' '.join(c.ascii for c in ORDER)}",
        f"{PREFIX}|{SALT.hex()}|{' '.join(c.ascii for c in ORDER[:-1])}",  # 51 cards
        f"{PREFIX}|{SALT.hex()}|{' '.join(c.ascii for c in [*ORDER[:-1], ORDER[0]])}",  # a card twice
        f"{PREFIX}|{SALT.hex()}|{' '.join(c.ascii for c in ORDER[:-1])} Xx",
        f"{PREFIX}|{SALT.hex()}|{' '.join(c.ascii for c in ORDER)}|extra",
        f"{PREFIX}|{SALT.hex()}|" + " ".join(c.ascii for c in deck(52) if c.rank != 7) + " 2h 2d 2c 2s",
    ],
)
def test_a_malformed_reveal_is_refused_with_one_italian_sentence(reveal: str) -> None:
    with pytest.raises(FairnessError) as caught:
        parse_reveal(reveal)
    message = str(caught.value)
    assert message.endswith(".") and "\n" not in message


def test_a_commitment_needs_a_whole_deck_and_a_long_salt() -> None:
    with pytest.raises(FairnessError):
        make_deck_commitment(ORDER[:51], SALT)
    with pytest.raises(FairnessError):
        make_deck_commitment(ORDER, bytes(8))
    # A complete short deck is a deck too.
    thirty_two = hand_deck(ORDER, 32)
    assert parse_reveal(make_deck_commitment(thirty_two, SALT).reveal).cards == thirty_two


def test_the_reshuffle_generator_is_fixed_by_the_salt_through_hmac() -> None:
    seed = hmac.new(SALT, b"tavolo-verde/v1|rimescolata", hashlib.sha256).digest()
    expected = random.Random(int.from_bytes(seed, "big"))
    rng = reshuffle_rng(SALT)
    assert [rng.random() for _ in range(5)] == [expected.random() for _ in range(5)]
    assert reshuffle_rng(SALT).random() == reshuffle_rng(SALT).random()
    assert reshuffle_rng(SALT).random() != reshuffle_rng(bytes(16)).random()


def test_the_hand_deck_is_the_committed_order_restricted_to_its_cards() -> None:
    thirty_two = hand_deck(ORDER, 32)
    assert thirty_two == tuple(card for card in ORDER if card.rank >= 7)
    assert sorted(thirty_two) == sorted(deck(32))
    assert hand_deck(ORDER, 52) == ORDER
    with pytest.raises(FairnessError):
        hand_deck(thirty_two, 36)  # a 32-card commitment cannot deal a 36-card hand


# ----------------------------------------------------------------------------- the live hand


def _live(
    order: Sequence[Card],
    salt: bytes,
    options: TableOptions,
    players: int,
    size: int,
    draws: Sequence[Sequence[Card] | None] | None = None,
    buio: bool = True,
) -> tuple[Table, list[Event], dict[int, int]]:
    """A hand as the bot will play it: its own table, the committed order, the derived rng. Players
    marked ``None`` fold in the first betting round (``passo``), as a real player would; with
    ``buio=False`` the buio is declined and the first player who can open opens."""
    table = Table(options, rng=reshuffle_rng(salt))
    for player in range(1, players + 1):
        table.sit(player, 5000)
    events = table.start_hand(deck=hand_deck(order, size))
    started = next(e for e in events if isinstance(e, HandStarted))
    position = {pid: i for i, pid in enumerate(started.players)}
    for _ in range(300):
        pid = table.to_act
        if pid is None:
            break
        legal = {a.kind: a for a in table.legal_actions()}
        street = table.street
        folding = draws is not None and draws[position[pid]] is None
        if street is S.SECONDO_GIRO and options.variant is not Variant.TEXAS:
            break
        if street is S.CAMBIO and draws is None:
            break
        if street is S.BUIO:
            action = Action(pid, K.BUIO if buio and K.BUIO in legal else K.PASSO)
        elif street is S.APERTURA:
            try:
                events += table.act(Action(pid, K.APRO, legal[K.APRO].min))
                continue
            except EngineError:  # his hand does not qualify: a refused request changes nothing
                action = Action(pid, K.PASSO)
        elif street is S.CAMBIO and draws is not None:
            cards = tuple(draws[position[pid]] or ())
            action = Action(pid, K.CAMBIO, len(cards), cards) if cards else Action(pid, K.SERVITO)
        elif folding and K.PASSO in legal:
            action = Action(pid, K.PASSO)
        elif folding:
            events += table.leave(pid)
            continue
        else:
            action = Action(pid, K.VEDO if K.VEDO in legal else K.PAROL)
        events += table.act(action)
    return table, events, position


def _dealt_by_position(events: Sequence[Event], position: dict[int, int]) -> list[tuple[Card, ...]]:
    hands: list[tuple[Card, ...]] = [() for _ in position]
    for event in events:
        if isinstance(event, CardsDealt):
            hands[position[event.player]] = event.cards
    return hands


@pytest.mark.parametrize(("players", "out"), [(3, [2]), (4, [1]), (5, [1, 4]), (6, [6])])
def test_italiana_players_who_left_while_the_buio_was_asked_get_no_cards_from_the_deck_for_all(
    players: int, out: list[int]
) -> None:
    """The deck is the one for every player the hand began with; those who left before the deal are
    skipped, one card at a time round the others (rules: the buio is asked before the cards)."""
    size = deck_size_for_players(players)
    plan = deal_plan(reveal_string(ORDER, SALT), "italiana", players, out=out)
    cards = hand_deck(ORDER, size)
    assert plan.deck == cards
    staying = [i for i in range(players) if i + 1 not in out]
    expected = [() for _ in range(players)]
    for turn, i in enumerate(staying):
        expected[i] = cards[turn : 5 * len(staying) : len(staying)]
    assert list(plan.hands) == expected
    assert plan.stub == cards[5 * len(staying) :]
    # The engine's own table, the players leaving while it asks the buio.
    table = Table(TableOptions(), rng=reshuffle_rng(SALT))
    for player in range(1, players + 1):
        table.sit(player, 5000)
    events = table.start_hand(deck=cards)
    started = next(e for e in events if isinstance(e, HandStarted))
    assert not any(isinstance(e, CardsDealt) for e in events), "the buio is asked before the cards"
    asked = table.to_act
    for pos in sorted(out, key=lambda pos: started.players[pos - 1] == asked):  # he leaves last
        events += table.leave(started.players[pos - 1])
    while not any(isinstance(e, CardsDealt) for e in events):
        events += table.act(Action(table.to_act, ActionKind.PASSO))
    position = {pid: i for i, pid in enumerate(started.players)}
    assert _dealt_by_position(events, position) == list(plan.hands)


def test_only_the_italiana_buio_question_comes_before_the_cards() -> None:
    with pytest.raises(FairnessError):
        deal_plan(reveal_string(ORDER, SALT), "texas", 3, out=[1])
    with pytest.raises(FairnessError):
        deal_plan(reveal_string(ORDER, SALT), "italiana", 3, out=[4])


@pytest.mark.parametrize("players", [2, 3, 4, 6, 9])
def test_italiana_is_dealt_from_the_committed_order_with_its_deck_size_by_players(players: int) -> None:
    size = deck_size_for_players(players)
    plan = deal_plan(reveal_string(ORDER, SALT), "italiana", players)
    cards = hand_deck(ORDER, size)
    assert len(plan.deck) == size and plan.deck == cards
    # One card at a time from the dealer's left: position i gets cards i, i + n, i + 2n, ...
    assert list(plan.hands) == [cards[i : 5 * players : players] for i in range(players)]
    assert plan.stub == cards[5 * players :]
    table, events, position = _live(ORDER, SALT, TableOptions(), players, size)
    assert _dealt_by_position(events, position) == list(plan.hands)
    for pid, pos in position.items():
        assert table.cards_of(pid) == plan.hands[pos]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_32carte_is_dealt_from_the_32_cards_of_the_committed_order(players: int) -> None:
    plan = deal_plan(reveal_string(ORDER, SALT), "32carte", players)
    cards = hand_deck(ORDER, 32)
    assert list(plan.hands) == [cards[i : 5 * players : players] for i in range(players)]
    _, events, position = _live(ORDER, SALT, TableOptions(variant=Variant.TRENTADUE), players, 32)
    assert _dealt_by_position(events, position) == list(plan.hands)


@pytest.mark.parametrize("players", [2, 3, 6, 10])
def test_texas_hole_cards_burns_and_board_come_from_the_committed_order(players: int) -> None:
    plan = deal_plan(reveal_string(ORDER, SALT), Variant.TEXAS, players)
    n = 2 * players
    assert list(plan.hands) == [ORDER[i:n:players] for i in range(players)]
    assert plan.burns == (ORDER[n], ORDER[n + 4], ORDER[n + 6])
    assert plan.board == (*ORDER[n + 1 : n + 4], ORDER[n + 5], ORDER[n + 7])
    _, events, position = _live(ORDER, SALT, TableOptions(variant=Variant.TEXAS), players, 52)
    assert _dealt_by_position(events, position) == list(plan.hands)
    board = [card for e in events if isinstance(e, StreetStarted) for card in e.board]
    assert tuple(board) == plan.board


def _received(events: Sequence[Event], position: dict[int, int]) -> dict[int, tuple[Card, ...]]:
    return {position[e.player] + 1: e.received for e in events if isinstance(e, CardsDrawn)}


def test_a_draw_from_the_stub_is_what_the_plan_says() -> None:
    # Italiana, 4 players, 32 cards: 12 cards in the stub. Position 3 folds, 2 is servito.
    reveal = reveal_string(ORDER, SALT)
    hands = deal_plan(reveal, "italiana", 4).hands
    draws: list[tuple[Card, ...] | None] = [hands[0][:3], (), None, hands[3][:2]]
    plan = deal_plan(reveal, "italiana", 4, draws)
    assert plan.draw is not None and not plan.reshuffles
    served = {d.position: d for d in plan.draw}
    assert served[1].received == plan.stub[:3]
    assert served[4].received == plan.stub[3:5]
    assert served[2].received == () and 3 not in served
    for buio in (True, False):  # the buio and an opening lead to the same draw
        _, events, position = _live(ORDER, SALT, TableOptions(), 4, 32, draws, buio=buio)
        assert buio or any(isinstance(e, ActionTaken) and e.kind is K.APRO for e in events)
        assert _received(events, position) == {1: plan.stub[:3], 4: plan.stub[3:5]}
    assert not [e for e in events if isinstance(e, DiscardsReshuffled)]


def test_a_lone_big_draw_by_the_last_player_burns_the_next_card_of_the_stub() -> None:
    reveal = reveal_string(ORDER, SALT)
    hands = deal_plan(reveal, "italiana", 3).hands
    draws: list[tuple[Card, ...] | None] = [(), hands[1][:1], hands[2][:4]]
    plan = deal_plan(reveal, "italiana", 3, draws)
    assert plan.burnt_in_draw and plan.burnt_card == plan.stub[4]
    assert plan.draw is not None
    assert {d.position: d.received for d in plan.draw if d.received} == {
        2: plan.stub[:1],
        3: (*plan.stub[1:4], plan.stub[5]),
    }
    _, events, position = _live(ORDER, SALT, TableOptions(), 3, 28, draws)
    assert _received(events, position) == {2: plan.stub[:1], 3: (*plan.stub[1:4], plan.stub[5])}


@pytest.mark.parametrize(("variant", "players", "size"), [("italiana", 5, 36), ("32carte", 5, 32)])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_draw_that_reshuffles_the_discards_is_fixed_by_the_reveal(
    variant: str, players: int, size: int, seed: int
) -> None:
    # 5 players: 11 (italiana) or 7 (32carte) cards left; four players change 3 cards each.
    order = _shuffled(seed)
    salt = bytes([seed]) * 16
    reveal = reveal_string(order, salt)
    hands = deal_plan(reveal, variant, players).hands
    draws: list[tuple[Card, ...] | None] = [hands[0][:3], hands[1][:3], None, hands[3][:3], hands[4][:3]]
    plan = deal_plan(reveal, variant, players, draws)
    assert plan.reshuffles and plan.draw is not None
    options = TableOptions(variant=Variant(variant))
    table, events, position = _live(order, salt, options, players, size, draws)
    assert [e for e in events if isinstance(e, DiscardsReshuffled)]
    assert _received(events, position) == {d.position: d.received for d in plan.draw if d.received}
    live_reshuffles = table.hand_record()["reshuffles"]
    assert [tuple(Card.from_code(c) for c in reversed(r)) for r in live_reshuffles] == list(plan.reshuffles)
    # The first cards still come from the stub, in order.
    stub_served = [card for d in plan.draw for card in d.received if card in plan.stub]
    assert stub_served == list(plan.stub)
    # Another salt, same order: the same stub, another reshuffle (for at least one of the seeds'
    # reshuffles the pool has more than one card, so the orders differ).
    other = deal_plan(reveal_string(order, bytes(16)), variant, players, draws)
    assert other.stub == plan.stub
    assert other.reshuffles != plan.reshuffles or all(len(r) == 1 for r in plan.reshuffles)


def test_the_deal_plan_refuses_impossible_requests_in_italian() -> None:
    reveal = reveal_string(ORDER, SALT)
    hands = deal_plan(reveal, "italiana", 3).hands
    cases: list[tuple[object, int, object]] = [
        ("texas", 11, None),
        ("32carte", 6, None),
        ("briscola", 3, None),
        ("texas", 3, [(), (), ()]),
        ("italiana", 3, [(), ()]),
        ("italiana", 3, [hands[1][:1], (), ()]),  # not his card
        ("italiana", 3, [None, None, ()]),
    ]
    for variant, players, draws in cases:
        with pytest.raises(FairnessError):
            deal_plan(reveal, variant, players, draws)  # type: ignore[arg-type]


def test_a_hand_nobody_opens_has_no_draw() -> None:
    # Two players (no buio), 24 cards: a pair of nines and a pair of tens, nothing to open with.
    first, second = parse_cards("9h 9d Tc Kh Ac"), parse_cards("Th Td Js Qc Ad")
    top = [card for pair in zip(first, second, strict=True) for card in pair]
    order = [*top, *(card for card in ORDER if card not in top)]
    reveal = reveal_string(order, SALT)
    assert deal_plan(reveal, "italiana", 2).hands == (first, second)
    drawn = deal_plan(reveal, "italiana", 2, [(), ()])
    assert drawn.draw is None and "nessuno ha aperto" in drawn.no_draw_reason


def test_the_commitment_dataclass_is_what_the_bot_shows_and_publishes() -> None:
    commitment = Commitment("x", digest_of("x"))
    assert verify("x", commitment) and not verify("y", commitment)
