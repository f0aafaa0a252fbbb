// @ts-check
/**
 * Sounds made in the browser with Web Audio: no files to download. Each cue is a few
 * oscillators or a burst of filtered noise shaped by a gain envelope. Muting is remembered
 * in localStorage. The audio context starts on the first user gesture (browsers refuse to
 * play before one); cues asked for earlier are simply not heard.
 */

const MUTE_KEY = "taktik.muted";

/** @typedef {"dice"|"hit"|"miss"|"destroyed"|"turn"} Cue */

/**
 * Every cue asked for, muted or not, newest last (tests read it; capped).
 * @type {Array<{cue: Cue, heard: boolean}>}
 */
export const played = [];

/** Which cue an engine event calls for, if any. @type {Record<string, Cue>} */
export const EVENT_CUES = {
  dice_rolled: "dice",
  dice_rerolled: "dice",
  attack_hit: "hit",
  attack_missed: "miss",
  unit_destroyed: "destroyed",
};

export class Sound {
  constructor() {
    /** @type {AudioContext|null} */
    this.ctx = null;
    this.muted = readMuted();
    const wake = () => {
      this.context()?.resume().catch(() => undefined);
    };
    window.addEventListener("pointerdown", wake, { once: true, capture: true });
    window.addEventListener("keydown", wake, { once: true, capture: true });
  }

  /** The audio context, made on first use; null where Web Audio is missing. */
  context() {
    if (!this.ctx) {
      const Ctor = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
      if (!Ctor) return null;
      this.ctx = /** @type {AudioContext} */ (new Ctor());
    }
    return this.ctx;
  }

  /** @param {boolean} muted */
  setMuted(muted) {
    this.muted = muted;
    try {
      localStorage.setItem(MUTE_KEY, muted ? "1" : "0");
    } catch {
      // storage refused (private mode): the choice lasts for this page only
    }
  }

  /**
   * Play a cue (unless muted). The context is made by the first gesture, not here: one made
   * before it could not play anyway, and making it costs a cold page up to 200 ms.
   * @param {Cue} cue
   */
  play(cue) {
    const ctx = this.muted ? null : this.ctx;
    const heard = !!ctx && ctx.state === "running";
    played.push({ cue, heard });
    if (played.length > 200) played.shift();
    if (!ctx || !heard) return;
    const t = ctx.currentTime + 0.01;
    const out = ctx.createGain();
    out.gain.value = 0.35;
    out.connect(ctx.destination);
    switch (cue) {
      case "dice":
        for (let i = 0; i < 5; i++) noise(ctx, out, t + i * 0.055 + (i % 2) * 0.012, 0.04, 2400 + i * 300, 0.6);
        break;
      case "hit":
        tone(ctx, out, t, 0.22, 140, 55, "square", 0.5);
        noise(ctx, out, t, 0.12, 900, 0.7);
        break;
      case "miss":
        noise(ctx, out, t, 0.28, 3200, 0.25);
        tone(ctx, out, t, 0.18, 520, 380, "sine", 0.15);
        break;
      case "destroyed":
        noise(ctx, out, t, 0.7, 500, 0.9);
        tone(ctx, out, t, 0.6, 90, 35, "sawtooth", 0.35);
        break;
      case "turn":
        tone(ctx, out, t, 0.18, 660, 660, "sine", 0.35);
        tone(ctx, out, t + 0.16, 0.32, 990, 990, "sine", 0.3);
        break;
    }
  }
}

/** Whether the player muted the game earlier. */
function readMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * A tone gliding from `f0` to `f1` Hz with a short attack and exponential release.
 * @param {AudioContext} ctx @param {AudioNode} out @param {number} at @param {number} length
 * @param {number} f0 @param {number} f1 @param {OscillatorType} type @param {number} level
 */
function tone(ctx, out, at, length, f0, f1, type, level) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(f0, at);
  osc.frequency.exponentialRampToValueAtTime(Math.max(1, f1), at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(level, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(out);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/**
 * A burst of band-passed white noise (rattles, thuds, whooshes).
 * @param {AudioContext} ctx @param {AudioNode} out @param {number} at @param {number} length
 * @param {number} freq @param {number} level
 */
function noise(ctx, out, at, length, freq, level) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  let seed = 12345; // a fixed little generator: the same rattle every time, no Math.random needed
  for (let i = 0; i < frames; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    data[i] = (seed / 0xffffffff) * 2 - 1;
  }
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(level, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  src.connect(filter).connect(gain).connect(out);
  src.start(at);
}
