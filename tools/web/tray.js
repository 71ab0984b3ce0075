// The tray in a browser: MicroPython (WebAssembly) runs the firmware's own App through
// webtray.py; this file only feeds it presses and time, paints its frame buffer on the canvas,
// plays its buzzer through Web Audio and mirrors its save files into localStorage.
import { loadMicroPython } from "./micropython.mjs";

const NAMES = ["KEEP1", "KEEP2", "KEEP3", "ROLL", "OK"];
const KEYS = { Digit1: "KEEP1", Digit2: "KEEP2", Digit3: "KEEP3", KeyR: "ROLL", Space: "ROLL",
  KeyO: "OK", Enter: "OK", NumpadEnter: "OK", Numpad1: "KEEP1", Numpad2: "KEEP2",
  Numpad3: "KEEP3" };
const LONG_MS = 900; // Shift+O: OK held this long (the tray's long press is 700 ms)
const POLL_MS = 5; // the tray's main loop polls every 5 ms
const TICKS_PERIOD = 2 ** 30; // the Pico's ticks_ms wraps here
const SAVE_DIR = "/tray";
const LIT = [200, 232, 255];
const LIT_DIM = [70, 90, 110];

// What the page says, in one place: in English until the tray runs, then in the language it
// speaks (relabel: the catalogue's WEB_ texts, as its BUTTONS name the buttons).
const TEXT = {
  soundOn: "sound on",
  soundOff: "sound off",
  keepsNoGame: (why) => `this browser keeps no game: ${why}`,
  stopped: (why) => `the tray stopped: ${why}`,
  cannotStart: (why) => `the tray could not start: ${why}`,
  seeded: (seed) => `fixed dice (seed ${seed})`,
  // Served over plain http from another computer: no service worker, no install.
  plainHttp: "plain http: it plays, but offline and install need https",
};

const params = new URLSearchParams(location.search);
const seed = /^\d+$/.test(params.get("seed") ?? "") ? Number(params.get("seed")) : null;
const height = params.get("height") === "32" ? 32 : 64;
// localStorage key prefix of the mirrored save files: a seeded page (a test, a demo) keeps its
// own, so it never overwrites the game of the page played with real dice.
const SAVE_KEY = seed === null ? "dicetray/" : `dicetray-seed${seed}/`;
const statusLine = document.getElementById("status");
const canvas = document.getElementById("panel");
canvas.height = height;
const ctx2d = canvas.getContext("2d", { willReadFrequently: true });
const image = ctx2d.createImageData(128, height);

// What the bench and the tests read: start time, click-to-canvas latencies, paints.
const stats = { startMs: null, paints: 0, latencies: [], pressAt: null, downAt: null, error: null,
  tones: 0 };
window.trayStats = stats;

function say(text) {
  statusLine.textContent = text;
}

function ticks() {
  return Math.floor(performance.now()) % TICKS_PERIOD;
}

// ---- the panel --------------------------------------------------------------------------------

function paint(flags, hex) {
  const data = image.data;
  const asleep = flags & 2;
  const lit = flags & 1 ? LIT_DIM : LIT;
  for (let page = 0; page < height / 8; page++) {
    for (let x = 0; x < 128; x++) {
      const byte = asleep ? 0 : parseInt(hex.substr((page * 128 + x) * 2, 2), 16);
      for (let bit = 0; bit < 8; bit++) {
        const i = ((page * 8 + bit) * 128 + x) * 4;
        const on = (byte >> bit) & 1;
        data[i] = on ? lit[0] : 0;
        data[i + 1] = on ? lit[1] : 0;
        data[i + 2] = on ? lit[2] : 0;
        data[i + 3] = 255;
      }
    }
  }
  ctx2d.putImageData(image, 0, 0);
  stats.paints += 1;
  if (stats.startMs === null) stats.startMs = performance.now();
  if (stats.pressAt !== null) {
    stats.latencies.push(performance.now() - stats.pressAt);
    stats.pressAt = null;
  }
}

// The canvas as the tests read it: one "0" or "1" per pixel, row by row.
window.trayPixels = () => {
  const data = ctx2d.getImageData(0, 0, 128, height).data;
  let out = "";
  for (let i = 0; i < data.length; i += 4) out += data[i + 1] > 40 ? "1" : "0";
  return out;
};

