// Board drawings, one per game. Each `draw(state, ui)` returns the SVG markup of the board
// (`body`) and of the pieces (`pieces`, drawn above the last-move highlight), the centre of every clickable cell (`cells: {id: [x, y]}`) and the cell radius `r`
// (`radii: {id: r}` overrides it for small cells; `alias: {id: id}` names the cell a tap on a
// cell stands for, when two pieces are one move);
// app.js adds the last-move highlight, selection, legal-move dots and click targets on top.
"use strict";

const Boards = {};

// The player's board settings, remembered in localStorage: the Xiangqi piece style
// ("qiyi-piece-style": "traditional" 車馬砲/俥傌炮 or "simplified" 车马炮; traditional unless
// chosen, as the pieces have always been drawn, and so in 繁體中文 too), the board's coordinates
// ("qiyi-coords": "on"/"off", on unless turned off) and move confirmation on touch screens
// ("qiyi-confirm": "on"/"off", off unless turned on). The analysis board reads the same.
const Prefs = (() => {
  const read = (key) => { try { return localStorage.getItem(key); } catch (e) { return null; } };
  const write = (key, value) => { try { localStorage.setItem(key, value); } catch (e) { /* no storage */ } };
  return {
    /** "traditional" or "simplified". */
    get pieceStyle() { return read("qiyi-piece-style") === "simplified" ? "simplified" : "traditional"; },
    set pieceStyle(v) { write("qiyi-piece-style", v === "simplified" ? "simplified" : "traditional"); },
    /** Whether the board shows its files and ranks. */
    get coords() { return read("qiyi-coords") !== "off"; },
    set coords(v) { write("qiyi-coords", v ? "on" : "off"); },
    /** Whether a move tapped on a touch screen waits for a confirming tap. */
    get confirmTouch() { return read("qiyi-confirm") === "on"; },
    set confirmTouch(v) { write("qiyi-confirm", v ? "on" : "off"); },
  };
})();

// The simplified characters of the Xiangqi pieces whose traditional glyph differs (帥將 車俥 馬傌
// 砲); 仕士 相象 炮 兵卒 are the same in both styles.
const SIMPLIFIED = { "帥": "帅", "將": "将", "車": "车", "俥": "车", "馬": "马", "傌": "马", "砲": "炮" };

/** The glyph of a Xiangqi piece (traditional, as the server sends it) in the chosen style. */
function pieceGlyph(glyph, style) {
  return style === "simplified" ? SIMPLIFIED[glyph] || glyph : glyph;
}

// The Chinese file numbers of Red (九 … 一, counted from the right of Red) for files a … i.
const RED_FILES = "九八七六五四三二一";

