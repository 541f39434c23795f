"""Card pictures: the time to render each picture against the floor of encoding its PNG.

    python -m bench.bench_render [--rounds R] [--reps N] [--levels]

For every picture the bot sends (a private 5-card hand, the texas board, a showdown of 6 players,
a texas showdown of 6 with the board, the night's results chart of 8 players), the benchmark
measures ``bot.pictures`` end to end (compose the cached palette faces, draw the text, encode the
PNG), and in the same run, on an image of the same size and pixels:

- the floor: Pillow's plain PNG encoding (RGB, zlib level 6), what any picture of that size costs
  when it is simply saved (a ratio below 1 means the palette pays for itself);
- the octree peer: what the card pictures did before the fixed palette, and the charts still do
  (a 64-colour ``FASTOCTREE`` quantize per picture, then the PNG at zlib level 6), the reduction
  and encoding alone, without composing anything.

Faces are drawn before the timing starts (a running bot has them cached after its first hands); the
time to draw all 104 faces from nothing is printed once on its own.

With ``--levels`` it then times the encoding alone of each card picture at every zlib level (the
picture's own palette indices re-saved), the measure behind ``bot.pictures.palette.PNG_LEVEL``.

Figures are the median over ``R`` interleaved rounds of the mean of ``N`` calls, in CPU time of
this process (``time.process_time``), so that other processes on the shared cores count less.
Targets: a 5-card hand ≤ 5 ms, a showdown of 6 ≤ 20 ms.
"""

from __future__ import annotations

import argparse
import functools
import io
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PIL import Image

from bot.pictures import (
    ResultRow,
    ShowdownRow,
    board_png,
    faces,
    hand_png,
    results_chart_png,
    showdown_png,
)
from engine.cards import deck, parse_cards


@dataclass(frozen=True, slots=True)
class Case:
    name: str
    render: Callable[[], bytes]
    target_ms: float | None


def _cases() -> list[Case]:
    hands = [
        "A♥ A♦ K♣ K♠ 7♥",
        "Q♥ Q♦ Q♣ 2♠ 3♥",
        "J♥ J♦ 9♣ 9♠ 4♥",
        "8♥ 8♦ 6♣ 5♠ 4♠",
        "10♥ 9♦ 8♣ 7♠ 6♠",
        "2♦ 3♦ 4♦ 5♦ 7♦",
    ]
    names = ["Niccolò", "Anna Maria", "Giovanni B.", "Lucía", "Zoë", "Francesco il Grande"]
    categories = ["doppia coppia", "tris", "doppia coppia", "coppia", "scala", "colore"]
    rows = [
        ShowdownRow(name, parse_cards(hand), category, winner=i == 4)
        for i, (name, hand, category) in enumerate(zip(names, hands, categories, strict=True))
    ]
    texas = [ShowdownRow(r.name, r.cards[:2], r.category, r.winner) for r in rows]
    board = parse_cards("K♥ 9♥ 4♣ 2♦ J♠")
    results = [
        ResultRow(f"{name} {i}", net)
        for i, (name, net) in enumerate(
            zip(names + names[:2], [350, -120, 0, -230, 80, 45, -95, -30], strict=True)
        )
    ]
    five = parse_cards("A♥ K♠ Q♦ J♣ 10♥")
    return [
        Case("mano di 5 carte", lambda: hand_png(five), 5.0),
        Case("board texas (3 carte)", lambda: board_png(board[:3]), None),
        Case("showdown, 6 giocatori", lambda: showdown_png(rows), 20.0),
        Case("showdown texas, 6 + board", lambda: showdown_png(texas, board=board), 20.0),
        Case(
            "risultati, 8 giocatori", lambda: results_chart_png(results, title="Risultati della serata"), None
        ),
    ]


