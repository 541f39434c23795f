"""Sit-and-go tournaments through the fake Discord: whole tournaments of each variant to the winner,
payouts, eliminations and levels, the refusals, and restarts that lose or pay nothing twice."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest

from bot import tournaments as bot_tournaments
from bot.config import ConfigError, Settings
from bot.tables import TOURNAMENT_TABLE
from bot.timers import ManualClock
from cogs.mano import NO_HAND_YET, STILL_RUNNING, no_such_hand
from engine.errors import EngineError
from engine.fairness import verify
from engine.tournament import Phase, step_away
from tests.discord.gioco_support import stacked
from tests.discord.torneo_support import STARTING, Torneo, accepted

BUY_IN = 50


@pytest.fixture
async def h(harness_factory: Any) -> Any:
    return await harness_factory(tournament_pause=0)


async def balances(h: Any, users: list[Any]) -> dict[int, int]:
    return {u.id: await h.bot.storage.balance(h.guild_id, u.id) for u in users}


def public(h: Any, channel: str = "poker") -> list[str]:
    return [m.text() for m in h.messages(channel)]


async def check_finished(h: Any, game: Torneo, users: list[Any], finished: Any, every: int) -> None:
    """The end of a whole tournament: prizes equal to the pool and paid once, places 1..N with one
    elimination announced per loser, one level change announced per level, standings posted."""
    t = finished.tournament
    finishes = t.finishes()
    assert sorted(finishes) == sorted(u.id for u in users)
    places = sorted(place for place, _ in finishes.values())
    assert places[0] == 1 and places.count(1) == 1, places
    assert sum(prize for _, prize in finishes.values()) == BUY_IN * len(users)
    have = await balances(h, users)
    assert have == {p: STARTING - BUY_IN + prize for p, (_, prize) in finishes.items()}
    assert await h.bot.storage.check() == []
    texts = public(h)
    out = r"<@(\d+)> è eliminat[oa]: (\d+)° posto"
    told = [(int(p), int(n)) for x in texts for p, n in re.findall(out, x)]
    told = [(int(p), int(n)) for x in texts for p, n in re.findall(out, x)]
    assert len(told) == len(users) - 1 and dict(told) == {p: f[0] for p, f in finishes.items() if f[0] != 1}
    assert [n for _, n in told] == sorted((n for _, n in told), reverse=True), "the last place goes out first"
    # Levels on schedule: a new level every `every` hands, announced once each (the last hand ends
    # the tournament instead of raising the stakes).
    assert t.level_number == 1 + (t.hands_played - 1) // every
    assert sum(x.count("Salgono le puntate") for x in texts) == t.level_number - 1
    labels = {c.get("label") for m in h.messages("poker") for c in m.components}
    assert "Prossima mano" not in labels, "a tournament deals by itself"
    assert any("Torneo finito: segue la classifica." in m.text() for m in h.messages("poker"))
    standings = [m for m in h.messages("poker") if "Classifica finale" in m.content]
    assert len(standings) == 1 and standings[0].attachments[0].filename == "classifica.png"
    assert standings[0].attachments[0].data.startswith(b"\x89PNG")
    winner = next(p for p, (place, _) in finishes.items() if place == 1)
    assert f"1° <@{winner}>" in standings[0].content
    assert game.live is None and h.bot.tournaments.get(game.channel_id) is None
    assert await h.bot.storage.live_tournaments() == []
    # /statistiche counts the tournament: the place and the net in server chips, for each player.
    for user in users:
        place, prize = finishes[user.id]
        reply = await h.slash(user, "statistiche")
        assert reply.ephemeral
        tournaments = {f["name"]: f["value"] for f in reply.embeds[0]["fields"]}["Tornei"].split("\n")
        net = prize - BUY_IN
        assert tournaments == [
            f"Tornei giocati: 1, vinti: {int(place == 1)}, a premio: {int(prize > 0)}",
            f"Miglior piazzamento: {place}°",
            f"Risultato netto: {'+' if net >= 0 else '−'}{abs(net)} fiches",
        ]


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("texas", 3, {"cip": 20, "fiches": 100}),
        ("32carte", 3, {"cip": 20, "fiches": 100}),
        ("italiana", 3, {"cip": 10, "fiches": 60}),
    ],
)
async def test_a_whole_tournament_to_the_winner(
    h: Any, variant: str, players: int, options: dict[str, Any]
) -> None:
    users = [h.user(n) for n in ("alice", "bob", "carol", "dave", "erin")[:players]]
    game = Torneo(h)
    await game.announce(
        users[0],
        variant,
        buyin=BUY_IN,
        posti=players,
        ritmo=2,
        struttura="raddoppio",
        premi="vincitore",
        **options,
    )
    assert await balances(h, users[:1]) == {users[0].id: STARTING}, "announcing costs nothing"
    joined = await game.join(users)
    assert "si parte" in joined[-1].content, "full: it starts by itself"
    run = game.run
    assert run is not None and game.live is not None and game.live.tournament is run
    assert await balances(h, users) == {u.id: STARTING - BUY_IN for u in users}
    assert await h.bot.storage.check() == []
    await game.play_out()
    await check_finished(h, game, users, run, every=2)


async def test_payouts_of_65_35_with_odd_chips_to_the_winner(h: Any) -> None:
    users = [h.user(n) for n in ("alice", "bob", "carol", "dave", "erin")]
    game = Torneo(h)
    await game.announce(
        users[0], "texas", buyin=BUY_IN + 1, posti=5, ritmo=1, struttura="raddoppio", cip=20, fiches=60
    )
    await game.join(users)
    run = game.run
    await game.play_out()
    t = run.tournament
    assert str(t.structure) == "65-35", "five entrants: two places paid by default"
    pool = (BUY_IN + 1) * 5
    assert t.prizes() == (pool * 65 // 100 + 1, pool * 35 // 100, 0, 0, 0)
    have = await balances(h, users)
    assert sum(have.values()) == 5 * STARTING
    assert await h.bot.storage.check() == []


async def test_registration_withdrawal_and_cancel_refund_every_buy_in(h: Any) -> None:
    alice, bob, carol = (h.user(n) for n in ("alice", "bob", "carol"))
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=3)
    await game.join([alice, bob])
    twice = await h.slash(bob, "torneo iscriviti")
    assert twice.ephemeral and twice.content == "Sei già iscritto a questo torneo."
    left = await h.slash(bob, "torneo ritirati")
    assert not left.ephemeral and f"{BUY_IN} fiches tornano nel suo saldo" in left.content
    assert await balances(h, [bob]) == {bob.id: STARTING}
    not_in = await h.slash(carol, "torneo ritirati")
    assert not_in.ephemeral and not_in.content == "Non sei iscritto a questo torneo."
    early = await h.slash(bob, "torneo inizia")
    assert early.ephemeral and early.content == "Solo chi ha creato il torneo può farlo iniziare."
    alone = await h.slash(alice, "torneo inizia")
    assert alone.ephemeral and alone.content == "Per iniziare un torneo servono almeno 2 iscritti."
    status = await h.slash(carol, "torneo stato")
    assert "Iscrizioni aperte: 1 di 3" in status.text()
    # A cash table cannot open beside the tournament.
    table = await h.slash(carol, "tavolo nuovo", variante="texas")
    assert table.ephemeral
    refused = await h.slash(carol, "torneo annulla")
    assert refused.ephemeral and "Solo chi ha creato il torneo" in refused.content
    called_off = await h.slash(alice, "torneo annulla")
    assert not called_off.ephemeral and f"<@{alice.id}>" in called_off.content
    assert await balances(h, [alice, bob, carol]) == dict.fromkeys((alice.id, bob.id, carol.id), STARTING)
    assert await h.bot.storage.check() == []
    gone = await h.slash(carol, "torneo stato")
    assert gone.ephemeral and "non c'è un torneo" in gone.content
    # The channel is free again for a cash table.
    opened = await h.slash(carol, "tavolo nuovo", variante="texas")
    assert not opened.ephemeral
    again = await h.slash(alice, "torneo nuovo", variante="texas")
    assert again.ephemeral


async def test_the_tournament_table_refuses_cash_table_commands(h: Any) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2)
    await game.join([alice, bob])
    for command in ("tavolo siedi", "tavolo alzati", "tavolo chiudi", "tavolo riepilogo"):
        reply = await h.slash(alice, command)
        assert reply.ephemeral and reply.content == TOURNAMENT_TABLE, command
    started = await h.slash(alice, "torneo inizia")
    assert started.ephemeral and started.content == "Il torneo è già iniziato."
    status = await h.slash(bob, "torneo stato")
    text = status.text()
    assert "Livello 1: bui 10/20." in text and "In gioco 2 di 2" in text and "tra 10 mani" in text
    await h.fake.wait_for(lambda: game.live.message_id in h.fake.store, "the table message")
    await h.settle()
    table_message = h.fake.store[game.live.message_id]
    assert table_message.embeds[0]["title"].startswith("Torneo di ")
    assert table_message.embeds[0]["title"].endswith(": livello 1: bui 10/20")
    assert await balances(h, [alice, bob]) == {alice.id: STARTING - BUY_IN, bob.id: STARTING - BUY_IN}
    await game.play_out()
    assert await h.bot.storage.check() == []
    have = await balances(h, [alice, bob])
    assert sorted(have.values()) == [STARTING - BUY_IN, STARTING + BUY_IN]


async def test_history_shows_the_buy_in_and_the_prize(h: Any) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, ritmo=1, struttura="raddoppio", fiches=40)
    await game.join([alice, bob])
    run = game.run
    await game.play_out()
    winner = next(p for p, (place, _) in run.tournament.finishes().items() if place == 1)
    user = alice if winner == alice.id else bob
    history = await h.slash(user, "storico")
    text = history.text()
    assert f"premio del torneo n. {run.id}" in text and f"iscrizione al torneo n. {run.id}" in text


async def test_hands_that_end_at_the_deal_are_told_in_the_channel(h: Any) -> None:
    """Stacks no bigger than the forced bets: every hand is all-in from the deal, with no turn."""
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=10)
    run = game.run
    await game.join([alice, bob])
    await h.fake.wait_for(lambda: game.run is None, "the end of the tournament")
    await h.settle()
    texts = public(h)
    assert sum("tutti all-in con le puntate obbligate" in t for t in texts) == run.tournament.hands_played
    tables = [m for m in h.messages("poker") if any(": livello" in e.get("title", "") for e in m.embeds)]
    assert not tables, "a hand over at its deal is told in its line, with no table message besides"
    # Each line publishes its deck, as a table message would: the impronta and its reveal.
    lines = [t for t in texts if "tutti all-in con le puntate obbligate" in t]
    for line in lines:
        [digest] = re.findall(r"Impronta: `([0-9a-f]{64})`", line)
        [reveal] = re.findall(r"Verifica: `([^`]+)`", line)
        assert verify(reveal, digest), line
    assert len({re.findall(r"Impronta: `([0-9a-f]{64})`", t)[0] for t in lines}) == len(lines)
    assert any("Classifica finale" in t for t in texts)
    assert sorted((await balances(h, [alice, bob])).values()) == [STARTING - BUY_IN, STARTING + BUY_IN]
    assert await h.bot.storage.check() == []


async def test_an_absent_player_is_blinded_away_and_can_come_back(h: Any) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    clock = ManualClock()
    h.bot.sessions.timers.clock = clock
    game = Torneo(h)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=2000, tempo=30)
    await game.join([alice, bob])
    run = game.run

    async def until(done: Any, bob_answers: bool = False) -> None:
        """Alice raises a cip; Bob never answers (his turn times out) unless ``bob_answers``."""
        for _ in range(200):
            if done():
                return
            live = await h.fake.wait_for(
                lambda: (
                    done()
                    or (game.live.table.hand_running and game.live.table.to_act is not None and game.live)
                ),
                "a turn",
            )
            if live is True:
                return
            table = live.table
            if table.to_act == bob.id and not bob_answers:
                token = repr(table.public_view())
                await h.fake.wait_for(lambda: h.bot.sessions.timers.deadline(game.channel_id), "his timer")
                clock.advance(31)
                await h.fake.wait_for(
                    lambda t=table, before=token: (
                        done() or repr(t.public_view()) != before or t is not game.live.table
                    ),
                    "the timeout",
                )
            else:
                kinds = {str(la.kind) for la in table.legal_actions()}
                said: dict[str, str] = {}
                if table.to_act == alice.id and kinds & {"rilancio", "punto"}:
                    word, said = ("rilancio" if "rilancio" in kinds else "punto"), {"importo": "cip"}
                else:
                    word = "vedo" if "vedo" in kinds else "paròl"
                reply = await h.slash(game.users[table.to_act], word, **said)
                assert accepted(reply), reply.content
        raise AssertionError("never got there")

    await until(lambda: bob.id in run.tournament.away)
    hands = run.tournament.hands_played
    stack = run.tournament.stacks()[bob.id]
    await until(lambda: run.tournament.hands_played >= hands + 2)
    assert run.tournament.stacks()[bob.id] < stack, "an absent player still pays his blinds"
    back = await h.slash(bob, "tavolo rientra")
    assert accepted(back), back.content
    played = run.tournament.hands_played
    await until(lambda: run.tournament.hands_played > played, bob_answers=True)
    assert bob.id not in run.tournament.away
    await game.play_out()
    assert sorted((await balances(h, [alice, bob])).values()) == [STARTING - BUY_IN, STARTING + BUY_IN]
    assert await h.bot.storage.check() == []


async def test_an_away_player_stays_away_through_a_hand_over_at_the_deal(harness_factory: Any) -> None:
    """Everyone all-in from the forced bets: the deal seats the away player back for that hand, and
    the hand's end must not take that for his coming back; Rientro then does bring him back."""
    h = await harness_factory(tournament_pause=600)  # the next hands are dealt here, not by the pause
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    chop = stacked(["2c 3d", "2d 3c"], "2h As Ks Qs 3h Js 4h Ts")  # the board plays: a split pot
    for _ in range(2):
        h.bot.tables.queue_deck(game.channel_id, chop)
    await game.announce(alice, "texas", buyin=BUY_IN, posti=2, cip=20, fiches=10)
    await game.join([alice, bob])
    run = game.run
    await h.fake.wait_for(lambda: run.tournament.hands_played == 1, "the first hand")
    async with h.bot.tables.channel(game.channel_id) as live:
        step_away(live.table, run.tournament, bob.id)
        dms = await h.bot.tournaments._deal(run, live)
    await h.bot.sessions.deliver(game.channel_id, dms)
    assert run.tournament.hands_played == 2, "the second hand ended at the deal too"
    assert run.tournament.away == {bob.id}
    back = await h.slash(bob, "tavolo rientra")
    assert accepted(back), back.content
    assert run.tournament.away == set()
    again = await h.slash(bob, "tavolo rientra")
    assert again.ephemeral and again.content == "Sei già in gioco."


