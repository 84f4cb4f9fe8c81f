// Shared by mistakes.test.mjs (the server) and static-mistakes.test.mjs (the static site): on a
// play page whose game has a finished review with a blunder of player 0, "Practise your mistakes"
// opens the puzzle page in its "my mistakes" mode; the move played is refused with what the review
// said, another move goes to the review's judge, and the review's best move solves it.

/** Types `move` into the puzzle page's move box and waits for a new verdict. */
async function typeMove(page, move) {
  await page.evaluate(() => { document.getElementById("verdict").textContent = ""; });
  await page.fill("#move-input", move);
  await page.click("#move-play");
  await page.waitForFunction(() => {
    const v = document.getElementById("verdict");
    return /\b(good|bad)\b/.test(v.className) && v.textContent.length > 0;
  }, null, { timeout: 120000 });
  return page.$eval("#verdict", (v) => ({ text: v.textContent, good: v.classList.contains("good") }));
}

/** Runs the steps on `page` (at the play page of the reviewed game); `record(name, ok, detail)`. */
export async function practiseMistakes(page, record) {
  await page.waitForSelector("#review .rv-practise-go", { timeout: 120000 });
  record("the finished review offers 'Practise your mistakes'", true);
  await page.selectOption("#review .rv-side", "0");
  await Promise.all([
    page.waitForURL(/mistakes=1/, { timeout: 30000 }),
    page.click("#review .rv-practise-go"),
  ]);
  await page.waitForFunction(() => !document.getElementById("mine-note").hidden && document.getElementById("goal").textContent.length > 0, null, { timeout: 30000 });
  const set = await page.evaluate(() => JSON.parse(localStorage.getItem("qiyi-mistakes-checkers")));
  const p = set.puzzles[0];
  record("the mistakes are kept in the browser as puzzles", set.puzzles.length >= 1 && p.source.kind === "review",
    `${set.puzzles.length} puzzle(s); first: ply ${p.mistake.ply}, played ${p.mistake.played}, best ${p.mistake.best} (${p.mistake.class})`);
  const rated = await page.$eval("#my-rating", (e) => e.closest(".puz-rated").hidden);
  const note = await page.textContent("#mine-note");
  record("the page says they are not rated", rated && /not rated/.test(note), note);
  record("the goal asks for the better move", /better move/i.test(await page.textContent("#goal")), await page.textContent("#goal"));

  const wrong = await typeMove(page, p.mistake.played);
  const explain = await page.textContent("#explain");
  record("the move played is wrong, and the page says what the review said",
    !wrong.good && explain.includes(p.mistake.played) && explain.includes(p.mistake.best), `${wrong.text} / ${explain}`);

  // A third move goes to the review's judge (right when it classes it best or good).
  const other = p.steps[0].legal.map((m) => m.text).find((m) => m !== p.mistake.best && m !== p.mistake.played);
  if (other) {
    await page.click("#next"); // one puzzle: the same again, fresh
    await page.waitForFunction(() => document.getElementById("verdict").textContent === "", null, { timeout: 10000 });
    const judged = await typeMove(page, other);
    record("another move is judged by the review's judge", true, `${other}: ${judged.text}`);
  }

  await page.click("#next");
  await page.waitForFunction(() => document.getElementById("verdict").textContent === "", null, { timeout: 10000 });
  const right = await typeMove(page, p.mistake.best);
  record("the review's best move solves it", right.good, right.text);
  return set;
}
