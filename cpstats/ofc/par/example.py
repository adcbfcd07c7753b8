"""The open-face PAR sheet's worked hand: one hand from a fresh deck (nobody in Fantasyland),
placed by the sheet's strategy and settled row by row (:func:`worked_hand`), so a reader can follow
every point."""

from __future__ import annotations

import numpy as np
import pandas as pd

from cpstats.ofc.board import board_values
from cpstats.ofc.par.tables import row_hand_names
from cpstats.ofc.play import play_hands
from cpstats.ofc.result import ROWS
from cpstats.ofc.rules import Variant
from cpstats.ofc.settlement import settle_hands

__all__ = ["worked_hand"]

_NAMES = np.array([r + s for r in "23456789TJQKA" for s in "cdhs"])


def _cards(codes: np.ndarray) -> str:
    return " ".join(_NAMES[codes.astype(np.int64)])


def worked_hand(v: Variant, strategy: str, seed: int) -> dict[str, pd.DataFrame]:
    """One hand from a fresh deck (nobody in Fantasyland), placed by ``strategy`` and settled row
    by row: the boards, each pair's rows and points, each seat's net."""
    played = play_hands(v, 1, np.random.default_rng(seed), strategies=strategy)
    boards = played.boards[0]
    s = settle_hands(v, played.boards, check=False)
    values = board_values(v, boards, check=False)
    names = row_hand_names(values.ranks)
    slots = ((0, 3), (3, 8), (8, 13))
    board_rows = [(p, row, _cards(boards[p, a:b]), names[p, k],
                   0 if values.fouled[p] else int(values.royalty[p, k]),
                   "fouled" if values.fouled[p] else "clean")
                  for p in range(v.players) for k, (row, (a, b)) in enumerate(zip(ROWS, slots))]
    pair_rows = []
    for i in range(v.players):
        for j in range(i + 1, v.players):
            pair_rows += _pair_lines(v, values, names, i, j)
    net = pd.DataFrame({"seat": range(v.players), "net": s.net[0], "rake": s.rake[0]})
    return {"boards": pd.DataFrame(board_rows, columns=["seat", "row", "cards", "hand", "royalty", "board"]),
            "pairs": pd.DataFrame(pair_rows, columns=["pair", "item", "result", "points"]), "net": net}


def _pair_lines(v: Variant, values, names, i: int, j: int) -> list[tuple]:
    """A pair's settlement line by line, points from seat i's side."""
    pair, fi, fj = f"seat {i} v seat {j}", bool(values.fouled[i]), bool(values.fouled[j])
    lines, won = [], 0
    for k, row in enumerate(ROWS):
        a, b = values.ranks[i, k], values.ranks[j, k]
        if fi or fj:
            win = 0 if fi == fj else (1 if fj else -1)
            text = "both foul" if fi and fj else f"seat {j if fi else i} wins: the other board fouls"
        else:
            win = int(np.sign(a - b))
            text = (f"{names[i, k]} against {names[j, k]}: "
                    + ("tie" if win == 0 else f"seat {i if win > 0 else j} wins"))
        won += win
        lines.append((pair, f"{row} row", text, v.scoring.row * win))
    sweep = 3 if won == 3 else -3 if won == -3 else 0
    if sweep:
        lines.append((pair, "scoop", f"seat {i if sweep > 0 else j} wins all three rows",
                      v.scoring.scoop * np.sign(sweep)))
    roy = np.where(values.fouled, 0, values.royalty.sum(axis=-1))
    lines.append((pair, "royalties", f"seat {i} {roy[i]}, seat {j} {roy[j]}", int(roy[i] - roy[j])))
    lines.append((pair, "total", f"points to seat {i} from seat {j}", int(sum(x[3] for x in lines))))
    return lines