def test_the_pause_between_hands_is_a_setting() -> None:
    assert Settings.from_env({"DISCORD_TOKEN": "x"}).tournament_pause == 5.0
    assert Settings.from_env({"DISCORD_TOKEN": "x", "TOURNAMENT_PAUSE": "0.5"}).tournament_pause == 0.5
    for bad in ("-1", "601", "presto"):
        with pytest.raises(ConfigError, match="TOURNAMENT_PAUSE"):
            Settings.from_env({"DISCORD_TOKEN": "x", "TOURNAMENT_PAUSE": bad})


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        ({"variante": "texas", "cip": 15}, "Il grande buio deve essere un numero pari di almeno 2 fiches."),
        ({"variante": "italiana", "posti": 10}, "I giocatori di un torneo vanno da 2 a"),
        ({"variante": "texas", "posti": 2, "premi": "50-30-20"}, "paga più posti dei giocatori ammessi"),
    ],
)
async def test_impossible_tournaments_are_refused_privately(
    h: Any, options: dict[str, Any], refusal: str
) -> None:
    reply = await h.slash(h.user("alice"), "torneo nuovo", **options)
    assert reply.ephemeral and refusal in reply.content
    assert await h.bot.storage.live_tournaments() == []


async def test_an_entry_fee_beyond_the_balance_is_refused_privately(h: Any) -> None:
    alice, bob = h.user("alice"), h.user("bob")
    await Torneo(h).announce(alice, "texas", buyin=STARTING + 1)
    reply = await h.slash(bob, "torneo iscriviti")
    assert reply.ephemeral and reply.content.startswith("Non hai abbastanza fiches")
    assert h.bot.tournaments.get(h.channel("poker").id).tournament.players == []
    assert await balances(h, [bob]) == {bob.id: STARTING}
    assert await h.bot.storage.check() == []


