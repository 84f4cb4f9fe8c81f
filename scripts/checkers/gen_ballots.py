#!/usr/bin/env python3
"""Writes crates/checkers/data/ballots-3move.tsv from pydraughts' English 3-move ballot file.

Source: pydraughts 0.6.7 (https://github.com/AttackingOrDefending/pydraughts),
draughts/ballot_files/3move_english.json: "all" holds the 174 three-move openings with the
position after them; "lost" lists the openings barred from tournament play (the file lists
"013 09-13 23-18 10-14" twice, so it names 17 distinct barred openings and its "standard" list has
157 entries, one more than the ACF's 156-opening deck).

Usage: /work/venv-checkers/bin/python scripts/checkers/gen_ballots.py
"""
import json
import os
import sys

import draughts

path = os.path.join(os.path.dirname(draughts.__file__), "ballot_files", "3move_english.json")
with open(path) as f:
    data = json.load(f)
barred = set(data["lost"])
standard = set(data["standard"])
out_path = os.path.join(os.path.dirname(__file__), "..", "..", "crates", "checkers", "data",
                        "ballots-3move.tsv")
rows = []
for key, fen in data["all"].items():
    number, m1, m2, m3 = key.split()
    status = "barred" if key in barred else "standard"
    assert (key in standard) == (status == "standard"), key
    norm = lambda m: "-".join(str(int(s)) for s in m.split("-"))
    rows.append((int(number), norm(m1), norm(m2), norm(m3), status, fen))
rows.sort()
with open(out_path, "w") as f:
    f.write("# The 174 three-move openings of English checkers (ACF/EDA 3-move restriction).\n")
    f.write("# Source: pydraughts 0.6.7 draughts/ballot_files/3move_english.json (openings and the\n")
    f.write("# position after them, written by pydraughts); status 'barred' = its 'lost' list.\n")
    f.write("# Regenerate: scripts/checkers/gen_ballots.py\n")
    f.write("# number\tmove1\tmove2\tmove3\tstatus\tfen_after\n")
    for r in rows:
        f.write("\t".join(str(x) for x in r) + "\n")
print(f"{len(rows)} openings, {sum(r[4] == 'barred' for r in rows)} barred", file=sys.stderr)