// ---- the buzzer -------------------------------------------------------------------------------

// localStorage, where a browser keeps it (a private window may refuse it: then nothing is kept).
function stored(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

const sound = { ctx: null, osc: null, gain: null, on: stored("dicetray:sound") !== "off", hz: 0 };

// Called at every press and release: a browser lets sound start only from a user's gesture
// (a touch's is its release).
function wakeAudio() {
  if (sound.ctx?.state === "suspended") sound.ctx.resume();
  if (sound.ctx || !window.AudioContext) return;
  sound.ctx = new AudioContext();
  sound.osc = sound.ctx.createOscillator();
  sound.gain = sound.ctx.createGain();
  sound.osc.type = "square"; // a piezo driven by a PWM square wave
  sound.gain.gain.value = 0;
  sound.osc.connect(sound.gain).connect(sound.ctx.destination);
  sound.osc.start();
}

function tone(hz) {
  sound.hz = hz;
  if (hz > 0) stats.tones += 1;
  if (!sound.ctx) return;
  const t = sound.ctx.currentTime;
  if (hz > 0 && sound.on) sound.osc.frequency.setValueAtTime(hz, t);
  sound.gain.gain.setValueAtTime(hz > 0 && sound.on ? 0.04 : 0, t);
}

const soundButton = document.getElementById("sound");
function showSound() {
  soundButton.textContent = sound.on ? TEXT.soundOn : TEXT.soundOff;
  soundButton.setAttribute("aria-pressed", String(sound.on));
}
soundButton.addEventListener("click", () => {
  sound.on = !sound.on;
  try {
    localStorage.setItem("dicetray:sound", sound.on ? "on" : "off");
  } catch {
    // not kept: the page says so at the first save
  }
  showSound();
  tone(sound.hz);
});
showSound();

// ---- the save files ---------------------------------------------------------------------------

let storageError = null; // why this browser keeps no game, shown on the status line

function restoreSaves(FS) {
  FS.mkdirTree(SAVE_DIR);
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith(SAVE_KEY)) {
        FS.writeFile(`${SAVE_DIR}/${key.slice(SAVE_KEY.length)}`, localStorage.getItem(key));
      }
    }
  } catch (error) {
    storageError = error.message;
  }
}

// The files as the tray left them: each one copied, the ones it removed removed.
function mirrorSaves(FS) {
  const names = FS.readdir(SAVE_DIR).filter((n) => n !== "." && n !== "..");
  try {
    for (const name of names) {
      localStorage.setItem(SAVE_KEY + name, FS.readFile(`${SAVE_DIR}/${name}`, { encoding: "utf8" }));
    }
    const stale = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith(SAVE_KEY) && !names.includes(key.slice(SAVE_KEY.length))) stale.push(key);
    }
    for (const key of stale) localStorage.removeItem(key);
  } catch (error) {
    storageError = error.message;
    say(TEXT.keepsNoGame(storageError));
  }
}

// ---- the tray ---------------------------------------------------------------------------------

let tray = null; // { step, setButton, labels } once MicroPython runs webtray.WebTray
let savesSeen = 0;
let FS = null;
let labelsShown = "";
let langShown = ""; // the language of the labels shown: the state says when it changes

// The status line once the tray runs: what keeps it from saving, the seed, what needs https.
function greeting() {
  return [storageError === null ? "" : TEXT.keepsNoGame(storageError),
    seed === null ? "" : TEXT.seeded(seed),
    window.isSecureContext ? "" : TEXT.plainHttp].filter(Boolean).join(" · ");
}