async def test_a_server_manager_may_call_a_tournament_off(h: Any) -> None:
    alice, bob, mod = h.user("alice"), h.user("bob"), h.user("mod", manage_guild=True)
    game = Torneo(h)
    await game.announce(alice, "32carte", buyin=BUY_IN, posti=3)
    await game.join([alice, bob])
    called_off = await h.slash(mod, "torneo annulla")
    assert not called_off.ephemeral and f"{BUY_IN} fiches tornano nel saldo" in called_off.content
    assert await balances(h, [alice, bob]) == {alice.id: STARTING, bob.id: STARTING}
    assert await h.bot.storage.check() == []


async def test_once_started_nobody_is_refunded_or_calls_it_off(h: Any) -> None:
    """After the start /torneo ritirati refunds nothing: the player stays in, away (rules §7)."""
    alice, bob = h.user("alice"), h.user("bob")
    game = Torneo(h)
    await game.announce(alice, "italiana", buyin=BUY_IN, posti=2)
    await game.join([alice, bob])
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "the first hand")
    late = await h.slash(bob, "torneo ritirati")
    assert accepted(late), late.content
    await h.settle()
    assert [t for t in h.public_texts() if "si ritira dal torneo: da ora è assente" in t and "l'invito" in t]
    cancel = await h.slash(alice, "torneo annulla")
    assert cancel.ephemeral and cancel.content == "Il torneo è già iniziato: non si può più annullare."
    assert await balances(h, [alice, bob]) == {alice.id: STARTING - BUY_IN, bob.id: STARTING - BUY_IN}