def _encode_rgb(image: Image.Image) -> bytes:
    """The floor: Pillow's plain PNG encoding of the same pixels (RGB, zlib level 6)."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()


def _encode_octree(image: Image.Image) -> bytes:
    """The octree peer: a 64-colour palette built for this picture, then zlib level 6."""
    buffer = io.BytesIO()
    image.quantize(64, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG", compress_level=6)
    return buffer.getvalue()


def _mean_ms(function: Callable[[], object], reps: int) -> float:
    start = time.process_time()
    for _ in range(reps):
        function()
    return (time.process_time() - start) * 1000 / reps


def main(argv: Sequence[str] = ()) -> int:
    """Run the benchmark; ``python -m bench`` calls it without arguments."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_render", description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (median reported)")
    parser.add_argument("--reps", type=int, default=50, help="calls per picture and round")
    parser.add_argument("--levels", action="store_true", help="also time the PNG encoding at each zlib level")
    args = parser.parse_args(list(argv))

    faces.clear_cache()
    start = time.process_time()
    for card in deck(52):
        faces.card_face(card, faces.LARGE)
        faces.card_face(card, faces.SMALL)
    print(f"drawing all 104 faces once (52 cards, 2 sizes): {(time.process_time() - start) * 1000:.1f} ms")

    cases = _cases()
    floors: list[Callable[[], bytes]] = []
    peers: list[Callable[[], bytes]] = []
    sizes: list[tuple[int, int, int]] = []
    for case in cases:
        data = case.render()
        image = Image.open(io.BytesIO(data))
        image.load()
        pixels = image.convert("RGB")
        floors.append(functools.partial(_encode_rgb, pixels))
        peers.append(functools.partial(_encode_octree, pixels))
        sizes.append((image.width, image.height, len(data)))
    render_ms: list[list[float]] = [[] for _ in cases]
    floor_ms: list[list[float]] = [[] for _ in cases]
    peer_ms: list[list[float]] = [[] for _ in cases]
    for _ in range(args.rounds):
        for i, case in enumerate(cases):
            render_ms[i].append(_mean_ms(case.render, args.reps))
            floor_ms[i].append(_mean_ms(floors[i], args.reps))
            peer_ms[i].append(_mean_ms(peers[i], args.reps))

    print(f"median of {args.rounds} rounds × {args.reps} calls, CPU ms per picture")
    header = (
        f"{'picture':<28} {'size':>9} {'PNG':>8} {'render':>8} {'floor':>8} {'ratio':>6} {'octree':>8} "
        f"{'target':>7}"
    )
    print(header)
    print("-" * len(header))
    for i, case in enumerate(cases):
        width, height, nbytes = sizes[i]
        render = statistics.median(render_ms[i])
        floor = statistics.median(floor_ms[i])
        target = f"≤ {case.target_ms:g}" if case.target_ms is not None else ""
        print(
            f"{case.name:<28} {f'{width}×{height}':>9} {f'{nbytes / 1024:.1f} KB':>8} "
            f"{render:>8.2f} {floor:>8.2f} {render / floor:>5.1f}× {statistics.median(peer_ms[i]):>8.2f} "
            f"{target:>7}"
        )
    if args.levels:
        _print_levels(cases[:4], args.rounds, args.reps)
    return 0


_LEVELS = (1, 2, 3, 4, 6, 9)


def _save(image: Image.Image, level: int) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=level)
    return buffer.getvalue()


def _print_levels(cases: Sequence[Case], rounds: int, reps: int) -> None:
    """Encoding alone at each zlib level: ms and KB per picture (the card pictures are "P" images,
    so decoding one gives back exactly the indices and palette that were encoded)."""
    print(f"\nPNG encoding alone by zlib level, median of {rounds} rounds × {reps} calls, CPU ms / KB")
    print(f"{'picture':<28} " + " ".join(f"{f'level {level}':>16}" for level in _LEVELS))
    for case in cases:
        image = Image.open(io.BytesIO(case.render()))
        image.load()
        cells = []
        for level in _LEVELS:
            save = functools.partial(_save, image, level)
            ms = statistics.median(_mean_ms(save, reps) for _ in range(rounds))
            cells.append(f"{ms:.2f} ms {len(_save(image, level)) / 1024:.1f} KB")
        print(f"{case.name:<28} " + " ".join(f"{cell:>16}" for cell in cells))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
