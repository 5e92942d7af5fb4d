import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// The HTML report: one self-contained page (works from file://, no server, no network) beside
/// results.json. The results are embedded as JSON and every name or message reaches the page
/// through `textContent`, never as markup. Passing frames are shown from `Baselines/` by relative
/// path, so a passing run's report stays small; failing frames have their own copies.
public enum HTMLReport {
    public static func write(_ r: SuiteResult, to folder: String, baselines: String = "Baselines") throws {
        try FileOutput.write(page(r, baselineLink: relativePath(from: folder, to: baselines)), to: folder + "/index.html")
    }

    /// A relative path from one folder to another (both relative to the working directory or absolute).
    static func relativePath(from: String, to: String) -> String {
        let cwd = FileManager.default.currentDirectoryPath
        func parts(_ p: String) -> [String] {
            let absolute = p.hasPrefix("/") ? p : cwd + "/" + p
            var out: [String] = []
            for c in absolute.split(separator: "/") where c != "." {
                if c == ".." { if !out.isEmpty { out.removeLast() } } else { out.append(String(c)) }
            }
            return out
        }
        let a = parts(from), b = parts(to)
        var common = 0
        while common < a.count && common < b.count && a[common] == b[common] { common += 1 }
        let up = Array(repeating: "..", count: a.count - common)
        return (up + b[common...]).joined(separator: "/")
    }