async def test_every_tournament_hand_commits_to_its_deck_and_publishes_the_matching_reveal(h: Any) -> None:
    """The verifiable deck (README "A deck you can verify") at a tournament table too: each hand's
    table message shows its impronta from its first version, and once the hand is over the string
    published beside it hashes to that impronta and names every card that was dealt."""
    users = [h.user(n) for n in ("alice", "bob")]
    game = Torneo(h)
    await game.announce(
        users[0], "texas", buyin=BUY_IN, posti=2, ritmo=2, struttura="raddoppio", premi="vincitore", cip=20
    )
    await game.join(users)
    await game.play_out()
    digest_re, reveal_re = re.compile(r"`([0-9a-f]{64})`"), re.compile(r"Verifica: `([^`]+)`")
    hands = [m for m in h.messages("poker") if m.history and "Impronta del mazzo" in json.dumps(m.history[0])]
    assert hands, "every tournament hand's table message carries its impronta"
    for message in hands:
        first = json.dumps(message.history[0], ensure_ascii=False)
        assert "Verifica:" not in first, "the reveal is secret while the hand runs"
        [digest] = digest_re.findall(first)
        revealed = reveal_re.findall(message.text())
        if revealed:  # hands still running when the tournament ended publish nothing
            assert hashlib.sha256(revealed[0].encode()).hexdigest() == digest
            assert verify(revealed[0], digest)
    assert sum(bool(reveal_re.findall(m.text())) for m in hands) >= 1


