// Board drawings, one per game. Each `draw(state, ui)` returns the SVG markup of the board
// (`body`) and of the pieces (`pieces`, drawn above the last-move highlight), the centre of every clickable cell (`cells: {id: [x, y]}`) and the cell radius `r`;
// app.js adds the last-move highlight, selection, legal-move dots and click targets on top.
"use strict";

const Boards = {};

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
        `<text x="${x}" y="${y + 10}" font-size="28" text-anchor="middle" fill="${col}" class="cjk" font-weight="700">${esc(p.glyph)}</text></g>`;
    }
    return { width: W, height: H, r: 27, cells, body, pieces };
  },
};

Boards.checkers = {
  flippable: true,
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
      body += `<rect x="${x}" y="${y}" width="${S}" height="${S}" fill="#6d8a4e"/>` +
        `<text x="${x + 4}" y="${y + 14}" font-size="12" fill="#e6efd8">${n}</text>`;
      cells[String(n)] = [x + S / 2, y + S / 2];
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

Boards.peg = {
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
    box.textContent = `${s.view.pegs} pegs · goal: ${s.view.goal}` + (s.view.known_minimum ? ` · ${s.view.known_minimum}` : "");
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
      body += `<circle cx="${S}" cy="${S}" r="18" fill="#fff" stroke="#333"/><text x="${S}" y="${S + 5}" font-size="12" text-anchor="middle">pass</text>`;
    }
    return { width: W, height: H, r: 17, cells, body, pieces };
  },
  extra(box, s) {
    box.textContent = "distance left: " + s.view.remaining.map((d, p) => `${s.player_names[p]} ${d}`).join(" · ");
  },
};

const SEAT_COLORS = ["#d23a2a", "#e8b81c", "#2f5fd0", "#2f9a3e"];

Boards.aeroplane = {
  markMovable: true,
  moveText: (h) => (h.player === null ? "rolls " + h.text.replace("r", "") : "plane " + h.text),
  draw(s) {
    const W = 640, C = W / 2, R = 220;
    const ang = (sq) => Math.PI / 2 + (2 * Math.PI * (sq + 0.5)) / 52;   // seat 0 starts at the bottom
    const ringPt = (sq) => [C + R * Math.cos(ang(sq)), C + R * Math.sin(ang(sq))];
    let body = `<rect width="${W}" height="${W}" fill="#f5efe0"/><circle cx="${C}" cy="${C}" r="${R + 22}" fill="#fff" stroke="#999"/>`;
    for (let sq = 0; sq < 52; sq++) {
      const [x, y] = ringPt(sq);
      body += `<circle cx="${x}" cy="${y}" r="13" fill="${SEAT_COLORS[(sq + 3) % 4]}" opacity="0.75"/>`;
    }
    const seats = s.view.seats;
    const where = (seat, d, i) => {
      if (d === s.view.hangar) {
        const a = ang(13 * seat) - 0.16;
        const base = [C + (R + 55) * Math.cos(a), C + (R + 55) * Math.sin(a)];
        return [base[0] + (i % 2) * 26 - 13, base[1] + Math.floor(i / 2) * 26 - 13];
      }
      if (d === 0) { const a = ang(13 * seat) - 0.09; return [C + (R + 30) * Math.cos(a), C + (R + 30) * Math.sin(a)]; }
      if (d <= 50) return ringPt((13 * seat + d - 1) % 52);
      if (d >= s.view.centre) { const a = ang(13 * seat + 49); return [C + 22 * Math.cos(a) + (i - 1.5) * 8, C + 22 * Math.sin(a)]; }
      const a = ang((13 * seat + 49) % 52), k = d - 50;            // home column 51..55
      const r = R - k * ((R - 40) / 6);
      return [C + r * Math.cos(a), C + r * Math.sin(a)];
    };
    for (let seat = 0; seat < 4; seat++) {
      const a = ang((13 * seat + 49) % 52);
      for (let k = 1; k <= 5; k++) {
        const r = R - k * ((R - 40) / 6);
        body += `<circle cx="${C + r * Math.cos(a)}" cy="${C + r * Math.sin(a)}" r="11" fill="${SEAT_COLORS[seat]}" opacity="0.45"/>`;
      }
      const h = ang(13 * seat) - 0.16;
      body += `<rect x="${C + (R + 55) * Math.cos(h) - 30}" y="${C + (R + 55) * Math.sin(h) - 30}" width="60" height="60" rx="8" fill="${SEAT_COLORS[seat]}" opacity="0.25"/>`;
    }
    body += `<circle cx="${C}" cy="${C}" r="34" fill="#fff" stroke="#777"/><text x="${C}" y="${C + 5}" text-anchor="middle" font-size="13">centre</text>`;
    const cells = {}, tips = {};
    let pieces = "";
    const seen = {};
    for (const p of s.view.planes) {
      const seat = seats[p.player];
      let [x, y] = where(seat, p.progress, p.plane);
      const key = Math.round(x) + "," + Math.round(y);
      const n = (seen[key] = (seen[key] || 0) + 1) - 1;
      if (p.progress !== s.view.hangar && n) { x += n * 7; y -= n * 7; }
      cells[p.id] = [x, y];
      const pct = (100 * p.hit).toFixed(1);
      tips[p.id] = `${s.player_names[p.player]} plane ${"abcd"[p.plane]} · progress ${p.progress === s.view.hangar ? "hangar" : p.progress} · chance of being hit before its next turn: ${pct}%`;
      pieces += `<g><circle cx="${x}" cy="${y}" r="11" fill="${SEAT_COLORS[seat]}" stroke="#222" stroke-width="2"/>` +
        `<text x="${x}" y="${y + 4}" font-size="11" text-anchor="middle" fill="#fff" font-weight="700">✈${"abcd"[p.plane]}</text></g>`;
    }
    return { width: W, height: W, r: 13, cells, body, pieces, tips };
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
    const p = s.turn.kind === "player" ? s.player_names[s.turn.player] : "";
    const human = p && s.seats[s.turn.player].kind === "human";
    box.querySelector("#die-note").textContent = !p ? "" : human
      ? `${p} rolled ${face}: click a highlighted plane (hover a plane for its chance of being hit)`
      : `${p} (AI) rolled ${face}`;
  },
};