// The buttons and the page's texts in the language the tray speaks (its setup's LANGUAGE row).
function relabel() {
  const labels = tray.labels();
  if (labels === labelsShown) return;
  const greeted = labelsShown !== "" && statusLine.textContent === greeting();
  labelsShown = labels;
  const [lang, ...texts] = labels.split("|");
  langShown = lang;
  document.documentElement.lang = lang;
  NAMES.forEach((name, i) => { document.getElementById(name).textContent = texts[i]; });
  const [soundOff, soundOn, legend, seeded, plainHttp, keepsNoGame, stopped, undo, ...help] =
    texts.slice(NAMES.length);
  NAMES.forEach((name, i) => {
    document.getElementById(name).setAttribute("aria-label", help[i]);
  });
  const filled = (text) => (value) => text.replace("%s", value);
  Object.assign(TEXT, { soundOff, soundOn, plainHttp, seeded: filled(seeded),
    keepsNoGame: filled(keepsNoGame), stopped: filled(stopped) });
  document.getElementById("legend").textContent = legend + " · " + undo;
  showSound();
  if (greeted) say(greeting());
}

function apply(state) {
  if (!state) return;
  const [hz, flags, saves, lang, hex] = state.split(" ");
  paint(Number(flags), hex);
  if (tray && lang !== langShown) relabel();
  if (Number(hz) !== sound.hz) tone(Number(hz));
  if (Number(saves) !== savesSeen) {
    savesSeen = Number(saves);
    mirrorSaves(FS);
  }
}

function guarded(fn) {
  try {
    apply(fn());
  } catch (error) {
    stats.error = error.message;
    say(TEXT.stopped(error.message));
    tray = null;
  }
}

const down = new Set();
// at: the input event's timeStamp (when the browser took the touch, click or key).
function setButton(name, isDown, at) {
  if (!tray || down.has(name) === isDown) return;
  if (isDown) {
    down.add(name);
    stats.pressAt = at ?? performance.now();
    stats.downAt = performance.now(); // when the tray saw it go down
  } else {
    down.delete(name);
  }
  wakeAudio();
  document.getElementById(name).classList.toggle("down", isDown);
  guarded(() => tray.setButton(name, isDown, ticks()));
}

for (const name of NAMES) {
  const el = document.getElementById(name);
  el.addEventListener("pointerdown", (e) => {
    e.preventDefault();
    el.setPointerCapture(e.pointerId);
    setButton(name, true, e.timeStamp);
  });
  for (const type of ["pointerup", "pointercancel"]) {
    el.addEventListener(type, (e) => {
      e.preventDefault();
      setButton(name, false);
    });
  }
  el.addEventListener("contextmenu", (e) => e.preventDefault()); // a long touch is OK held
}

document.addEventListener("keydown", (e) => {
  const name = KEYS[e.code];
  if (!name || e.repeat || e.ctrlKey || e.metaKey || e.altKey) return;
  e.preventDefault();
  setButton(name, true, e.timeStamp);
  if (e.code === "KeyO" && e.shiftKey) setTimeout(() => setButton(name, false), LONG_MS);
});
document.addEventListener("keyup", (e) => {
  const name = KEYS[e.code];
  if (!name || (e.code === "KeyO" && e.shiftKey)) return;
  e.preventDefault();
  setButton(name, false);
});
window.addEventListener("blur", () => {
  for (const name of [...down]) setButton(name, false);
});

async function start() {
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("sw.js").catch((error) => console.warn("no offline copy:", error));
  }
  const sources = await (await fetch("tray-py.json")).json();
  const mp = await loadMicroPython({ heapsize: 2 * 1024 * 1024, stdout: (line) => console.log(line),
    stderr: (line) => console.error(line) });
  FS = mp.FS;
  for (const [path, text] of Object.entries(sources)) {
    FS.mkdirTree(`/lib/${path}`.replace(/\/[^/]+$/, ""));
    FS.writeFile(`/lib/${path}`, text);
  }
  restoreSaves(FS);
  mp.runPython("import sys\nsys.path.insert(0, '/lib')\nfrom webtray import WebTray");
  const WebTray = mp.globals.get("WebTray");
  const py = WebTray(seed, height, ticks());
  const step = py.step;
  const pySet = py.set_button;
  tray = { step, setButton: pySet, labels: py.labels };
  guarded(() => py.state());
  setInterval(() => {
    if (tray) guarded(() => tray.step(ticks()));
  }, POLL_MS);
  say(greeting());
}

start().catch((error) => {
  stats.error = error.message;
  say(TEXT.cannotStart(error.message));
});