// The peg solitaire goal the server states ("one peg left in d4", "one peg left anywhere").
function pegGoal(goal) {
  const m = /^one peg left in ([a-z]\d+)$/.exec(goal);
  if (m) return t("board.goalIn", { hole: m[1] });
  return goal === "one peg left anywhere" ? t("board.goalAny") : goal;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

Boards.generic = {
  draw(s) {
    return { width: 400, height: 100, r: 10, cells: {}, body: `<text x="10" y="50">${esc(s.position)}</text>` };
  },
};

Boards.tictactoe = {
  seatNames: () => ["X", "O"],
  draw(s) {
    const cells = {};
    let body = '<rect x="0" y="0" width="300" height="300" fill="#fffaf0"/>';
    let pieces = "";
    for (let i = 1; i < 3; i++) {
      body += `<line x1="${i * 100}" y1="10" x2="${i * 100}" y2="290" stroke="#333" stroke-width="4"/>`;
      body += `<line x1="10" y1="${i * 100}" x2="290" y2="${i * 100}" stroke="#333" stroke-width="4"/>`;
    }
    for (let f = 0; f < 3; f++) {
      for (let r = 0; r < 3; r++) {
        const id = "abc"[f] + (r + 1);
        const x = f * 100 + 50, y = (2 - r) * 100 + 50;
        cells[id] = [x, y];
        const m = s.view.cells[id];
        if (m === "x") pieces += `<path d="M${x - 28} ${y - 28}L${x + 28} ${y + 28}M${x + 28} ${y - 28}L${x - 28} ${y + 28}" stroke="#b5341c" stroke-width="9" stroke-linecap="round"/>`;
        if (m === "o") pieces += `<circle cx="${x}" cy="${y}" r="30" fill="none" stroke="#1c4fb5" stroke-width="9"/>`;
      }
    }
    return { width: 300, height: 300, r: 45, cells, body, pieces };
  },
};

Boards.nim = {
  seatNames: () => ["First", "Second"],
  draw(s) {
    const heaps = s.view.heaps;
    const max = Math.max(1, ...heaps);
    const w = heaps.length * 80 + 40, h = max * 36 + 70;
    const cells = {};
    let body = `<rect width="${w}" height="${h}" fill="#fffaf0"/>`;
    let pieces = "";
    heaps.forEach((n, i) => {
      const x = 60 + i * 80;
      body += `<text x="${x}" y="${h - 12}" text-anchor="middle" font-size="16">heap ${i + 1}</text>`;
      for (let k = 0; k < n; k++) {
        const y = h - 50 - k * 36;
        cells[`h${i}s${k}`] = [x, y];
        pieces += `<circle cx="${x}" cy="${y}" r="15" fill="#8a8a8a" stroke="#444" stroke-width="2"/>`;
      }
    });
    body += `<text x="10" y="20" font-size="14">nim-sum ${s.view.nim_sum}</text>`;
    return { width: w, height: h, r: 17, cells, body, pieces };
  },
};

Boards.xiangqi = {
  flippable: true,
  coords: true,
  pieceStyles: true,
  seatNames: () => ["Red 红", "Black 黑"],
  moveText: (h) => (h.label ? h.label + "  " + h.text : h.text),
  draw(s, ui) {
    const G = 60, M = 50, W = 8 * G + 2 * M, H = 9 * G + 2 * M;
    const flip = ui.flipped;
    const pt = (f, r) => (flip ? [M + (8 - f) * G, M + r * G] : [M + f * G, M + (9 - r) * G]);
    const line = (a, b) => `<line x1="${a[0]}" y1="${a[1]}" x2="${b[0]}" y2="${b[1]}"/>`;
    let lines = "";
    for (let r = 0; r < 10; r++) lines += line(pt(0, r), pt(8, r));
    for (let f = 0; f < 9; f++) {
      if (f === 0 || f === 8) lines += line(pt(f, 0), pt(f, 9));
      else { lines += line(pt(f, 0), pt(f, 4)); lines += line(pt(f, 5), pt(f, 9)); }
    }
    for (const [r0, r1] of [[0, 2], [7, 9]]) { lines += line(pt(3, r0), pt(5, r1)); lines += line(pt(5, r0), pt(3, r1)); }
    const mid = (pt(0, 4)[1] + pt(0, 5)[1]) / 2;
    let body = `<rect width="${W}" height="${H}" fill="#e8c88a"/><g stroke="#5a3a16" stroke-width="2">${lines}</g>`;
    body += `<rect x="${M - 6}" y="${M - 6}" width="${8 * G + 12}" height="${9 * G + 12}" fill="none" stroke="#5a3a16" stroke-width="4"/>`;
    body += `<text x="${M + 2 * G}" y="${mid + 12}" font-size="32" text-anchor="middle" fill="#5a3a16" class="cjk">楚 河</text>`;
    body += `<text x="${M + 6 * G}" y="${mid + 12}" font-size="32" text-anchor="middle" fill="#5a3a16" class="cjk">漢 界</text>`;
    const cells = {};
    for (let f = 0; f < 9; f++) for (let r = 0; r < 10; r++) cells["abcdefghi"[f] + r] = pt(f, r);
    if (s.view.check) {
      const c = cells[s.view.check];
      body += `<circle class="check-mark" cx="${c[0]}" cy="${c[1]}" r="31"/>`;
    }
    let pieces = "";
    for (const p of s.view.pieces) {
      const [x, y] = cells[p.sq];
      const col = p.red ? "#c0281c" : "#1b1b1b";
      pieces += `<g><circle cx="${x}" cy="${y}" r="26" fill="#f7e4bc" stroke="${col}" stroke-width="3"/>` +
        `<circle cx="${x}" cy="${y}" r="21" fill="none" stroke="${col}" stroke-width="1"/>` +
        `<text x="${x}" y="${y + 10}" font-size="28" text-anchor="middle" fill="${col}" class="cjk" font-weight="700">${esc(pieceGlyph(p.glyph, Prefs.pieceStyle))}</text></g>`;
    }
    if (Prefs.coords) {
      // ICCS files a-i and Red's Chinese file numbers along Red's edge, Black's 1-9 along
      // Black's, the ranks 0-9 on the left: the names typed moves use.
      let c = "";
      for (let f = 0; f < 9; f++) {
        const [x, yr] = pt(f, 0), [, yb] = pt(f, 9);
        c += `<text x="${x}" y="${yr + (flip ? -36 : 42)}" text-anchor="middle">${"abcdefghi"[f]} <tspan class="cjk">${RED_FILES[f]}</tspan></text>`;
        c += `<text x="${x}" y="${yb + (flip ? 42 : -36)}" text-anchor="middle">${f + 1}</text>`;
      }
      for (let r = 0; r < 10; r++) { const [, y] = pt(flip ? 8 : 0, r); c += `<text x="${M - 38}" y="${y + 5}" text-anchor="middle">${r}</text>`; }
      body += `<g class="coords" font-size="14" fill="#5a3a16">${c}</g>`;
    }
    return { width: W, height: H, r: 27, cells, body, pieces };
  },
};

Boards.checkers = {
  flippable: true,
  coords: true,
  seatNames: () => ["Black", "White"],
  draw(s, ui) {
    const S = 70, W = 8 * S;
    const flip = ui.flipped;
    const cells = {};
    let body = `<rect width="${W}" height="${W}" fill="#f0dcb4"/>`;
    for (let n = 1; n <= 32; n++) {
      const row = Math.floor((n - 1) / 4), k = (n - 1) % 4;
      let col = row % 2 === 0 ? 2 * k + 1 : 2 * k;
      let r = row;
      if (flip) { col = 7 - col; r = 7 - row; }
      const x = col * S, y = r * S;
      body += `<rect x="${x}" y="${y}" width="${S}" height="${S}" fill="#6d8a4e"/>`;
      if (Prefs.coords) body += `<text x="${x + 4}" y="${y + 14}" font-size="12" fill="#e6efd8">${n}</text>`;
      cells[String(n)] = [x + S / 2, y + S / 2];
    }
    if (Prefs.coords) {
      // Files a-h along the bottom edge and ranks 1-8 up the left one (from Black's side when
      // flipped), beside the PDN square numbers.
      let c = "";
      for (let i = 0; i < 8; i++) {
        const file = "abcdefgh"[flip ? 7 - i : i], rank = flip ? i + 1 : 8 - i;
        const dark = (sq) => sq % 2 === 1;   // (row + col) odd: a dark square
        c += `<text x="${i * S + S - 4}" y="${W - 4}" text-anchor="end" fill="${dark(7 + i) ? "#e6efd8" : "#4a5a32"}">${file}</text>`;
        c += `<text x="3" y="${i * S + S - 4}" fill="${dark(i) ? "#e6efd8" : "#4a5a32"}">${rank}</text>`;
      }
      body += `<g class="coords" font-size="12">${c}</g>`;
    }
    let pieces = "";
    for (const p of s.view.pieces) {
      const [x, y] = cells[String(p.sq)];
      const fill = p.black ? "#2a2a2a" : "#f4f1e8", stroke = p.black ? "#000" : "#8b8371";
      pieces += `<circle cx="${x}" cy="${y}" r="26" fill="${fill}" stroke="${stroke}" stroke-width="3"/>` +
        `<circle cx="${x}" cy="${y}" r="18" fill="none" stroke="${stroke}" stroke-width="1.5"/>`;
      if (p.king) pieces += `<text x="${x}" y="${y + 9}" font-size="26" text-anchor="middle" fill="${p.black ? "#f4d35e" : "#b5341c"}">♔</text>`;
    }
    return { width: W, height: W, r: 30, cells, body, pieces };
  },
};

Boards["peg-solitaire"] = {
  players: () => 1,
  seatNames: () => ["Player"],
  draw(s) {
    const holes = s.view.holes;
    const S = 70;
    const xs = holes.map((h) => h.x), ys = holes.map((h) => h.y);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    const W = (Math.max(...xs) - x0) * S + 2 * S, H = (Math.max(...ys) - y0) * S + 2 * S;
    const cells = {};
    let body = `<rect width="${W}" height="${H}" rx="${S / 2}" fill="#c89b5e"/>`;
    let pieces = "";
    for (const h of holes) {
      const x = (h.x - x0) * S + S, y = (h.y - y0) * S + S;
      cells[h.id] = [x, y];
      body += `<circle cx="${x}" cy="${y}" r="12" fill="#5b3b17"/><text x="${x}" y="${y + 30}" font-size="11" text-anchor="middle" fill="#4a2f10">${esc(h.id)}</text>`;
      if (h.peg) pieces += `<circle cx="${x}" cy="${y}" r="20" fill="#2f5fb0" stroke="#173060" stroke-width="3"/><circle cx="${x - 6}" cy="${y - 6}" r="5" fill="#9ec0f5"/>`;
    }
    return { width: W, height: H, r: 26, cells, body, pieces };
  },
  extra(box, s) {
    box.textContent = t("board.pegs", { pegs: s.view.pegs, goal: pegGoal(s.view.goal) }) + (s.view.known_minimum && I18n.lang === "en" ? ` · ${s.view.known_minimum}` : "");
  },
};

const POINT_COLORS = { red: "#d23a2a", orange: "#ee8a1c", yellow: "#e8c81c", green: "#2f9a3e", blue: "#2f5fd0", purple: "#8a3fb5" };

Boards["chinese-checkers"] = {
  showPath: true,
  draw(s) {
    const S = 40, holes = s.view.holes;
    const xs = holes.map((h) => h.x), ys = holes.map((h) => h.y);
    const x0 = Math.min(...xs), y0 = Math.min(...ys);
    const W = (Math.max(...xs) - x0) * S + 2 * S, H = (Math.max(...ys) - y0) * S + 2 * S;
    const cells = {};
    let body = `<rect width="${W}" height="${H}" fill="#f3e3c3"/>`;
    let pieces = "";
    const names = s.view.colors;
    for (const h of holes) {
      const x = (h.x - x0) * S + S, y = (h.y - y0) * S + S;
      cells[h.id] = [x, y];
      body += `<circle cx="${x}" cy="${y}" r="7" fill="#8d7350"/>`;
      if (h.owner !== null && h.owner !== undefined) {
        const c = POINT_COLORS[names[s.view.seats[h.owner] % 6]];
        pieces += `<circle cx="${x}" cy="${y}" r="14" fill="${c}" stroke="#222" stroke-width="1.5"/>`;
      }
    }
    const hasPass = (s.legal || []).some((m) => m.path[0] === "pass");
    if (hasPass) {
      cells.pass = [S, S];
      body += `<circle cx="${S}" cy="${S}" r="18" fill="#fff" stroke="#333"/><text x="${S}" y="${S + 5}" font-size="12" text-anchor="middle">${esc(t("board.pass"))}</text>`;
    }
    return { width: W, height: H, r: 17, cells, body, pieces };
  },
  extra(box, s) {
    box.textContent = t("board.distance", { list: s.view.remaining.map((d, p) => `${nameOf(s.player_names[p])} ${d}`).join(" · ") });
  },
};

const SEAT_COLORS = ["#d23a2a", "#e8b81c", "#2f5fd0", "#2f9a3e"];
const SEAT_LIGHT = ["#f6c9c2", "#f8ebb5", "#c7d5f6", "#c5e6c9"];

// The classic 飞行棋 board as a cross, in board units (one square = 1) around the centre. Each
// seat owns one arm; `frame(seat)` turns (u along the arm, outward; v towards the next seat's arm)
// into page coordinates. Seat 0 (red) sits at the bottom and the track runs clockwise.
const AERO = {
  unit: 38,
  half: 8.3,
  // The 13 squares from an arm's tip (the owner's progress 50) to the next arm: its outer row,
  // the lane beside the home column, the inner corner and the next arm's lane and outer row.
  quarter: [[6.6, 0], [6.6, 1], [6.6, 2], [6.6, 3], [5.6, 3], [4.6, 3], [3.6, 3],
    [3, 3.6], [3, 4.6], [3, 5.6], [3, 6.6], [2, 6.6], [1, 6.6]],
  hangar: [5.45, 5.45],
  pad: [7.25, 4.2],
  frame(seat) {
    const t = Math.PI / 2 + (seat * Math.PI) / 2;            // seat 0 down, 1 left, 2 up, 3 right
    const a = [Math.cos(t), Math.sin(t)], n = [Math.cos(t + Math.PI / 2), Math.sin(t + Math.PI / 2)];
    const c = AERO.half * AERO.unit;
    return (u, v) => [c + AERO.unit * (u * a[0] + v * n[0]), c + AERO.unit * (u * a[1] + v * n[1])];
  },
  // Ring square k (0..51): seat 0's progress 1 is square 0; quarter q starts at seat q's tip.
  ring(k) {
    const j = (((k + 3) % 52) + 52) % 52;
    const [u, v] = AERO.quarter[j % 13];
    return AERO.frame(Math.floor(j / 13))(u, v);
  },
  // Where a plane of `seat` at progress `d` stands (hangar slot `i` when in the hangar).
  at(seat, d, i, view) {
    const f = AERO.frame(seat);
    if (d === view.hangar) return f(AERO.hangar[0] + (i % 2 ? 0.5 : -0.5), AERO.hangar[1] + (i < 2 ? -0.5 : 0.5));
    if (d === 0) return f(...AERO.pad);
    if (d <= 50) return AERO.ring((13 * seat + d - 1) % 52);
    if (d >= view.centre) return f(0.75, 0);                 // apart enough for four tap areas a seat
    return f(6.6 - (d - 50), 0);                             // home column 51..55
  },
};

function polygon(points, attrs) {
  return `<polygon points="${points.map((p) => p[0].toFixed(1) + "," + p[1].toFixed(1)).join(" ")}" ${attrs}/>`;
}

Boards.aeroplane = {
  markMovable: true,
  moveText: (h) => (h.player === null ? t("board.rolls", { face: h.text.replace("r", "") }) : t("board.plane", { plane: h.text })),
  draw(s) {
    const U = AERO.unit, W = 2 * AERO.half * U, sq = 0.44 * U;
    const view = s.view;
    let body = `<rect width="${W}" height="${W}" fill="#f3ead6"/>`;
    // The cross and, in each corner, the hangar of the seat whose launch pad is beside it.
    const cross = [];
    for (let seat = 0; seat < 4; seat++) {
      const f = AERO.frame(seat);
      cross.push(f(7.15, -3.55), f(7.15, 3.55), f(3.55, 3.55));
    }
    body += polygon(cross, 'fill="#fffaf0" stroke="#8a7a5a" stroke-width="2"');
    for (let seat = 0; seat < 4; seat++) {
      const f = AERO.frame(seat);
      const [hx, hy] = f(...AERO.hangar);
      body += `<rect x="${hx - 1.15 * U}" y="${hy - 1.15 * U}" width="${2.3 * U}" height="${2.3 * U}" rx="${0.35 * U}" fill="${SEAT_LIGHT[seat]}" stroke="${SEAT_COLORS[seat]}" stroke-width="3"/>`;
      for (let i = 0; i < 4; i++) {
        const [x, y] = f(AERO.hangar[0] + (i % 2 ? 0.5 : -0.5), AERO.hangar[1] + (i < 2 ? -0.5 : 0.5));
        body += `<circle cx="${x}" cy="${y}" r="${0.36 * U}" fill="#fff" stroke="${SEAT_COLORS[seat]}" stroke-width="1.5" opacity="0.8"/>`;
      }
      // Launch pad and the arrow onto the track (progress 1).
      const [px, py] = f(...AERO.pad), [ex, ey] = AERO.ring(13 * seat);
      body += `<line x1="${px}" y1="${py}" x2="${ex}" y2="${ey}" stroke="${SEAT_COLORS[seat]}" stroke-width="3"/>`;
      body += `<circle cx="${px}" cy="${py}" r="${sq}" fill="${SEAT_LIGHT[seat]}" stroke="${SEAT_COLORS[seat]}" stroke-width="3"/>` +
        `<text x="${px}" y="${py + 4}" font-size="11" text-anchor="middle" fill="${SEAT_COLORS[seat]}">起飞</text>`;
      // Home column 51..55 towards the centre, entered from the arm's tip.
      for (let d = 51; d <= 55; d++) {
        const [x, y] = f(6.6 - (d - 50), 0);
        body += `<rect x="${x - sq}" y="${y - sq}" width="${2 * sq}" height="${2 * sq}" rx="5" fill="${SEAT_COLORS[seat]}" opacity="0.55"/>`;
      }
      // The centre: one triangle per seat.
      body += polygon([f(0, 0), f(1.15, -1.15), f(1.15, 1.15)], `fill="${SEAT_COLORS[seat]}" opacity="0.8"`);
    }
    // The 52 track squares, coloured in turn; a plane landing on its own colour jumps on to the
    // next one (4 squares on).
    for (let k = 0; k < 52; k++) {
      const [x, y] = AERO.ring(k);
      const seat = (k + 3) % 4;                                 // own colour: progress 2, 6, ..., 50
      body += `<rect x="${x - sq}" y="${y - sq}" width="${2 * sq}" height="${2 * sq}" rx="6" fill="${SEAT_COLORS[seat]}" stroke="#fff" stroke-width="2"/>`;
    }
    // Flight lines: own square 18 to 30 across the home column of the seat opposite (its 53).
    for (let seat = 0; seat < 4; seat++) {
      const [x1, y1] = AERO.ring((13 * seat + 17) % 52), [x2, y2] = AERO.ring((13 * seat + 29) % 52);
      body += `<line x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}" stroke="${SEAT_COLORS[seat]}" stroke-width="3" stroke-dasharray="7 5"/>` +
        `<text x="${(x1 + x2) / 2}" y="${(y1 + y2) / 2 + 6}" font-size="18" text-anchor="middle" fill="${SEAT_COLORS[seat]}">✈</text>`;
    }
    // Planes: those sharing a square are fanned out over it, smaller, each with its own tap area
    // (a plain stack left only the top plane tappable on a phone). Planes of one seat at the same
    // progress are one move (the rules offer the lowest-lettered); tapping any of them plays it.
    const cells = {}, tips = {}, radii = {}, alias = {};
    const spots = {};
    for (const p of view.planes) {
      const seat = view.seats[p.player];
      const [x, y] = AERO.at(seat, p.progress, p.plane, view);
      const key = Math.round(x) + "," + Math.round(y);
      (spots[key] = spots[key] || []).push({ p, seat, x, y });
    }
    let pieces = "";
    for (const stack of Object.values(spots)) {
      const n = stack.length;
      const cols = Math.ceil(Math.sqrt(n)), rows = Math.ceil(n / cols);
      const step = (2 * sq) / cols;                        // the square split into a grid
      const pr = n > 1 ? 0.47 * step : 0.36 * U;           // drawn (and tap) radius
      stack.forEach(({ p, seat, x: x0, y: y0 }, k) => {
        const x = x0 + (n > 1 ? ((k % cols) - (cols - 1) / 2) * step : 0);
        const y = y0 + (n > 1 ? (Math.floor(k / cols) - (rows - 1) / 2) * step : 0);
        cells[p.id] = [x, y];
        if (n > 1) radii[p.id] = pr;
        const twin = stack.find((q) => q.p.player === p.player && q.p.progress === p.progress);
        if (twin.p.id !== p.id) alias[p.id] = twin.p.id;
        const pct = (100 * p.hit).toFixed(1);
        const where = p.progress === view.hangar ? t("board.hangar") : p.progress === 0 ? t("board.launch") : p.progress >= view.centre ? t("board.home") : t("board.progress", { n: p.progress });
        tips[p.id] = t("board.planeTip", { player: nameOf(s.player_names[p.player]), plane: "abcd"[p.plane], where, pct });
        const fs = n > 1 ? Math.max(7, pr * 0.95) : 12;
        pieces += `<g><circle cx="${x}" cy="${y}" r="${pr}" fill="${SEAT_COLORS[seat]}" stroke="#222" stroke-width="${n > 1 ? 1.2 : 2}"/>` +
          `<text x="${x}" y="${y + fs * 0.38}" font-size="${fs}" text-anchor="middle" fill="#fff" font-weight="700">${n > 1 ? "" : "✈"}${"abcd"[p.plane]}</text></g>`;
      });
    }
    return { width: W, height: W, r: 0.4 * U, cells, radii, alias, body, pieces, tips };
  },
  extra(box, s, ui) {
    let die = box.querySelector(".die");
    if (!die) {
      box.innerHTML = '<div class="die" id="die"></div><span id="die-note"></span>';
      die = box.querySelector(".die");
    }
    const rolls = s.history.filter((h) => h.player === null);
    const last = rolls.length ? rolls[rolls.length - 1].text.replace("r", "") : "";
    const face = s.view.roll || last;
    const faces = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
    if (die.dataset.count !== String(rolls.length)) {
      die.dataset.count = String(rolls.length);
      die.classList.remove("rolling");
      void die.offsetWidth;
      die.classList.add("rolling");
    }
    die.textContent = faces[face] || "";
    const p = s.turn.kind === "player" ? nameOf(s.player_names[s.turn.player]) : "";
    const human = p && s.seats[s.turn.player].kind === "human";
    box.querySelector("#die-note").textContent = !p ? "" : human
      ? t("board.rolledHuman", { player: p, face })
      : t("board.rolledAi", { player: p, face });
  },
};
