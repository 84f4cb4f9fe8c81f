#!/usr/bin/env python3
"""Depth and selective depth at equal nodes: GuiNN (or any engine speaking checkers-engine's line
protocol with GuiNN's INFO line) searches each position of crates/checkers/data/middlegames.tsv
for a time, and qiyi searches the same position with GuiNN's node count as its budget
(`qiyi analyze checkers --nodes N`). Prints a Markdown table and the medians.

usage: depth_table.py --qiyi target/release/qiyi --guinn GUINN_DIR/guinn_engine [--ms 100]
       [--search default] [--search core] ... (one column pair per --search)
"""
import argparse, json, statistics, subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def positions():
    for line in (ROOT / "crates/checkers/data/middlegames.tsv").read_text().splitlines():
        if not line.startswith("#"):
            ballot, plies, fen, _moves = line.split("\t")
            yield int(ballot), int(plies), fen


class Guinn:
    def __init__(self, cmd):
        self.p = subprocess.Popen([cmd], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.expect("READY")
        self.send("INIT")
        self.send("SETPARAMETER use_book false")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def expect(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("GuiNN closed its output")
            if line.startswith(prefix):
                return line.split()

    def search(self, fen, ms):
        self.send(f"NEWGAME {fen}")
        self.send(f"GO maxtime {ms / 1000:.3f} dontplaymove")
        info = self.expect("INFO")
        self.expect("BESTMOVE")
        kv = dict(zip(info[1::2], info[2::2]))
        return int(kv["depth"]), int(kv["seldepth"]), int(kv["nodes"])

    def quit(self):
        self.send("QUIT")
        self.p.wait(timeout=5)


def qiyi(binary, fen, nodes, search):
    r = subprocess.run([binary, "--threads", "1", "--json", "analyze", "checkers", "--fen", fen,
                        "--nodes", str(nodes), "--search", search],
                       capture_output=True, text=True, check=True)
    j = json.loads(r.stdout.strip().splitlines()[-1])
    return j["depth"], j["seldepth"], j["nodes"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qiyi", required=True)
    ap.add_argument("--guinn", required=True)
    ap.add_argument("--ms", type=int, default=100)
    ap.add_argument("--search", action="append")
    a = ap.parse_args()
    searches = a.search or ["default"]
    g = Guinn(a.guinn)
    head = "| ballot+plies | GuiNN nodes | GuiNN depth / sel |" + "".join(
        f" qiyi `{s}` depth / sel |" for s in searches)
    print(head)
    print("|" + "---|" * (3 + len(searches)))
    cols = {"guinn": ([], [])}
    for s in searches:
        cols[s] = ([], [])
    for ballot, plies, fen in positions():
        gd, gs, gn = g.search(fen, a.ms)
        cols["guinn"][0].append(gd); cols["guinn"][1].append(gs)
        row = f"| {ballot}+{plies} | {gn:,} | {gd} / {gs} |"
        for s in searches:
            d, sd, _n = qiyi(a.qiyi, fen, gn, s)
            cols[s][0].append(d); cols[s][1].append(sd)
            row += f" {d} / {sd} |"
        print(row, flush=True)
    med = lambda v: statistics.median(v)
    print(f"| **median** | | **{med(cols['guinn'][0])} / {med(cols['guinn'][1])}** |" + "".join(
        f" **{med(cols[s][0])} / {med(cols[s][1])}** |" for s in searches))
    g.quit()


if __name__ == "__main__":
    main()
