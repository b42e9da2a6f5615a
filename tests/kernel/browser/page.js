// The video-call page of the kernel tier's browser group: it fetches a
// command from /next, runs it with the browser's own camera API, and posts
// what came of it to /result (pageserver.py; camtest.py says what to run).
// Nothing is checked here: the page reports, the driver judges.
"use strict";

const video = document.getElementById("video");
const canvas = document.getElementById("canvas");
const ctx = canvas.getContext("2d", { willReadFrequently: true });
let stream = null;
let frames = 0; // frames the <video> presented since the last open
let openedAt = 0; // performance.now() at the last open
let trackEvents = []; // the open track's mute, unmute and ended events

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Counts presented frames; requestVideoFrameCallback where the browser has
// it, else a new currentTime is taken as a new frame.  One counter an open:
// the last open's counter stops those before it.
let counter = 0;
function countFrames() {
  const mine = ++counter;
  const counting = () => mine === counter && video.srcObject;
  if (video.requestVideoFrameCallback) {
    const tick = () => {
      if (!counting()) return;
      frames++;
      video.requestVideoFrameCallback(tick);
    };
    video.requestVideoFrameCallback(tick);
    return;
  }
  let last = -1;
  const poll = () => {
    if (!counting()) return;
    if (video.currentTime !== last) {
      last = video.currentTime;
      frames++;
    }
    setTimeout(poll, 20);
  };
  poll();
}

async function waitFrameAfter(count, timeoutMs) {
  const end = performance.now() + timeoutMs;
  while (frames <= count) {
    if (performance.now() > end)
      throw new Error(`no new frame within ${timeoutMs} ms (${frames} so far)`);
    await sleep(20);
  }
}

function stop() {
  if (stream) stream.getTracks().forEach((t) => t.stop());
  stream = null;
  video.srcObject = null;
}

// The mean colour of the 8x8 box at (x, y).
function meanAt(x, y) {
  const d = ctx.getImageData(x - 4, y - 4, 8, 8).data;
  const sum = [0, 0, 0];
  for (let i = 0; i < d.length; i += 4)
    for (let c = 0; c < 3; c++) sum[c] += d[i + c];
  return sum.map((s) => Math.round(s / (d.length / 4)));
}

// A checksum of a region of a 2D context: equal pixels, equal numbers.
function checksum(c, x, y, w, h) {
  const d = c.getImageData(x, y, w, h).data;
  let s = 0;
  for (let i = 0; i < d.length; i++) s = (s * 31 + d[i]) >>> 0;
  return s;
}

const ops = {
  async hello() {
    return {
      secure: window.isSecureContext,
      media: !!(navigator.mediaDevices && navigator.mediaDevices.getUserMedia),
      agent: navigator.userAgent,
    };
  },

  async devices() {
    const all = await navigator.mediaDevices.enumerateDevices();
    return {
      devices: all
        .filter((d) => d.kind === "videoinput")
        .map((d) => ({ label: d.label, id: d.deviceId })),
    };
  },

  async open(c) {
    stop();
    const t0 = performance.now();
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { width: { exact: c.width }, height: { exact: c.height } },
    });
    const opened = performance.now();
    openedAt = opened;
    trackEvents = [];
    const t = stream.getVideoTracks()[0];
    for (const type of ["mute", "unmute", "ended"])
      t.addEventListener(type, () =>
        trackEvents.push({ type, ms: Math.round(performance.now() - openedAt) }),
      );
    frames = 0;
    video.srcObject = stream;
    countFrames();
    await video.play();
    await waitFrameAfter(0, c.timeout_ms);
    const track = stream.getVideoTracks()[0];
    return {
      label: track.label,
      settings: track.getSettings(),
      open_ms: Math.round(opened - t0),
      first_frame_ms: Math.round(performance.now() - t0),
    };
  },

  async sample(c) {
    if (!stream) throw new Error("no camera open");
    await waitFrameAfter(frames, c.timeout_ms);
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    ctx.drawImage(video, 0, 0);
    return {
      width: canvas.width,
      height: canvas.height,
      colours: c.points.map(([x, y]) => meanAt(x, y)),
    };
  },

  // How often the region's picture changed, looked at on every frame the
  // <video> presented (a browser may present one camera frame more than
  // once): for duration_ms, then until it changed min_changes times or
  // max_ms went by.
  async motion(c) {
    if (!stream) throw new Error("no camera open");
    const [x, y, w, h] = c.region;
    const small = document.createElement("canvas");
    small.width = w;
    small.height = h;
    const sctx = small.getContext("2d", { willReadFrequently: true });
    let last = null;
    let changes = 0;
    let looks = 0;
    const t0 = performance.now();
    for (;;) {
      const ms = performance.now() - t0;
      if (ms >= c.max_ms || (ms >= c.duration_ms && changes >= c.min_changes)) break;
      await waitFrameAfter(frames, c.timeout_ms);
      sctx.drawImage(video, x, y, w, h, 0, 0, w, h);
      const sum = checksum(sctx, 0, 0, w, h);
      looks++;
      if (last !== null && sum !== last) changes++;
      last = sum;
    }
    return { changes, looks, ms: Math.round(performance.now() - t0) };
  },

  // The open track's state, and the frames presented so far.
  async track() {
    if (!stream) throw new Error("no camera open");
    const t = stream.getVideoTracks()[0];
    return { readyState: t.readyState, muted: t.muted, frames };
  },

  // The open track's state every step_ms for duration_ms, and the events
  // it fired meanwhile (ms: since the open).
  async watch(c) {
    if (!stream) throw new Error("no camera open");
    const t = stream.getVideoTracks()[0];
    const first = trackEvents.length;
    const samples = [];
    const t0 = performance.now();
    for (;;) {
      const ms = Math.round(performance.now() - t0);
      samples.push({ ms, readyState: t.readyState, muted: t.muted, frames });
      if (ms >= c.duration_ms) break;
      await sleep(c.step_ms);
    }
    return { samples, events: trackEvents.slice(first) };
  },

  async close() {
    stop();
    return {};
  },
};

async function run(cmd) {
  try {
    return await ops[cmd.op](cmd);
  } catch (e) {
    return { error: `${e.name}: ${e.message}` };
  }
}

async function loop() {
  for (;;) {
    let cmd;
    try {
      cmd = await (await fetch("/next")).json();
    } catch (e) {
      await sleep(500); // the server is gone or restarting
      continue;
    }
    if (cmd.op === "none") continue;
    const res = await run(cmd);
    res.id = cmd.id;
    await fetch("/result", { method: "POST", body: JSON.stringify(res) });
  }
}

loop();
