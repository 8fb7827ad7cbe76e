// Sounds made with WebAudio, no audio files: the short beep for a refused
// move when verbose messages are off (the Amiga help's "Display-beep"), and
// the effects a page may play (a setting, off by default): a deal, a move, a
// completed suit and a win.

let ctx = null;

function audio() {
  const AC = window.AudioContext || window.webkitAudioContext;
  if (!AC) return null;
  if (!ctx) ctx = new AC();
  if (ctx.state === "suspended") ctx.resume();
  return ctx;
}

// tone plays one note: a wave of type from freq (to freq2 if given), at
// start seconds from now, lasting dur seconds, at peak loudness vol.
function tone(a, { type = "triangle", freq, freq2 = 0, start = 0, dur = 0.12, vol = 0.2 }) {
  const t = a.currentTime + start;
  const osc = a.createOscillator();
  const gain = a.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, t);
  if (freq2) osc.frequency.exponentialRampToValueAtTime(freq2, t + dur);
  gain.gain.setValueAtTime(0.0001, t);
  gain.gain.exponentialRampToValueAtTime(vol, t + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, t + dur);
  osc.connect(gain).connect(a.destination);
  osc.start(t);
  osc.stop(t + dur + 0.02);
}

export function beep() {
  try {
    const a = audio();
    if (a) tone(a, { freq: 440, freq2: 220, dur: 0.15, vol: 0.25 });
  } catch {
    // Sound is a courtesy; never let it break play.
  }
}

// The effects: each a few notes.
const EFFECTS = {
  // cards snapping down one after another
  deal: [0, 1, 2, 3, 4].map((i) => ({ type: "square", freq: 1400 - i * 60, freq2: 700, start: i * 0.045, dur: 0.035, vol: 0.05 })),
  // one card put down
  move: [{ type: "square", freq: 900, freq2: 500, dur: 0.04, vol: 0.06 }],
  // a rising arpeggio
  complete: [523, 659, 784, 1047].map((f, i) => ({ freq: f, start: i * 0.07, dur: 0.18, vol: 0.16 })),
  // a short fanfare
  win: [[523, 0], [659, 0.12], [784, 0.24], [1047, 0.36], [784, 0.52], [1047, 0.62]].map(([f, s], i) => ({ freq: f, start: s, dur: i === 5 ? 0.6 : 0.16, vol: 0.18 })),
};

// played keeps the names of the latest effects played, for the page's tests.
export const played = [];

// playEffect plays the named effect ("deal", "move", "complete", "win").
export function playEffect(name) {
  const notes = EFFECTS[name];
  if (!notes) return;
  played.push(name);
  if (played.length > 50) played.shift();
  try {
    const a = audio();
    if (a) for (const n of notes) tone(a, n);
  } catch {
    // Sound is a courtesy; never let it break play.
  }
}