    static func page(_ r: SuiteResult, baselineLink: String) -> String {
        let data = JSON.object([("baselines", .string(baselineLink)), ("results", ResultJSON.encode(r))]).rendered(pretty: false)
        return template.replacingOccurrences(of: "__DATA__", with: data)
            .replacingOccurrences(of: "__TITLE__", with: r.exitCode == 0 ? "passed" : "failed")
    }

    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>NavReel report: __TITLE__</title>
<style>
:root { --fail: #d70015; --pass: #248a3d; --warn: #b25000; --line: #d1d1d6; --bg: #f2f2f7; }
* { box-sizing: border-box; }
body { font: 14px -apple-system, system-ui, "Inter", sans-serif; margin: 0; color: #1c1c1e; background: var(--bg); }
header { position: sticky; top: 0; z-index: 5; background: #fff; border-bottom: 1px solid var(--line); padding: 12px 24px; display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 18px; margin: 0; }
.verdict.passed { color: var(--pass); } .verdict.failed { color: var(--fail); }
.counts span { margin-right: 12px; } .keys { color: #6e6e73; font-size: 12px; }
main { padding: 16px 24px 64px; }
section.run { background: #fff; border: 1px solid var(--line); border-radius: 10px; margin: 16px 0; padding: 12px 16px; }
section.run h2 { font-size: 16px; margin: 0 0 8px; } section.run h2 .bad { color: var(--fail); }
.filmstrip { display: flex; gap: 2px; overflow-x: auto; padding: 4px 0 8px; }
.filmstrip button { border: 0; padding: 0; background: none; cursor: pointer; position: relative; flex: none; }
.filmstrip img { width: 48px; display: block; border-bottom: 4px solid var(--pass); }
.filmstrip button.bad img { border-bottom-color: var(--fail); } .filmstrip button.current { outline: 2px solid #007aff; }
.player { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.player .stage img { max-width: 420px; border: 1px solid var(--line); image-rendering: pixelated; background: #fff; }
.controls button, .controls select { margin: 0 4px 4px 0; }
.controls input[type=range] { width: 260px; vertical-align: middle; }
article.failure { border-top: 1px solid var(--line); margin-top: 12px; padding-top: 12px; }
article.failure.focused { box-shadow: 0 0 0 3px #007aff55; }
article h3 { font-size: 14px; margin: 0 0 6px; }
.drift { color: var(--warn); font-weight: 600; }
.events { margin: 0.3em 0; padding-left: 1.2em; color: var(--muted, #555); }
.filmstrip button.event { border-left: 3px solid #3478f6; }
.views { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-start; }
figure { margin: 0; } figcaption { font-size: 12px; color: #6e6e73; }
.pic { position: relative; display: inline-block; line-height: 0; }
.pic img { max-width: 320px; border: 1px solid var(--line); image-rendering: pixelated; }
.box { position: absolute; border: 2px solid var(--fail); pointer-events: none; }
.box.ignored { border: 2px dashed #8e8e93; }
.box.ignored span { background: #8e8e93; }
.box span { position: absolute; top: -16px; left: -2px; font: 11px system-ui; line-height: 14px; background: var(--fail); color: #fff; padding: 0 3px; white-space: nowrap; }
.slider .pic .top { position: absolute; left: 0; top: 0; overflow: hidden; width: 50%; height: 100%; }
.slider .pic .top img { max-width: none; }
.modes button.on { background: #007aff; color: #fff; border-color: #007aff; }
table.rules { border-collapse: collapse; font-size: 12px; } table.rules td { padding: 1px 8px 1px 0; }
#errors { color: var(--fail); white-space: pre-wrap; }
</style>
</head>
<body>
<header>
  <h1>NavReel <span class="verdict" id="verdict"></span></h1>
  <div class="counts" id="counts"></div>
  <div class="keys">n / p: next / previous failure · space: play / pause · ← →: step</div>
</header>
<main>
  <div id="errors"></div>
  <div id="runs"></div>
</main>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
window.addEventListener("error", e => { document.getElementById("errors").textContent += "script error: " + e.message + "\n"; });
const data = JSON.parse(document.getElementById("data").textContent);
const results = data.results;
const el = (tag, props = {}, ...children) => {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) { if (k === "class") n.className = v; else if (k === "text") n.textContent = v; else n.setAttribute(k, v); }
  for (const c of children) if (c) n.append(c);
  return n;
};
const pad = k => String(k).padStart(4, "0");
const baselinePath = (run, k) => data.baselines + "/" + run.scenario + "/" + run.device + "/" + pad(k) + ".png";
const side = (name, file, time) => file ? name + " " + file + (time === undefined ? "" : " @ " + time.toFixed(3) + " s") : "";
const when = f => f.path ? [f.path, side("actual", f.actualFile, f.actualTime), side("expected", f.expectedFile, f.expectedTime)].filter(Boolean).join(" · ") : "t = " + f.time.toFixed(3) + " s";
const isBad = f => f.status === "failed" || f.status === "missing" || f.status === "error";
const frameImage = (run, f, view) => {
  if (view === "diff") return f.diff || null;
  if (view === "actual" && f.actual) return f.actual;
  if (f.expected) return f.expected;
  return baselinePath(run, f.index);
};

const s = results.summary;
document.getElementById("verdict").textContent = s.verdict;
document.getElementById("verdict").classList.add(s.verdict === "passed" ? "passed" : "failed");
const counts = document.getElementById("counts");
for (const k of ["frames", "failed", "missing", "error", "added", "changed"]) {
  if (k === "frames" || s[k]) counts.append(el("span", { text: s[k] + " " + (k === "frames" ? "frames" : k) }));
}
counts.append(el("span", { text: (s.frames - s.failed - s.missing - s.error - (s.skipped || 0)) + " passed" }));
if (s.skipped) counts.append(el("span", { text: s.skipped + " not compared" }));
for (const e of results.scenarioErrors) document.getElementById("errors").textContent += e + "\n";

const failures = [];
const players = [];
for (const run of results.runs) {
  const bad = run.frames.filter(isBad);
  const section = el("section", { class: "run", "data-run": run.scenario + "/" + run.device });
  const title = el("h2", {}, el("span", { text: run.scenario + " / " + run.device + " " }));
  title.append(el("span", { class: bad.length ? "bad" : "", text: bad.length ? bad.length + " of " + run.frames.length + " frames failed" : run.frames.length + " frames passed" }));
  section.append(title, el("p", { class: "file", text: run.file }));
  const events = run.frames.filter(f => f.event);
  if (events.length) section.append(el("ul", { class: "events" }, ...events.map(f => el("li", { text: "frame " + f.index + " · " + when(f) + " · " + f.event }))));

  // Filmstrip and player.
  const strip = el("div", { class: "filmstrip" });
  const stageImg = el("img", { alt: "frame" });
  const label = el("span");
  const scrub = el("input", { type: "range", min: "0", max: String(run.frames.length - 1), value: "0" });
  const viewSel = el("select", {}, el("option", { text: "expected" }), el("option", { text: "actual" }), el("option", { text: "diff" }));
  const speed = el("select", {}, ...["0.25", "0.5", "1", "2"].map(v => el("option", { text: v + "×", value: v })));
  speed.value = "1";
  const player = { run, index: 0, timer: null };
  const show = k => {
    player.index = Math.max(0, Math.min(run.frames.length - 1, k));
    const f = run.frames[player.index];
    const src = frameImage(run, f, viewSel.value) || frameImage(run, f, "expected");
    stageImg.src = src;
    scrub.value = String(player.index);
    label.textContent = "frame " + f.index + " · " + when(f) + " · " + f.status + (f.event ? " · " + f.event : "");
    strip.querySelectorAll("button").forEach((b, i) => b.classList.toggle("current", i === player.index));
  };
  const play = () => {
    if (player.timer) { clearInterval(player.timer); player.timer = null; playBtn.textContent = "play"; return; }
    playBtn.textContent = "pause";
    player.timer = setInterval(() => show((player.index + 1) % run.frames.length), 1000 / 30 / Number(speed.value));
  };
  const playBtn = el("button", { text: "play" });
  playBtn.addEventListener("click", play);
  const prev = el("button", { text: "◀ step" }); prev.addEventListener("click", () => show(player.index - 1));
  const next = el("button", { text: "step ▶" }); next.addEventListener("click", () => show(player.index + 1));
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  viewSel.addEventListener("change", () => show(player.index));
  run.frames.forEach((f, i) => {
    const b = el("button", { class: (isBad(f) ? "bad" : "") + (f.event ? " event" : ""), title: "frame " + f.index + " (" + f.status + ")" + (f.event ? ": " + f.event : "") },
      el("img", { src: frameImage(run, f, isBad(f) ? "actual" : "expected"), alt: "frame " + f.index, loading: "lazy" }));
    b.addEventListener("click", () => show(i));
    strip.append(b);
  });
  const controls = el("div", { class: "controls" }, playBtn, prev, next, scrub, el("label", { text: " view " }), viewSel, el("label", { text: " speed " }), speed);
  section.append(strip, el("div", { class: "player" }, el("div", { class: "stage" }, stageImg), el("div", {}, controls, label)));
  players.push({ show, play, player });
  show(bad.length ? run.frames.indexOf(bad[0]) : 0);

  for (const f of bad) section.append(failureCard(run, f));
  document.getElementById("runs").append(section);
}

function boxes(pic, f, run) {
  const c = f.comparison; if (!c) return;
  const img = pic.querySelector("img");
  const place = () => {
    pic.querySelectorAll(".box").forEach(b => b.remove());
    const k = img.clientWidth / (img.naturalWidth || 1);
    // Ignored rectangles of a compare run: outlined, their pixels still shown.
    for (const r of run.ignored || []) {
      const b = el("div", { class: "box ignored" }, el("span", { text: "ignored" }));
      Object.assign(b.style, { left: r.x * k + "px", top: r.y * k + "px", width: Math.max(2, r.width * k) + "px", height: Math.max(2, r.height * k) + "px" });
      pic.append(b);
    }
    for (const e of c.elements || []) {
      const b = el("div", { class: "box" }, el("span", { text: e.name + " · " + e.pixels }));
      Object.assign(b.style, { left: e.box.x * k + "px", top: e.box.y * k + "px", width: Math.max(2, e.box.width * k) + "px", height: Math.max(2, e.box.height * k) + "px" });
      pic.append(b);
    }
  };
  if (img.complete) place(); else img.addEventListener("load", place);
}

function failureCard(run, f) {
  const card = el("article", { class: "failure", tabindex: "-1" });
  failures.push(card);
  card.append(el("h3", { text: run.scenario + " / " + run.device + " · frame " + f.index + " · " + when(f) + " · " + f.status }));
  if (f.message) card.append(el("p", { text: f.message }));
  if (f.event) card.append(el("p", { text: "event: " + f.event }));
  for (const d of f.drift || []) card.append(el("p", { class: "drift", text: "environment drift: " + d + " — this may not be a regression" }));
  const c = f.comparison;
  if (c) {
    const t = el("table", { class: "rules" });
    const rows = [["mismatched", c.mismatched + (c.allowedMismatches ? " (budget " + c.allowedMismatches + ")" : "")]]
      .concat(Object.entries(c.forgiven).map(([k, v]) => ["forgiven: " + k, v]))
      .concat([["largest channel difference", c.maxChannelDelta]]);
    if (c.sizeMismatch) rows.unshift(["size", "expected " + c.sizeMismatch.expected.width + "×" + c.sizeMismatch.expected.height + ", actual " + c.sizeMismatch.actual.width + "×" + c.sizeMismatch.actual.height]);
    for (const [k, v] of rows) t.append(el("tr", {}, el("td", { text: k }), el("td", { text: String(v) })));
    card.append(t);
    if ((run.ignored || []).length) card.append(el("p", { text: "ignored (not counted, still shown): " + run.ignored.map(r => r.x + "," + r.y + " " + r.width + "×" + r.height).join("; ") }));
    if ((c.elements || []).length) card.append(el("p", { text: "elements: " + c.elements.map(e => e.name + " " + e.pixels + " px at " + e.box.x + "," + e.box.y + " " + e.box.width + "×" + e.box.height).join("; ") }));
  }
  const modes = el("div", { class: "modes" });
  const views = el("div", { class: "views" });
  const pic = (src, caption, withBoxes) => {
    const p = el("div", { class: "pic" }, el("img", { src, alt: caption }));
    if (withBoxes) boxes(p, f, run);
    return el("figure", {}, el("figcaption", { text: caption }), p);
  };
  const modeViews = {
    "side by side": () => [f.expected && pic(f.expected, "expected"), f.actual && pic(f.actual, "actual", true), f.diff && pic(f.diff, "diff", true)].filter(Boolean),
    "slider": () => {
      if (!f.expected || !f.actual) return [el("p", { text: "needs both images" })];
      const base = el("img", { src: f.actual, alt: "actual" });
      const top = el("div", { class: "top" }, el("img", { src: f.expected, alt: "expected" }));
      const p = el("div", { class: "pic" }, base, top);
      const r = el("input", { type: "range", min: "0", max: "100", value: "50" });
      const sync = () => { top.style.width = r.value + "%"; top.querySelector("img").style.width = base.clientWidth + "px"; };
      r.addEventListener("input", sync); base.addEventListener("load", sync);
      return [el("figure", { class: "slider" }, el("figcaption", { text: "expected ← → actual" }), p, el("div", {}, r))];
    },
    "onion skin": () => {
      if (!f.expected || !f.actual) return [el("p", { text: "needs both images" })];
      const over = el("img", { src: f.actual, alt: "actual" });
      Object.assign(over.style, { position: "absolute", left: "0", top: "0", opacity: "0.5" });
      const p = el("div", { class: "pic" }, el("img", { src: f.expected, alt: "expected" }), over);
      const r = el("input", { type: "range", min: "0", max: "100", value: "50" });
      r.addEventListener("input", () => { over.style.opacity = String(r.value / 100); });
      return [el("figure", {}, el("figcaption", { text: "actual over expected" }), p, el("div", {}, r))];
    },
    "toggle": () => {
      if (!f.expected || !f.actual) return [el("p", { text: "needs both images" })];
      const img = el("img", { src: f.expected, alt: "expected" });
      const cap = el("figcaption", { text: "expected (click to flip)" });
      img.addEventListener("click", () => { const e = img.alt === "expected"; img.src = e ? f.actual : f.expected; img.alt = e ? "actual" : "expected"; cap.textContent = img.alt + " (click to flip)"; });
      return [el("figure", {}, cap, el("div", { class: "pic" }, img))];
    },
  };
  const select = name => {
    views.replaceChildren(...modeViews[name]());
    modes.querySelectorAll("button").forEach(b => b.classList.toggle("on", b.textContent === name));
  };
  for (const name of Object.keys(modeViews)) { const b = el("button", { text: name }); b.addEventListener("click", () => select(name)); modes.append(b); }
  card.append(modes, views);
  select("side by side");
  return card;
}

let focused = -1;
const focusFailure = k => {
  if (!failures.length) return;
  focused = (k + failures.length) % failures.length;
  failures.forEach((c, i) => c.classList.toggle("focused", i === focused));
  failures[focused].scrollIntoView({ block: "center" });
  failures[focused].focus({ preventScroll: true });
};
document.addEventListener("keydown", e => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const p = players[0];
  if (e.key === "n" || e.key === "j") focusFailure(focused + 1);
  else if (e.key === "p" || e.key === "k") focusFailure(focused - 1);
  else if (e.key === " " && p) { e.preventDefault(); p.play(); }
  else if (e.key === "ArrowRight" && p) p.show(p.player.index + 1);
  else if (e.key === "ArrowLeft" && p) p.show(p.player.index - 1);
});
document.body.dataset.failures = String(failures.length);
document.body.dataset.ready = "1";
window.addEventListener("load", () => {
  const imgs = [...document.querySelectorAll("article.failure img")];
  document.body.dataset.images = String(imgs.length);
  document.body.dataset.broken = String(imgs.filter(i => i.complete && i.naturalWidth === 0).length);
  document.body.dataset.loaded = "1";
});
</script>
</body>
</html>
"""#
}
