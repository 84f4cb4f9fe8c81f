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
