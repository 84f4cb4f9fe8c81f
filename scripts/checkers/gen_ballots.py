#!/usr/bin/env python3
"""Writes crates/checkers/data/ballots-3move.tsv from pydraughts' English 3-move ballot file.

Source: pydraughts 0.6.7 (https://github.com/AttackingOrDefending/pydraughts),
draughts/ballot_files/3move_english.json: "all" holds the 174 three-move openings with the
position after them; "lost" lists the openings barred from tournament play, but names
"013 09-13 23-18 10-14" twice and so only 17 of them.

Status of each opening (ACF 3-move deck): the 18 barred ("losing") openings and the 12 added to
the deck in 2003 (144 -> 156) are taken from a second source, Milhouse by Mark VandeWettering
(github.com/brainwagon/milhouse, acf-openings.c: flags DECK_LOSING / DECK_NEW / DECK_NORMAL over
the same numbering 1-174). The script checks that pydraughts' barred openings are among them;
the 18th, missing from pydraughts, is 026 (9-13 24-19 10-15). The 12 added openings agree with
George Miller's "Completing the Deck" (wylliedraughts.com, 2001) and the ACF's 144 -> 156 note.

Usage: /work/venv-checkers/bin/python scripts/checkers/gen_ballots.py
"""
import json
import os
import sys

import draughts

path = os.path.join(os.path.dirname(draughts.__file__), "ballot_files", "3move_english.json")
with open(path) as f:
    data = json.load(f)
# ACF numbers of the barred openings and of the 12 added in 2003 (Milhouse acf-openings.c).
BARRED = {3, 13, 26, 35, 44, 45, 48, 52, 77, 88, 94, 109, 114, 137, 145, 156, 168, 171}
ADDED_2003 = {6, 9, 16, 21, 34, 60, 61, 62, 105, 141, 153, 174}
assert len(BARRED) == 18 and len(ADDED_2003) == 12
pyd_barred = {int(k.split()[0]) for k in data["lost"]}
assert pyd_barred <= BARRED and BARRED - pyd_barred == {26}, sorted(BARRED - pyd_barred)
out_path = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "checkers", "data",
                        "ballots-3move.tsv")
rows = []
for key, fen in data["all"].items():
    number, m1, m2, m3 = key.split()
    n = int(number)
    status = "barred" if n in BARRED else "added-2003" if n in ADDED_2003 else "original"
    norm = lambda m: "-".join(str(int(s)) for s in m.split("-"))
    rows.append((int(number), norm(m1), norm(m2), norm(m3), status, fen))
rows.sort()
with open(out_path, "w") as f:
    f.write("# The 174 three-move openings of English checkers (ACF/EDA 3-move restriction).\n")
    f.write("# Source: pydraughts 0.6.7 draughts/ballot_files/3move_english.json (openings and the\n")
    f.write("# position after them, written by pydraughts). Status from Milhouse acf-openings.c\n")
    f.write("# (github.com/brainwagon/milhouse): original = the 144 of the pre-2003 ACF deck,\n")
    f.write("# added-2003 = the 12 added in 2003 (deck of 156), barred = the 18 unplayed ones.\n")
    f.write("# Regenerate: scripts/checkers/gen_ballots.py\n")
    f.write("# number\tmove1\tmove2\tmove3\tstatus\tfen_after\n")
    for r in rows:
        f.write("\t".join(str(x) for x in r) + "\n")
print(f"{len(rows)} openings, {sum(r[4] == 'barred' for r in rows)} barred, "
      f"{sum(r[4] == 'added-2003' for r in rows)} added in 2003", file=sys.stderr)