async def test_every_tournament_hand_is_told_again_by_mano(h: Any) -> None:
    """/mano at a tournament's table: a hand still running is refused privately, and once the
    tournament is over every hand is told again from its stored record, with the reveal the
    channel published for it; the last hand is the one /mano tells without a number."""
    users = [h.user(n) for n in ("alice", "bob")]
    game = Torneo(h)
    await game.announce(
        users[0], "texas", buyin=BUY_IN, posti=2, ritmo=2, struttura="raddoppio", premi="vincitore", cip=20
    )
    await game.join(users)
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "the first hand")
    early = await h.slash(users[0], "mano")
    assert early.ephemeral and early.content == NO_HAND_YET
    running = await h.slash(users[1], "mano", numero=1)
    assert running.ephemeral and running.content == STILL_RUNNING.format(number=1)
    live = game.live
    await game.play_out()
    last = live.table.hand_number
    reveal_re = re.compile(r"Verifica: `([^`]+)`")
    published = {r for m in h.messages("poker") for r in reveal_re.findall(m.text())}
    told: set[str] = set()
    for number in range(1, last + 1):
        reply = await h.slash(users[0], "mano", numero=number)
        assert not reply.ephemeral, reply.content
        assert reply.embeds[0]["title"] == f"Mano n. {number} — Texas Hold'em"
        text = "\n".join([reply.text(), *(m.text() for m in reply.followups)])
        assert "vince" in text or "si divide" in text, f"hand {number}: its result is told"
        [commitment] = re.findall(r"Impronta: `([0-9a-f]{64})`", text)
        [reveal] = re.findall(r"Verifica: `([^`]+)`", text)
        assert verify(reveal, commitment), f"hand {number}: its reveal matches its commitment"
        told.add(reveal)
    assert published and published <= told, "every reveal the channel saw is in a replay"
    newest = await h.slash(users[1], "mano")
    assert newest.embeds[0]["title"].startswith(f"Mano n. {last} ")
    beyond = await h.slash(users[1], "mano", numero=last + 1)
    assert beyond.ephemeral and beyond.content == no_such_hand(last + 1, last)


async def test_a_start_that_fails_before_it_is_stored_leaves_the_registrations_as_they_were(
    h: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = [h.user(n) for n in ("alice", "bob")]
    game = Torneo(h)
    await game.announce(users[0], "texas", buyin=BUY_IN, posti=3)
    await game.join(users)

    def no_seats(*args: Any, **kwargs: Any) -> Any:
        raise EngineError("i posti non si possono sorteggiare")

    real = bot_tournaments.seat_entrants
    monkeypatch.setattr(bot_tournaments, "seat_entrants", no_seats)
    run = game.run
    async with h.bot.tables.channel(game.channel_id):
        with pytest.raises(EngineError):
            await h.bot.tournaments.start(run)
    assert (run.tournament.phase, run.live) == (Phase.ISCRIZIONI, None)
    assert run.tournament.players == [u.id for u in users]
    monkeypatch.setattr(bot_tournaments, "seat_entrants", real)
    reply = await h.slash(users[0], "torneo inizia")
    assert not reply.ephemeral, reply.content
    await h.fake.wait_for(lambda: game.live is not None and game.live.table.hand_running, "the first hand")
