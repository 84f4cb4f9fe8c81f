// The page's sounds, made with the Web Audio API (no sound files, so no licence to carry): a
// short tick for a move, a lower double knock for a capture, two sharp rising notes for a check
// (Xiangqi), a three-note phrase for the end of a game. Off until the player turns them on with the switch; the choice is remembered in
// localStorage ("qiyi-sound" = "on"), so a fresh browser (and every test) stays silent.
"use strict";

const Sound = (() => {
  const KEY = "qiyi-sound";
  let ctx = null;
  let on = false;
  try { on = localStorage.getItem(KEY) === "on"; } catch (e) { on = false; }

  function audio() {
    if (!ctx) {
      const AC = window.AudioContext || window.webkitAudioContext;
      if (!AC) return null;
      ctx = new AC();
    }
    if (ctx.state === "suspended") ctx.resume();
    return ctx;
  }

  // One note: frequency (Hz), start offset and length (s), peak gain, wave shape.
  function tone(ac, freq, at, len, gain, type) {
    const osc = ac.createOscillator();
    const amp = ac.createGain();
    osc.type = type || "sine";
    osc.frequency.value = freq;
    const t0 = ac.currentTime + at;
    amp.gain.setValueAtTime(0.0001, t0);
    amp.gain.exponentialRampToValueAtTime(gain, t0 + 0.008);
    amp.gain.exponentialRampToValueAtTime(0.0001, t0 + len);
    osc.connect(amp).connect(ac.destination);
    osc.start(t0);
    osc.stop(t0 + len + 0.02);
  }

  const SOUNDS = {
    move: (ac) => tone(ac, 660, 0, 0.09, 0.25, "triangle"),
    capture: (ac) => { tone(ac, 330, 0, 0.1, 0.35, "square"); tone(ac, 220, 0.07, 0.14, 0.3, "square"); },
    check: (ac) => { tone(ac, 988, 0, 0.07, 0.22, "sawtooth"); tone(ac, 1319, 0.08, 0.12, 0.22, "sawtooth"); },
    end: (ac) => { tone(ac, 523, 0, 0.22, 0.25); tone(ac, 659, 0.18, 0.22, 0.25); tone(ac, 784, 0.36, 0.4, 0.25); },
  };

  return {
    /** Whether sounds are on. */
    get on() { return on; },
    /** Turns sounds on or off and remembers it. */
    set(value) {
      on = !!value;
      try { localStorage.setItem(KEY, on ? "on" : "off"); } catch (e) { /* no storage */ }
      if (on) audio();
    },
    /** Plays "move", "capture", "check" or "end" when sounds are on. */
    play(name) {
      if (!on || !SOUNDS[name]) return;
      try { const ac = audio(); if (ac) SOUNDS[name](ac); } catch (e) { /* no audio here */ }
    },
  };
})();
