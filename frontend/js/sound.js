// Sounds made on the fly with WebAudio (no downloaded assets) and the spoken countdown.
import { speechLang, t } from "./i18n.js";

let ctx = null;

function audio() {
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  return ctx;
}

/** Browsers only allow sound after a user gesture: call this from the first click. */
export function unlockAudio() {
  audio();
}

/** A short wooden "tock": a filtered noise burst over a low thump. */
export function playStoneSound() {
  const ac = audio();
  if (!ac) return;
  const now = ac.currentTime;
  const len = Math.floor(ac.sampleRate * 0.08);
  const buffer = ac.createBuffer(1, len, ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < len; i++) data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / len, 4);
  const noise = ac.createBufferSource();
  noise.buffer = buffer;
  const band = ac.createBiquadFilter();
  band.type = "bandpass";
  band.frequency.value = 1800;
  band.Q.value = 1.2;
  const noiseGain = ac.createGain();
  noiseGain.gain.value = 0.55;
  noise.connect(band).connect(noiseGain).connect(ac.destination);
  const osc = ac.createOscillator();
  osc.type = "sine";
  osc.frequency.setValueAtTime(220, now);
  osc.frequency.exponentialRampToValueAtTime(90, now + 0.09);
  const oscGain = ac.createGain();
  oscGain.gain.setValueAtTime(0.45, now);
  oscGain.gain.exponentialRampToValueAtTime(0.001, now + 0.12);
  osc.connect(oscGain).connect(ac.destination);
  noise.start(now);
  osc.start(now);
  osc.stop(now + 0.13);
}

export function beep(frequency = 880, duration = 0.09) {
  const ac = audio();
  if (!ac) return;
  const now = ac.currentTime;
  const osc = ac.createOscillator();
  osc.frequency.value = frequency;
  const gain = ac.createGain();
  gain.gain.setValueAtTime(0.0001, now);
  gain.gain.exponentialRampToValueAtTime(0.3, now + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, now + duration);
  osc.connect(gain).connect(ac.destination);
  osc.start(now);
  osc.stop(now + duration + 0.02);
}

export function speak(text) {
  if (!("speechSynthesis" in window)) return false;
  const u = new SpeechSynthesisUtterance(String(text));
  u.lang = speechLang();
  u.rate = 1.2;
  window.speechSynthesis.cancel();
  window.speechSynthesis.speak(u);
  return true;
}

/** The word a timekeeper says for n (1..10) in the reader's language: "じゅう", "열", "十", "mười"... */
export function countdownWord(n) {
  const words = t("countdown.words").split(",");
  return words[n - 1] ? words[n - 1].trim() : String(n);
}

/** Count the last ten seconds once per whole second: mode "voice", "beep" or "off". */
export class Countdown {
  constructor() {
    this.lastSaid = null;
  }

  update(seconds, mode) {
    if (mode === "off" || !Number.isFinite(seconds) || seconds > 10 || seconds <= 0) {
      if (seconds > 10) this.lastSaid = null;
      return;
    }
    const whole = Math.ceil(seconds);
    if (whole === this.lastSaid) return;
    this.lastSaid = whole;
    if (mode === "voice" && speak(countdownWord(whole))) return;
    beep(whole <= 3 ? 1320 : 880);
  }

  reset() {
    this.lastSaid = null;
  }
}
