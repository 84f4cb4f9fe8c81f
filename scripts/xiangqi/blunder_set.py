#!/usr/bin/env python3
"""Extracts a blunder set from qiyi's lost games against ElephantEye, with ElephantEye as judge.

For each lost game (qiyi is side a in the match jsonl files given on the command line) the script
walks back from qiyi's last move over at most BACK of its moves. The position before each move is
searched by ElephantEye (UCCI `go time T`; positions are sent as FENs, made with pyffish, so EE's
own no-capture counter never interferes). When the position is not yet lost (judge score > -LOST)
and the judge prefers another move, the position after the played move is searched too; the
position is kept when the played move scores at least MARGIN centipawns worse than the judge's
best move (EE's mate scores are about +-10000), and the position after the judge's move,
searched again, confirms it (not lost, and still MARGIN better than the played move). The walk stops after KEEP_OPEN not-yet-lost
positions, so it covers the collapse of each game and not its opening.

Output lines: FEN;played;best;best_score;played_score;source
Run with the pyffish virtualenv (ranks 1-10 there, ours are 0-9):
  /work/venv-xiangqi/bin/python scripts/xiangqi/blunder_set.py T_MS BACK OUT games.jsonl...
"""
import json
import subprocess
import sys

import pyffish

MARGIN = 150
LOST = 800
KEEP_OPEN = 3
EE = 'cd /work/ext/eleeye && exec /work/ext/eleeye-bin'


def to_ff(m):
    return m[0] + str(int(m[1]) + 1) + m[2] + str(int(m[3]) + 1)


def main():
    t_ms, back, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    files = sys.argv[4:]
    p = subprocess.Popen(EE, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True, bufsize=1)

    def cmd(s):
        p.stdin.write(s + '\n')
        p.stdin.flush()

    def wait(token):
        while True:
            line = p.stdout.readline()
            if not line:
                sys.exit('judge died')
            if line.startswith(token):
                return line

    def go(fen):
        cmd('position fen ' + fen)
        cmd('go time %d' % t_ms)
        score = None
        while True:
            l = p.stdout.readline().split()
            if not l:
                sys.exit('judge died')
            if l[0] == 'info' and 'score' in l:
                score = int(l[l.index('score') + 1])
            if l[0] in ('bestmove', 'nobestmove'):
                return (l[1] if l[0] == 'bestmove' else None), score

    cmd('ucci')
    wait('ucciok')
    seen = set()
    kept = 0
    with open(out, 'w') as f:
        for path in files:
            for gi, line in enumerate(open(path)):
                g = json.loads(line)
                if g['a_score'] != 0.0:
                    continue
                key = (g['opening'], tuple(g['moves']))
                if key in seen:
                    continue
                seen.add(key)
                fen, mv, red = g['opening'], g['moves'], g['a_is_red']
                first_red = ' w ' in fen
                ours = [k for k in range(len(mv)) if (first_red == (k % 2 == 0)) == red]
                ff = [to_ff(m) for m in mv]
                open_seen = 0
                for k in reversed(ours[-back:]):
                    before = pyffish.get_fen('xiangqi', fen, ff[:k])
                    best, bs = go(before)
                    if best is None or bs is None or bs <= -LOST:
                        continue
                    open_seen += 1
                    if best != mv[k]:
                        after = pyffish.get_fen('xiangqi', fen, ff[:k + 1])
                        _, ps = go(after)
                        if ps is not None and bs + ps >= MARGIN:
                            # Check the judge's move from the position after it too: EE stops
                            # early at low depth when it sees every move losing, and its best
                            # move can then walk into a mate as well.
                            _, js = go(pyffish.get_fen('xiangqi', fen, ff[:k] + [to_ff(best)]))
                            if js is not None and -js > -LOST and -js + ps >= MARGIN:
                                kept += 1
                                f.write('%s;%s;%s;%d;%d;%s:%d:%d\n' % (
                                    before, mv[k], best, min(bs, -js), -ps,
                                    path.split('/')[-1], gi, k))
                                f.flush()
                    if open_seen >= KEEP_OPEN:
                        break
                print(path, gi, 'kept', kept, flush=True)
    cmd('quit')


if __name__ == '__main__':
    main()
