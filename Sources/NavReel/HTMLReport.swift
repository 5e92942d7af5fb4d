import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// The HTML report: one self-contained page (works from file://, no server, no network) beside
/// results.json. The results are embedded as JSON and every name or message reaches the page
/// through `textContent`, never as markup. Everything the page shows lives inside the report
/// folder: failing frames full size, the others as thumbnails (each a rectangle of its job's
/// `ThumbnailSheet`); images a `compare` run links from outside are copied (failing) or shrunk into
/// sheets (passing) into `frames/_linked`. Each failing frame's
/// images are also written as a script (`frames/_inspect`), which a page opened from file:// may
/// load and read pixels from, where reading the PNG files themselves is refused.
public enum HTMLReport {
    /// `encoded`: `ResultJSON.encode(r)` when the caller has it; used when the page shows the
    /// results as they are (no frame linked from outside the folder), saving a second encoding
    /// (a seventh of merging a 790-frame report, issue 17).
    public static func write(_ r: SuiteResult, to folder: String, baselines: String = "Baselines", encoded: JSON? = nil) throws {
        for sub in ["_linked", "_inspect"] { ReportFiles.clearFrames(in: folder + "/frames/" + sub, root: "", sheetDepth: 2) }
        var shown = r
        var changed = false
        var extra: [String: [(String, JSON)]] = [:]
        let project = try? ProjectFile.find()
        var inspected = 0
        for (j, job) in r.jobs.enumerated() {
            var pairs: [(String, JSON)] = []
            if let command = approveCommand(job, report: folder, baselines: r.baselines ?? baselines, jobs: r.jobs, project: project) {
                pairs.append(("approve", .string(command)))
            }
            var inspect: [(String, JSON)] = []
            // Thumbnails of passing linked frames, one sheet per `framesPerSheet` frames as a run's.
            var cells: [ThumbnailSheet.Cell] = []
            for (k, f) in job.frames.enumerated() {
                let bad = shownInFull(f)
                let stem = "frames/_linked/\(j)/" + String(format: "%04d", k)
                var g = f
                for (kind, path) in [("expected", f.expected), ("actual", f.actual), ("diff", f.diff)] {
                    guard let path, path.hasPrefix("/") || path.hasPrefix("../") else { continue }
                    var local: String?
                    if bad, let bytes = try? FileBytes.read(path: folder + "/" + path, limit: PNGLimits.default.maxFileBytes),
                       (try? FileOutput.write(bytes, to: folder + "/" + stem + "." + kind + ".png", durable: false)) != nil {
                        local = stem + "." + kind + ".png"
                    } else if !bad, g.thumbnail == nil, cells.last?.index != k, let decoded = try? PNG.read(path: folder + "/" + path) {
                        cells.append(ThumbnailSheet.Cell(index: k, source: nil, image: ReportFiles.thumbnail(decoded.image)))
                    }
                    switch kind { case "expected": g.expected = local; case "actual": g.actual = local; default: g.diff = local }
                    changed = true
                }
                // The inspector's copies double a failing frame's bytes (half of a 20,000-frame
                // report; an audit, 2026-11-27): every range's first frame has one, and the others
                // until the report holds `inspectLimit`.
                let opensRange = k == 0 || !shownInFull(job.frames[k - 1])
                if bad, let e = g.expected, let a = g.actual, opensRange || inspected < Self.inspectLimit {
                    let script = "frames/_inspect/\(j)/" + String(format: "%04d", k) + ".pixels.js"
                    if writePixels(folder: folder, key: "\(j)/\(k)", expected: e, actual: a, diff: g.diff, to: script) {
                        inspect.append((String(k), .string(script)))
                        inspected += 1
                    }
                }
                shown.jobs[j].frames[k] = g
                if !cells.isEmpty && ((k + 1) % ThumbnailSheet.framesPerSheet == 0 || k == job.frames.count - 1) {
                    let sheet = "frames/_linked/\(j)/" + ThumbnailSheet.name(ofFrame: k)
                    for (i, rect) in ThumbnailSheet.write(cells, to: folder, path: sheet, existing: nil) ?? [:] {
                        shown.jobs[j].frames[i].thumbnail = sheet
                        shown.jobs[j].frames[i].thumbnailRect = rect
                        changed = true
                    }
                    cells = []
                }
            }
            if !inspect.isEmpty { pairs.append(("inspect", .object(inspect))) }
            pairs.append(("key", .int(j)))
            extra[job.scenario + "\u{0}" + job.device] = pairs
        }
        try FileOutput.write(page(shown, extra: extra, encoded: changed ? nil : encoded), to: folder + "/index.html")
    }

    /// Failing frames a report writes the inspector's pixels for, beyond each range's first.
    static let inspectLimit = 1000

    /// The page's copy of a failing frame's images as data URLs in a script, so that the pixel
    /// inspector can read them from a page opened as a file.
    static func writePixels(folder: String, key: String, expected: String, actual: String, diff: String?, to script: String) -> Bool {
        var parts: [(String, JSON)] = []
        for (k, p) in [("expected", expected), ("actual", actual), ("diff", diff)] {
            guard let p else { continue }
            guard let bytes = try? FileBytes.read(path: folder + "/" + p, limit: PNGLimits.default.maxFileBytes) else { return false }
            parts.append((k, .string("data:image/png;base64," + Data(bytes).base64EncodedString())))
        }
        let text = "navreelPixels(" + JSON.string(key).rendered() + "," + JSON.object(parts).rendered(pretty: false) + ");\n"
        return (try? FileOutput.write(text, to: folder + "/" + script, durable: false)) != nil
    }

    /// `navreel approve` for one failing run, exactly: a check's scenario alone (an exact glob
    /// when the plain name would also match another scenario of the report), with `--device` when
    /// the report holds another device of it, and the report and baselines used; a compare's
    /// folder of frames alone (`--run`, which takes the name as it is). With no run (`job` nil),
    /// every failing frame of the report. None for a compare against a video or an animation:
    /// approve writes PNG frames into a folder.
    /// `project`: the navreel.yaml the run found. A folder that is the file's (or its default) is
    /// left out of the command, so that it works from any folder of the project, as approve finds
    /// the same file; paths as given only work from where the run started.
    static func approveCommand(_ job: JobResult?, report: String, baselines: String, jobs: [JobResult], project: ProjectFile? = nil) -> String? {
        guard let first = (job.map { [$0] } ?? jobs).first(where: approvable) else { return nil }
        var words = ["navreel", "approve"]
        if let expected = first.expectedFolder {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: expected, isDirectory: &isDir), isDir.boolValue else { return nil }
            if let job, jobs.contains(where: { $0.scenario != job.scenario }) { words += option("--run", job.scenario) }
            if project?.reportFolder != report { words += ["--report", report] }
        } else {
            if let job {
                words += option("--filter", Glob.selecting(job.scenario, among: jobs.map(\.scenario)))
                if jobs.contains(where: { $0.scenario == job.scenario && $0.device != job.device }) { words += option("--device", job.device) }
            }
            if project?.reportFolder != report { words += ["--report", report] }
            if project?.baselinesFolder != baselines { words += ["--baselines", baselines] }
        }
        return commandLine(words)
    }

    /// A frame the page shows at full size, with its own card: one that did not pass, and one whose
    /// baseline `record` replaced because its pixels changed (the old baseline is its expected image).
    static func shownInFull(_ f: FrameOutcome) -> Bool {
        [.failed, .missing, .error].contains(f.status) || (f.status == .changed && f.expected != nil)
    }

    /// A run with a frame `approve` can promote: failed, missing, or its baseline damaged (an error
    /// with the rendered frame kept), with the actual frame in the report.
    static func approvable(_ job: JobResult) -> Bool {
        guard job.frames.contains(where: { [.failed, .missing, .error].contains($0.status) && $0.actual != nil }) else { return false }
        // A compare against frames NavReel rendered: approve refuses to write over them
        // (`SequenceComparison.refuseRendered`), so no command is offered.
        if job.expectedFolder != nil, let file = job.frames.lazy.compactMap(\.expectedFile).first,
           BaselineFile.text(path: file)?["navreel.renderer"] != nil {
            return false
        }
        return true
    }

    /// An option and its value as command-line words; `--name=value` when the value starts with
    /// "-", which the parser would otherwise take for an option.
    static func option(_ name: String, _ value: String) -> [String] {
        value.hasPrefix("-") ? [name + "=" + value] : [name, value]
    }

    /// A word as a POSIX shell reads it back: as is when it holds only safe characters, else in
    /// single quotes.
    /// A command line from its words, each quoted for a shell where it needs it.
    public static func commandLine(_ words: [String]) -> String { words.map(shellQuoted).joined(separator: " ") }

    public static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
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

    static func page(_ r: SuiteResult, extra: [String: [(String, JSON)]] = [:], encoded: JSON? = nil) -> String {
        var results = encoded ?? ResultJSON.encode(r)
        if case .object(var top) = results, let i = top.firstIndex(where: { $0.0 == "runs" }), case .array(let runs) = top[i].1 {
            top[i].1 = .array(runs.map { run in
                guard case .object(let pairs) = run, case .string(let s)? = pairs.first(where: { $0.0 == "scenario" })?.1,
                      case .string(let d)? = pairs.first(where: { $0.0 == "device" })?.1 else { return run }
                return .object(pairs + (extra[s + "\u{0}" + d] ?? []))
            })
            results = .object(top)
        }
        let data = JSON.object([("results", results)]).rendered(pretty: false)
        // Spliced into the template's two slots. (Replacing them in turn made Foundation search
        // the whole page, data included, for the title's slot: a fifth of merging a 790-frame
        // report; and data holding the slot's name would have been changed.)
        let (head, beforeFallback, afterFallback, tail) = templateParts
        return head + (r.exitCode == 0 ? "passed" : "failed") + beforeFallback + fallback(r) + afterFallback + data + tail
    }

    /// What the page says without JavaScript (a viewer that blocks inline scripts, as Jenkins'
    /// HTML Publisher's default Content-Security-Policy does, showed only the bare header; an
    /// audit, 2026-11-27): the verdict and counts, where the results are, and the runs that did
    /// not pass with a link to the first failing frame's picture. Plain HTML, escaped; at most 200
    /// runs. Not a <noscript>: a policy that blocks scripts leaves scripting "on", so a noscript
    /// never shows there. A one-line script right after it hides it as the page is read, when
    /// scripts run.
    static func fallback(_ r: SuiteResult) -> String {
        func h(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        func link(_ path: String) -> String { path.split(separator: "/").map { String($0).addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? String($0) }.joined(separator: "/") }
        let counts = [("passed", r.count(.passed)), ("failed", r.count(.failed)), ("missing", r.count(.missing)),
                      ("error", r.count(.error)), ("added", r.count(.added)), ("changed", r.count(.changed))]
            .filter { $0.1 > 0 }.map { "\($0.1) \($0.0)" }.joined(separator: ", ")
        var out = "<div id=\"fallback\" class=\"fallback\"><p>This page draws its pictures and controls with JavaScript, which this viewer does not run. "
            + "Verdict: <strong>\(r.exitCode == 0 ? "passed" : "failed")</strong>; \(r.frameCount) \(r.frameCount == 1 ? "frame" : "frames")"
            + (counts.isEmpty ? "" : ": \(h(counts))")
            + (r.scenarioErrors.isEmpty ? "" : "; \(r.scenarioErrors.count) scenario \(r.scenarioErrors.count == 1 ? "error" : "errors")")
            + ". Everything is in <a href=\"results.json\">results.json</a>.</p>"
        for note in r.notes.prefix(20) { out += "<p>\(h(note))</p>" }
        let bad = r.jobs.filter { j in j.frames.contains { [.failed, .missing, .error].contains($0.status) } }
        if !bad.isEmpty {
            out += "<ul>"
            for j in bad.prefix(200) {
                let failing = j.frames.filter { [.failed, .missing, .error].contains($0.status) }
                let first = failing[0]
                let picture = first.diff ?? first.actual
                out += "<li>\(h(j.scenario)) / \(h(j.device)): \(failing.count) of \(j.frames.count) frames did not pass, first frame \(first.index)"
                    + (picture.map { " (<a href=\"\(h(link($0)))\">picture</a>)" } ?? "") + "</li>"
            }
            if bad.count > 200 { out += "<li>and \(bad.count - 200) more runs</li>" }
            out += "</ul>"
        }
        for e in r.scenarioErrors.prefix(50) { out += "<pre>\(h(e))</pre>" }
        return out + "</div><script>document.getElementById(\"fallback\").hidden = true;</script>\n"
    }

    /// The template around its three slots, in order (title, no-script fallback, data), split
    /// once: each slot once.
    static let templateParts: (String, String, String, String) = {
        let atTitle = template.components(separatedBy: "__TITLE__")
        let atFallback = atTitle.count == 2 ? atTitle[1].components(separatedBy: "__NOSCRIPT__") : []
        let atData = atFallback.count == 2 ? atFallback[1].components(separatedBy: "__DATA__") : []
        precondition(atData.count == 2, "the report template has one title slot, then one fallback slot, then one data slot")
        return (atTitle[0], atFallback[0], atData[0], atData[1])
    }()

    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>NavReel report: __TITLE__</title>
<style>
:root { --fail: #d70015; --pass: #248a3d; --warn: #b25000; --line: #d1d1d6; --bg: #f2f2f7; --blue: #007aff; }
* { box-sizing: border-box; }
body { font: 14px -apple-system, system-ui, "Inter", sans-serif; margin: 0; color: #1c1c1e; background: var(--bg); }
header { position: sticky; top: 0; z-index: 5; background: #fff; border-bottom: 1px solid var(--line); padding: 10px 24px; display: flex; gap: 18px; align-items: center; flex-wrap: wrap; }
header h1 { font-size: 18px; margin: 0; }
.verdict.passed { color: var(--pass); } .verdict.failed { color: var(--fail); }
.counts span { margin-right: 10px; } .counts .why { color: var(--fail); } .keys { color: #6e6e73; font-size: 12px; }
.chips button { border: 1px solid var(--line); background: #fff; border-radius: 14px; padding: 3px 10px; margin-right: 4px; cursor: pointer; }
.chips-label { color: #6e6e73; font-size: 12px; margin-right: 4px; }
.chips button.on { background: var(--blue); border-color: var(--blue); color: #fff; }
#search { padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; width: 220px; }
main { padding: 8px 24px 64px; }
details.run { background: #fff; border: 1px solid var(--line); border-radius: 10px; margin: 12px 0; padding: 8px 16px; }
details.run.active { box-shadow: 0 0 0 2px var(--blue); }
details.run > summary { cursor: pointer; font-size: 15px; font-weight: 600; padding: 4px 0; }
summary .bad { color: var(--fail); } summary .ok { color: var(--pass); font-weight: 400; }
.file { color: #6e6e73; margin: 2px 0; }
.carried { color: #6e6e73; font-weight: normal; }
.approve { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.approve code { background: #1c1c1e; color: #f2f2f7; padding: 4px 8px; border-radius: 6px; user-select: all; white-space: pre-wrap; word-break: break-all; }
.strip { overflow-x: auto; padding: 4px 0 8px; }
.spark { display: block; }
.spark rect.bad { fill: var(--fail); } .spark rect.ok { fill: #c7c7cc; }
.filmstrip { display: flex; gap: 2px; }
.filmstrip button { border: 0; border-bottom: 4px solid var(--pass); padding: 0; background: none; cursor: pointer; position: relative; flex: none; width: 48px; min-height: 20px; }
.filmstrip button.bad { border-bottom-color: var(--fail); } .filmstrip button.current { outline: 2px solid var(--blue); }
.filmstrip button.event { border-left: 3px solid #3478f6; }
.filmstrip .cell { width: 48px; }
/* A picture: a whole file, or (.sheet) a rectangle of a thumbnail sheet, the sheet clipped around it. */
.cell { display: block; position: relative; overflow: hidden; }
.cell > img { display: block; width: 100%; }
.cell.sheet > img { position: absolute; max-width: none; }
.player { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
.player .stage .cell { box-sizing: content-box; width: 478px; max-width: calc(100% - 2px); border: 1px solid var(--line); background: #fff; }
.player .stage img { image-rendering: pixelated; }
.controls button, .controls select { margin: 0 4px 4px 0; }
.controls input[type=range] { width: 260px; vertical-align: middle; }
article.failure { border-top: 1px solid var(--line); margin-top: 12px; padding-top: 12px; outline: none; }
article.failure.focused { box-shadow: 0 0 0 3px #007aff55; }
article h3 { font-size: 14px; margin: 0 0 6px; }
.drift { color: var(--warn); font-weight: 600; }
.events { margin: 0.3em 0; padding-left: 1.2em; color: #555; }
.views { display: flex; gap: 12px; flex-wrap: wrap; align-items: flex-start; margin-top: 6px; }
figure { margin: 0; } figcaption { font-size: 12px; color: #6e6e73; }
.pic { position: relative; display: inline-block; line-height: 0; }
.pic img { max-width: 100%; border: 1px solid var(--line); image-rendering: pixelated; }
.views.one .pic img { width: 780px; max-width: calc(100vw - 100px); }
.views.many .pic img { width: 400px; }
.box { position: absolute; border: 2px solid var(--fail); pointer-events: none; }
.box.ignored { border: 2px dashed #8e8e93; } .box.ignored span { background: #8e8e93; }
.box span { position: absolute; top: -16px; left: -2px; font: 11px system-ui; line-height: 14px; background: var(--fail); color: #fff; padding: 0 3px; white-space: nowrap; }
.slider .pic .top { position: absolute; left: 0; top: 0; overflow: hidden; width: 50%; height: 100%; }
.slider .pic .top img { max-width: none; }
.modes button.on, .zoom button.on { background: var(--blue); color: #fff; border-color: var(--blue); }
.range { margin: 4px 0; } .range input { width: 260px; vertical-align: middle; }
table.rules { border-collapse: collapse; font-size: 12px; } table.rules td { padding: 1px 8px 1px 0; }
.inspector { display: flex; gap: 16px; flex-wrap: wrap; align-items: flex-start; }
.inspector .viewport { width: 780px; max-width: calc(100vw - 120px); height: 320px; overflow: auto; border: 1px solid var(--line); background: #fff; position: relative; }
.inspector canvas { image-rendering: pixelated; display: block; cursor: crosshair; }
/* Long names without break points wrap instead of widening the page (an audit, 2026-11-27). */
details.run > summary, article h3, .file, #errors, #notes, .fallback { overflow-wrap: anywhere; }
.fallback { padding: 8px 24px; }
/* A phone's width: the header scrolls away (it took 245 of 844 px) and the player fits. */
@media (max-width: 600px) {
  header { position: static; padding: 8px 12px; } main { padding: 8px 8px 48px; } details.run { padding: 8px; }
  .player .stage .cell { width: calc(100vw - 60px); } .controls input[type=range], .range input { width: 140px; }
  .views.one .pic img, .views.many .pic img { width: calc(100vw - 60px); }
}
/* Printed: the pictures and numbers, not the controls. */
@media print {
  header { position: static; } #search, .chips, .keys, .controls, .modes, .zoom, .approve button, .range input { display: none; }
  details.run { break-inside: avoid-page; }
}
/* Dark mode: the page's surfaces and text; pictures keep their own colours. */
@media (prefers-color-scheme: dark) {
  :root { --line: #3a3a3c; --bg: #000; }
  body { color: #f2f2f7; }
  header, details.run, .chips button, #search, .inspector .viewport, .player .stage .cell { background: #1c1c1e; color: #f2f2f7; }
  .file, .carried, .keys, figcaption, #notes, .events { color: #aeaeb2; }
}
.readout { font: 12px ui-monospace, Menlo, monospace; min-width: 300px; }
.readout td { padding: 1px 8px 1px 0; } .swatch { display: inline-block; width: 12px; height: 12px; border: 1px solid #999; vertical-align: middle; }
.note { color: #6e6e73; font-size: 12px; max-width: 780px; }
.hidden { display: none !important; }
#errors { color: var(--fail); white-space: pre-wrap; }
#notes { color: #6e6e73; } #notes p { margin: 2px 0; }
</style>
</head>
<body>
__NOSCRIPT__<header>
  <h1>NavReel <span class="verdict" id="verdict"></span></h1>
  <div class="counts" id="counts"></div>
  <div class="chips" id="chips" title="runs (a scenario on a device) by status; the counts beside the verdict are frames"><span class="chips-label">runs:</span> </div>
  <input id="search" type="search" placeholder="search scenario or device" aria-label="search scenario or device">
  <div class="keys">n / p: next / previous failure or change · space: play / pause · ← →: step — in the run you last clicked or reached with n / p</div>
</header>
<main>
  <div id="errors"></div>
  <div id="notes"></div>
  <div id="runs"></div>
  <div id="selftest"></div>
</main>
<script type="application/json" id="data">__DATA__</script>
<script>
"use strict";
window.addEventListener("error", e => { document.getElementById("errors").textContent += "script error: " + e.message + "\n"; });
const data = JSON.parse(document.getElementById("data").textContent);
const results = data.results;
const hash = new Set(location.hash.slice(1).split(","));
// A relative file path as a URL: each segment percent-encoded, so that a frame named with # ? %
// (a compare of files named so) loads instead of being cut at the character.
const href = p => p.split("/").map(encodeURIComponent).join("/");
const el = (tag, props = {}, ...children) => {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) { if (k === "class") n.className = v; else if (k === "text") n.textContent = v; else n.setAttribute(k, k === "src" ? href(v) : v); }
  for (const c of children) if (c) n.append(c);
  return n;
};
const svg = (tag, attrs) => { const n = document.createElementNS("http://www.w3.org/2000/svg", tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; };
const side = (name, file, time) => file ? name + " " + file + (time === undefined ? "" : " @ " + time.toFixed(3) + " s") : "";
const when = f => f.path ? [f.path, side("actual", f.actualFile, f.actualTime), side("expected", f.expectedFile, f.expectedTime)].filter(Boolean).join(" · ") : "t = " + f.time.toFixed(3) + " s";
const isBad = f => f.status === "failed" || f.status === "missing" || f.status === "error";
// Frames with a card of their own: the bad ones, and those whose baseline a record replaced with
// changed pixels (the old baseline is kept as "expected", to review the change before committing).
const isReview = f => isBad(f) || (f.status === "changed" && !!f.expected);
const mismatches = f => f.comparison ? f.comparison.mismatched : 0;
// Every picture is inside the report folder: failing frames full size, the others thumbnails,
// each the rectangle thumbnailRect [x, y, w, h] of its run's sheet (reports of earlier versions:
// a file per thumbnail, no rectangle).
const picture = (f, view) => {
  if (view === "diff" && f.diff) return { src: f.diff };
  if (view === "actual" && f.actual) return { src: f.actual };
  if (view === "expected" && f.expected) return { src: f.expected };
  // A frame with a card shows its full-size images in the player (a changed frame of another
  // size has no diff: its actual frame, not its thumbnail); the filmstrip asks for thumbnails.
  if (view !== "thumbnail" && isReview(f) && (f.actual || f.expected)) return { src: f.actual || f.expected };
  if (f.thumbnail) return { src: f.thumbnail, rect: f.thumbnailRect && f.thumbnailRect.length === 4 ? f.thumbnailRect : null };
  const src = f.diff || f.actual || f.expected;
  return src ? { src } : null;
};
// Shows a picture in a .cell holding one img: a whole file at the cell's width, or a sheet's
// rectangle scaled to the cell's width with the rest of the sheet clipped. Offsets and size are
// fractions of the cell, so one cell serves the filmstrip and the player at any width; the sheet's
// own width is known once it has loaded.
const showPicture = (cell, img, pic) => {
  const rect = pic && pic.rect;
  cell.classList.toggle("sheet", !!rect);
  cell.style.aspectRatio = rect ? rect[2] + " / " + rect[3] : "";
  img.onload = null;
  img.style.cssText = "";
  if (!pic) { img.removeAttribute("src"); return; }
  if (img.getAttribute("src") !== href(pic.src)) img.src = href(pic.src);
  if (!rect) return;
  const [x, y, w, h] = rect;
  Object.assign(img.style, { left: -x / w * 100 + "%", top: -y / h * 100 + "%", visibility: "hidden" });
  const place = () => { if (img.naturalWidth) Object.assign(img.style, { width: img.naturalWidth / w * 100 + "%", visibility: "" }); };
  img.onload = place;
  if (img.complete) place();
};
const pictureCell = (pic, props = {}) => {
  const img = el("img", { src: pic.src, ...props }), cell = el("span", { class: "cell" }, img);
  showPicture(cell, img, pic);
  return cell;
};
const runStatus = run => {
  for (const s of ["failed", "missing", "error"]) if (run.frames.some(f => f.status === s)) return s;
  if (run.frames.some(f => f.status === "added" || f.status === "changed")) return "recorded";
  return "passed";
};

const s = results.summary;
document.getElementById("verdict").textContent = s.verdict;
document.getElementById("verdict").classList.add(s.verdict === "passed" ? "passed" : "failed");
const counts = document.getElementById("counts");
counts.append(el("span", { text: s.frames + " frames" }));
for (const k of ["failed", "missing", "error", "added", "changed"]) if (s[k]) counts.append(el("span", { text: s[k] + " " + k }));
// Frames written this run (added, changed) are not counted as passed: they were not compared.
counts.append(el("span", { text: (s.passed ?? (s.frames - s.failed - s.missing - s.error - (s.added || 0) - (s.changed || 0) - (s.skipped || 0))) + " passed" }));
if (s.skipped) counts.append(el("span", { text: s.skipped + " not compared" }));
if (s.verdict !== "passed" && !s.failed && !s.missing && !s.error && !results.scenarioErrors.length && s.added)
  counts.append(el("span", { class: "why", text: "failed because new baselines were written (none existed): review and commit them; the next run compares against them" }));
// Scenario files that did not load have no runs below: the header says how many, beside the counts.
if (results.scenarioErrors.length) {
  const files = new Set(results.scenarioErrors.map(e => e.includes(": error: ") ? e.slice(0, e.indexOf(":")) : "navreel"));
  counts.append(el("span", { class: "why", text: results.scenarioErrors.length + (results.scenarioErrors.length === 1 ? " error" : " errors")
    + " in " + files.size + (files.size === 1 ? " file" : " files") + " (below): their runs were not checked" }));
}
for (const e of results.scenarioErrors) document.getElementById("errors").textContent += e + "\n";
// What compare did to its inputs that their files do not show (a turned video, a track chosen).
for (const n of results.notes || []) document.getElementById("notes").append(el("p", { text: n }));

// Failing runs first (in name order), then the rest collapsed.
const order = { failed: 0, missing: 1, error: 2, recorded: 3, passed: 4 };
const runs = results.runs.map((run, i) => ({ run, i, status: runStatus(run) }))
  .sort((a, b) => order[a.status] - order[b.status] || a.i - b.i);
const views = [];   // one per run: { section, status, player, ranges }
const failures = []; // range cards in page order
let active = null;
const activate = v => { if (active) active.section.classList.remove("active"); active = v; if (v) v.section.classList.add("active"); };

for (const { run, status } of runs) {
  const bad = run.frames.filter(isBad);
  const review = run.frames.filter(isReview);
  const section = el("details", { class: "run", "data-run": run.scenario + "/" + run.device, "data-status": status });
  const summary = el("summary", {}, el("span", { text: run.scenario + " / " + run.device + " " }));
  // Frames outside an aligned compare's overlap were not compared: not "passed".
  const skipped = run.frames.filter(f => f.status === "skipped").length;
  const rest = run.frames.length - skipped;
  // A recorded run says what was written and what passed ("70 frames recorded" for one changed
  // frame and 69 passed misled; an audit, 2026-11-27).
  const written = ["added", "changed", "passed"].map(k => [k, run.frames.filter(f => f.status === k).length]).filter(([, n]) => n).map(([k, n]) => n + " " + k).join(", ");
  summary.append(el("span", { class: bad.length ? "bad" : "ok", text: bad.length ? bad.length + " of " + run.frames.length + " frames " + status
    : status === "recorded" ? run.frames.length + " frames: " + written + (skipped ? ", " + skipped + " not compared" : "")
    : (rest ? rest + " frames " + status + (skipped ? ", " : "") : "") + (skipped ? skipped + " not compared" : "") }));
  // A run a --last-failed rerun did not render: the result of the run before (results.json `carriedFrom`).
  if (run.carriedFrom) summary.append(el("span", { class: "carried", text: " · not rerun" }));
  section.append(summary);
  const view = { section, status, run, built: false };
  views.push(view);
  section.addEventListener("toggle", () => { if (section.open) build(view); });
  section.addEventListener("pointerdown", () => activate(view));
  section.addEventListener("focusin", () => activate(view));
  document.getElementById("runs").append(section);
  if (review.length || hash.has("expand")) { build(view); section.open = true; }
}
activate(views.find(v => v.built) || null);

function build(view) {
  if (view.built) return;
  view.built = true;
  const { run, section } = view;
  const bad = run.frames.filter(isReview);
  section.append(el("p", { class: "file", text: run.file }));
  if (run.carriedFrom) section.append(el("p", { class: "file", text: "Not rerun: the run that wrote this report reran the scenarios that had failed (--last-failed); this is the result of the run started " + run.carriedFrom.replace("T", " ").replace("Z", " UTC") + "." }));
  if (run.approve) {
    const code = el("code", { text: run.approve });
    const copy = el("button", { text: "copy" });
    copy.addEventListener("click", () => {
      const done = () => { copy.textContent = "copied"; };
      if (navigator.clipboard) navigator.clipboard.writeText(run.approve).then(done, () => getSelection().selectAllChildren(code));
      else getSelection().selectAllChildren(code);
    });
    section.append(el("div", { class: "approve" }, el("span", { text: "approve this run's failing frames:" }), code, copy));
  }
  const events = run.frames.filter(f => f.event);
  if (events.length) section.append(el("ul", { class: "events" }, ...events.map(f => el("li", { text: "frame " + f.index + " · " + when(f) + " · " + f.event }))));

  // Sparkline of mismatched pixels per frame, column for column over the filmstrip.
  const strip = el("div", { class: "filmstrip" });
  const most = Math.max(1, ...run.frames.map(mismatches));
  const w = run.frames.length * 50, h = 28;
  const spark = svg("svg", { class: "spark", width: w, height: h, viewBox: "0 0 " + w + " " + h });
  run.frames.forEach((f, i) => {
    const m = mismatches(f);
    const bh = isBad(f) ? Math.max(2, Math.round(h * m / most)) : (m ? Math.max(1, Math.round(h * m / most)) : 1);
    const r = svg("rect", { x: i * 50 + 4, y: h - bh, width: 40, height: bh, class: isBad(f) ? "bad" : "ok" });
    r.append(svg("title", {})); r.firstChild.textContent = "frame " + f.index + ": " + m + " px mismatched";
    spark.append(r);
  });
  section.append(el("div", { class: "strip" }, spark, strip));

  const stageImg = el("img", { alt: "frame" });
  const stageCell = el("span", { class: "cell" }, stageImg);
  const label = el("span");
  const scrub = el("input", { type: "range", min: "0", max: String(run.frames.length - 1), value: "0", "aria-label": "frame" });
  const viewSel = el("select", { "aria-label": "view" }, ...["diff", "actual", "expected"].map(v => el("option", { text: v })));
  viewSel.value = bad.length ? "diff" : "expected";
  const speed = el("select", { "aria-label": "speed" }, ...["0.25", "0.5", "1", "2"].map(v => el("option", { text: v + "×", value: v })));
  speed.value = "1";
  const player = { index: 0, timer: null };
  const show = k => {
    player.index = Math.max(0, Math.min(run.frames.length - 1, k));
    const f = run.frames[player.index];
    showPicture(stageCell, stageImg, picture(f, viewSel.value));
    stageCell.dataset.frame = String(player.index);
    scrub.value = String(player.index);
    label.textContent = "frame " + f.index + " · " + when(f) + " · " + f.status + (f.event ? " · " + f.event : "") +
      (isReview(f) ? " · " + viewSel.value : f.thumbnail ? " · thumbnail" : "");
    strip.querySelectorAll("button").forEach((b, i) => b.classList.toggle("current", i === player.index));
    section.dataset.frame = String(player.index);
  };
  const playBtn = el("button", { text: "play" });
  const play = () => {
    if (player.timer) { clearInterval(player.timer); player.timer = null; playBtn.textContent = "play"; return; }
    playBtn.textContent = "pause";
    // 1x is the run's own frame rate, from its frames' times (a 60 frames/s run played at half
    // speed and a 15 frames/s one at double when every run ticked at 30; an audit, 2026-11-27).
    const fs = run.frames, span = fs.length > 1 ? (fs[fs.length - 1].time - fs[0].time) / (fs.length - 1) : 0;
    const step = span > 0 && isFinite(span) ? span : 1 / 30;
    player.timer = setInterval(() => show((player.index + 1) % run.frames.length), Math.max(4, 1000 * step / Number(speed.value)));
  };
  playBtn.addEventListener("click", play);
  const prev = el("button", { text: "◀ step" }); prev.addEventListener("click", () => show(player.index - 1));
  const next = el("button", { text: "step ▶" }); next.addEventListener("click", () => show(player.index + 1));
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  viewSel.addEventListener("change", () => show(player.index));
  run.frames.forEach((f, i) => {
    const b = el("button", { class: (isBad(f) ? "bad" : "") + (f.event ? " event" : ""), title: "frame " + f.index + " · " + when(f) + " (" + f.status + ", " + mismatches(f) + " px)" + (f.event ? ": " + f.event : "") });
    const pic = picture(f, isBad(f) ? "actual" : "thumbnail");
    if (pic) b.append(pictureCell(pic, { alt: "frame " + f.index, loading: hash.has("expand") ? "eager" : "lazy" }));
    if (pic) b.firstChild.dataset.frame = String(i);
    b.addEventListener("click", () => show(i));
    strip.append(b);
  });
  const controls = el("div", { class: "controls" }, playBtn, prev, next, scrub, el("label", { text: " view " }), viewSel, el("label", { text: " speed " }), speed);
  section.append(el("div", { class: "player" }, el("div", { class: "stage" }, stageCell), el("div", {}, controls, label)));
  view.player = { show, play, state: player };
  show(bad.length ? run.frames.indexOf(bad[0]) : 0);

  // Consecutive failing frames form one range: one card, stepped through inside.
  let range = [];
  const flush = () => { if (range.length) section.append(rangeCard(view, range)); range = []; };
  // A range is frames of one kind: failing ones, or changes a record wrote.
  let kind = null;
  run.frames.forEach((f, i) => {
    const k = isBad(f) ? "bad" : isReview(f) ? "changed" : null;
    if (k !== kind) flush();
    kind = k;
    if (k) range.push(i);
  });
  flush();
}

function boxes(pic, f, run) {
  const c = f.comparison;
  const img = pic.querySelector("img");
  const place = () => {
    pic.querySelectorAll(".box").forEach(b => b.remove());
    const k = img.clientWidth / (img.naturalWidth || 1);
    // Labels of boxes that start close together covered each other ("title · 18" over "bar
    // background · 407", an audit, 2026-11-27): each label goes below those it would meet.
    const taken = [];
    const put = (r, cls, text) => {
      const span = el("span", { text });
      const b = el("div", { class: cls }, span);
      Object.assign(b.style, { left: r.x * k + "px", top: r.y * k + "px", width: Math.max(2, r.width * k) + "px", height: Math.max(2, r.height * k) + "px" });
      pic.append(b);
      const x = r.x * k - 2, w = span.offsetWidth || text.length * 6;
      // Above the box, or below it when it touches the top (a label above would sit on the caption).
      let y = r.y * k - 16;
      if (y < 0) y = (r.y + r.height) * k + 1;
      while (taken.some(t => x < t.x + t.w && t.x < x + w && y < t.y + 15 && t.y < y + 15)) y += 15;
      span.style.top = (y - r.y * k) + "px";
      taken.push({ x, y, w });
    };
    // Ignored rectangles of a compare run: outlined, their pixels still shown.
    for (const r of run.ignored || []) put(r, "box ignored", "ignored");
    for (const e of (c && c.elements) || []) put(e.box, "box", e.name + " · " + e.pixels);
  };
  // Placed once the picture has its size on the page, and again whenever that changes: an image
  // already loaded was placed before its figure was in the page, at width 0, and every box sat in
  // the top-left corner when a frame was looked at again (an audit, 2026-11-27).
  let placedAt = -1;
  new ResizeObserver(() => { if (img.clientWidth && img.naturalWidth && img.clientWidth !== placedAt) { placedAt = img.clientWidth; place(); } }).observe(img);
  img.addEventListener("load", () => { if (img.clientWidth) { placedAt = img.clientWidth; place(); } });
}

function rangeCard(view, indices) {
  const run = view.run;
  const card = el("article", { class: "failure", tabindex: "-1" });
  card.view = view;
  failures.push(card);
  const first = run.frames[indices[0]], last = run.frames[indices[indices.length - 1]];
  const ms = indices.map(i => mismatches(run.frames[i]));
  const names = [...new Set(indices.flatMap(i => ((run.frames[i].comparison || {}).elements || []).map(e => e.name)))];
  card.append(el("h3", { text: run.scenario + " / " + run.device + " · " + (indices.length > 1 ? "frames " + first.index + "–" + last.index + " (" + indices.length + " frames)" : "frame " + first.index) +
    " · " + when(first) + (indices.length > 1 ? " … " + when(last) : "") +
    " · " + [...new Set(indices.map(i => run.frames[i].status))].join(", ") + (ms.some(Boolean) ? " · " + Math.min(...ms) + "–" + Math.max(...ms) + " px mismatched" : "") +
    (names.length ? " · " + names.join(", ") : "") }));
  const body = el("div");
  let pos = 0, mode = "diff";
  const rangeBar = el("div", { class: "range" });
  if (indices.length > 1) {
    const r = el("input", { type: "range", min: "0", max: String(indices.length - 1), value: "0", "aria-label": "frame in range" });
    const lab = el("span");
    r.addEventListener("input", () => { pos = Number(r.value); render(); });
    card.setPos = p => { pos = Math.max(0, Math.min(indices.length - 1, p)); r.value = String(pos); render(); };
    rangeBar.append(el("span", { text: "frame in range " }), r, lab);
    card.rangeLabel = lab;
  }
  const modes = el("div", { class: "modes" });
  const modeNames = ["diff", "side by side", "slider", "onion skin", "toggle", "inspect pixels"];
  for (const name of modeNames) { const b = el("button", { text: name }); b.addEventListener("click", () => { mode = name; render(); }); modes.append(b); }
  card.append(rangeBar, body, modes);
  const views = el("div", { class: "views" });
  card.append(views);
  card.selectMode = name => { mode = name; render(); };
  function render() {
    const k = indices[pos], f = run.frames[k];
    if (card.rangeLabel) card.rangeLabel.textContent = " frame " + f.index + " (" + (pos + 1) + " of " + indices.length + ")";
    view.player && view.player.show(k);
    body.replaceChildren(...details(run, f));
    modes.querySelectorAll("button").forEach(b => b.classList.toggle("on", b.textContent === mode));
    const made = modeViews(run, f, k)[mode]();
    views.className = "views " + (made.length > 1 ? "many" : "one");
    views.replaceChildren(...made);
    card.dataset.frame = String(f.index);
    card.dataset.mode = mode;
  }
  render();
  return card;
}

function details(run, f) {
  const out = [el("p", { text: "frame " + f.index + " · " + when(f) + " · " + f.status })];
  if (f.status === "changed" && f.expected) out.push(el("p", { text: "this run replaced the baseline: \"expected\" is the old baseline, \"actual\" the frame written over it; review, then commit or revert" }));
  if (f.message) out.push(el("p", { text: f.message }));
  if (f.event) out.push(el("p", { text: "event: " + f.event }));
  for (const d of f.drift || []) out.push(el("p", { class: "drift", text: "environment drift: " + d + " — this may not be a regression" }));
  const c = f.comparison;
  if (c) {
    const t = el("table", { class: "rules" });
    const rows = [["mismatched", c.mismatched + (c.allowedMismatches ? " (budget " + c.allowedMismatches + ")" : "")]]
      // "equal" sits among the counts results.json keeps with the forgiven ones; it is not forgiven.
      .concat(Object.entries(c.forgiven || {}).map(([k, v]) => [k === "equal" ? "equal" : "forgiven: " + k, v]))
      .concat([["largest channel difference", c.maxChannelDelta]]);
    if (c.sizeMismatch) rows.unshift(["size", "expected " + c.sizeMismatch.expected.width + "×" + c.sizeMismatch.expected.height + ", actual " + c.sizeMismatch.actual.width + "×" + c.sizeMismatch.actual.height]);
    for (const [k, v] of rows) t.append(el("tr", {}, el("td", { text: k }), el("td", { text: String(v) })));
    out.push(t);
    if ((run.ignored || []).length) out.push(el("p", { text: "ignored (not counted, still shown): " + run.ignored.map(r => r.x + "," + r.y + " " + r.width + "×" + r.height).join("; ") }));
    if ((c.elements || []).length) out.push(el("p", { text: "in either frame's elements (a pixel whose element changed counts for both): " + c.elements.map(e => e.name + " " + e.pixels + " px at " + e.box.x + "," + e.box.y + " " + e.box.width + "×" + e.box.height).join("; ") }));
  }
  return out;
}

function modeViews(run, f, k) {
  const pic = (src, caption, withBoxes) => {
    const p = el("div", { class: "pic" }, el("img", { src, alt: caption }));
    if (withBoxes) boxes(p, f, run);
    return el("figure", {}, el("figcaption", { text: caption }), p);
  };
  const both = () => f.expected && f.actual;
  const need = [el("p", { text: "needs both the expected and the actual image" })];
  return {
    "diff": () => f.diff ? [pic(f.diff, "diff: red mismatched · yellow anti-aliasing · blue translucency · green timing · grey unchanged or within tolerance", true)]
                         : [f.actual && pic(f.actual, "actual (no diff image: " + (f.comparison && f.comparison.sizeMismatch ? "sizes differ" : "none written") + ")", true), f.expected && pic(f.expected, "expected")].filter(Boolean),
    "side by side": () => [f.expected && pic(f.expected, "expected"), f.actual && pic(f.actual, "actual", true), f.diff && pic(f.diff, "diff", true)].filter(Boolean),
    "slider": () => {
      if (!both()) return need;
      const base = el("img", { src: f.actual, alt: "actual" });
      const top = el("div", { class: "top" }, el("img", { src: f.expected, alt: "expected" }));
      const p = el("div", { class: "pic" }, base, top);
      const r = el("input", { type: "range", min: "0", max: "100", value: "50" });
      // offsetWidth, border included, as both images have one (clientWidth left it out: the
      // expected half was 0.26 % small); and again on a resize (it kept the old width).
      const sync = () => { top.style.width = r.value + "%"; top.querySelector("img").style.width = base.offsetWidth + "px"; };
      r.addEventListener("input", sync); base.addEventListener("load", sync);
      new ResizeObserver(sync).observe(base);
      return [el("figure", { class: "slider" }, el("figcaption", { text: "expected ← → actual" }), p, el("div", {}, r))];
    },
    "onion skin": () => {
      if (!both()) return need;
      const over = el("img", { src: f.actual, alt: "actual" });
      Object.assign(over.style, { position: "absolute", left: "0", top: "0", opacity: "0.5" });
      const p = el("div", { class: "pic" }, el("img", { src: f.expected, alt: "expected" }), over);
      const r = el("input", { type: "range", min: "0", max: "100", value: "50" });
      r.addEventListener("input", () => { over.style.opacity = String(r.value / 100); });
      return [el("figure", {}, el("figcaption", { text: "actual over expected" }), p, el("div", {}, r))];
    },
    "toggle": () => {
      if (!both()) return need;
      const img = el("img", { src: f.expected, alt: "expected" });
      const cap = el("figcaption", { text: "expected (click to flip)" });
      img.addEventListener("click", () => { const e = img.alt === "expected"; img.src = href(e ? f.actual : f.expected); img.alt = e ? "actual" : "expected"; cap.textContent = img.alt + " (click to flip)"; });
      return [el("figure", {}, cap, el("div", { class: "pic" }, img))];
    },
    "inspect pixels": () => [inspector(run, f, k)],
  };
}

// Pixel inspector. The frame's images come from a script written beside the page (a page opened
// from file:// may run it, while reading pixels of its PNG files is refused), as data URLs.
const pixelSets = {};
const pixelWaiters = {};
window.navreelPixels = (key, urls) => {
  const names = Object.keys(urls);
  Promise.all(names.map(n => new Promise((ok, fail) => { const i = new Image(); i.onload = () => ok(i); i.onerror = () => fail(new Error(n)); i.src = urls[n]; })))
    .then(imgs => {
      const set = {};
      imgs.forEach((img, j) => {
        const c = document.createElement("canvas"); c.width = img.naturalWidth; c.height = img.naturalHeight;
        const g = c.getContext("2d"); g.drawImage(img, 0, 0);
        set[names[j]] = { img, data: g.getImageData(0, 0, c.width, c.height) };
      });
      pixelSets[key] = set;
      (pixelWaiters[key] || []).forEach(w => w(set));
    });
};
const loadPixels = (run, k) => new Promise((ok, fail) => {
  const key = run.key + "/" + k;
  if (pixelSets[key]) return ok(pixelSets[key]);
  const src = (run.inspect || {})[String(k)];
  if (!src) return fail(new Error("no pixel data for this frame: it needs both an expected and an actual image, and a report keeps it for the first frame of every range and its first 1000 failing frames (open the PNGs beside it)"));
  (pixelWaiters[key] = pixelWaiters[key] || []).push(ok);
  const tag = el("script", { src });
  tag.onerror = () => fail(new Error("could not load " + src));
  document.head.append(tag);
});
// The diff image's colours, as ImageComparator's classic and heat-map styles draw them.
const ruleOf = (d, e, a) => {
  if (!d) return "no diff image";
  const [r, g, b] = d;
  if (r === 255 && g === 0 && b === 0) return "mismatch (counted)";
  if (r === 255 && g === 255 && b === 0) return "forgiven: anti-aliasing";
  if (r === 0 && g === 90 && b === 255) return "forgiven: translucency";
  if (r === 0 && g === 190 && b === 0) return "forgiven: timing";
  if (b === 0 && r >= 140 && g <= 190 && r > g) return "mismatch (counted; heat map)";
  if (r === g && g === b) {
    if (r >= 120 && r <= 182 && r < 229) return "ignored (region, element or rectangle)";
    const same = e && a && e.every((v, i) => v === a[i]);
    return same ? "equal" : "forgiven: within the perceptual or channel threshold";
  }
  return "unknown colour";
};
function inspector(run, f, k) {
  const box = el("div", { class: "inspector" });
  const note = el("p", { class: "note", text: "Move the pointer over the image: the expected and actual RGBA of that pixel, and the rule that judged it, read from the diff image's colour (red counted; yellow, blue, green forgiven by anti-aliasing, translucency, timing; grey: equal when both RGBA match, else within the perceptual or channel threshold; mid grey: ignored). The element box is the bounding box of that element's mismatched pixels from the comparison, not a per-pixel element map. Scroll to pan; zoom with the buttons or Ctrl + wheel." });
  const status = el("p", { class: "note", text: "loading pixels…" });
  box.append(status);
  loadPixels(run, k).then(set => {
    const srcName = set.diff ? "diff" : "actual";
    let shownName = srcName, zoom = 2;
    const first = set[srcName].img;
    // The canvas is the size of the viewport and draws only the part scrolled into view; a spacer
    // gives the viewport the zoomed image's size to scroll. A canvas of the whole zoomed frame
    // was 9,360 x 20,256 at 8x of a 3x full screen (2.3 GB in the renderer) and blank past
    // Chrome's limit at 16x (an audit, 2026-11-27).
    const canvas = el("canvas");
    const spacer = el("div", { class: "spacer" });
    const viewport = el("div", { class: "viewport" }, spacer, canvas);
    Object.assign(canvas.style, { position: "absolute", left: "0", top: "0" });
    const readout = el("table", { class: "readout" });
    const zoomBar = el("div", { class: "zoom" });
    let at = [0, 0];
    const draw = () => {
      const img = set[shownName].img;
      spacer.style.width = img.naturalWidth * zoom + "px"; spacer.style.height = img.naturalHeight * zoom + "px";
      const w = viewport.clientWidth || 780, h = viewport.clientHeight || 320;
      const sx = Math.floor(viewport.scrollLeft / zoom), sy = Math.floor(viewport.scrollTop / zoom);
      const sw = Math.min(img.naturalWidth - sx, Math.ceil(w / zoom) + 1), sh = Math.min(img.naturalHeight - sy, Math.ceil(h / zoom) + 1);
      canvas.width = Math.max(1, sw * zoom); canvas.height = Math.max(1, sh * zoom);
      canvas.style.left = sx * zoom + "px"; canvas.style.top = sy * zoom + "px";
      const g = canvas.getContext("2d"); g.imageSmoothingEnabled = false;
      if (sw > 0 && sh > 0) g.drawImage(img, sx, sy, sw, sh, 0, 0, sw * zoom, sh * zoom);
      zoomBar.querySelectorAll("button").forEach(b => b.classList.toggle("on", b.dataset.v === String(zoom) || b.dataset.v === shownName));
      box.dataset.canvas = canvas.width + "x" + canvas.height;
    };
    viewport.addEventListener("scroll", draw);
    // A new zoom keeps the inspected pixel where it was in the viewport (it scrolled away before).
    const setZoom = z => {
      const old = zoom;
      const ox = at[0] * old - viewport.scrollLeft, oy = at[1] * old - viewport.scrollTop;
      zoom = z;
      draw();
      viewport.scrollLeft = Math.max(0, (at[0] + 0.5) * zoom - Math.max(0, Math.min(viewport.clientWidth, ox + old / 2)));
      viewport.scrollTop = Math.max(0, (at[1] + 0.5) * zoom - Math.max(0, Math.min(viewport.clientHeight, oy + old / 2)));
      draw();
    };
    box.setZoom = setZoom;
    for (const z of [1, 2, 4, 8, 16, 32]) { const b = el("button", { text: z + "×", "data-v": String(z) }); b.addEventListener("click", () => setZoom(z)); zoomBar.append(b); }
    for (const n of ["diff", "actual", "expected"]) if (set[n]) { const b = el("button", { text: n, "data-v": n }); b.addEventListener("click", () => { shownName = n; draw(); }); zoomBar.append(b); }
    viewport.addEventListener("wheel", e => { if (!e.ctrlKey) return; e.preventDefault(); setZoom(Math.max(1, Math.min(32, e.deltaY < 0 ? zoom * 2 : zoom / 2))); }, { passive: false });
    const px = (name, x, y) => { const s = set[name]; if (!s || x >= s.data.width || y >= s.data.height) return null; const i = (y * s.data.width + x) * 4; return [...s.data.data.slice(i, i + 4)]; };
    const row = (k, v, color) => el("tr", {}, el("td", { text: k }), el("td", {}, color ? el("span", { class: "swatch", style: "background: rgba(" + color.slice(0, 3).join(",") + "," + color[3] / 255 + ")" }) : null, el("span", { text: " " + v })));
    const inspect = (x, y) => {
      const e = px("expected", x, y), a = px("actual", x, y), d = px("diff", x, y);
      const elements = ((f.comparison || {}).elements || []).filter(b => x >= b.box.x && y >= b.box.y && x < b.box.x + b.box.width && y < b.box.y + b.box.height).map(b => b.name);
      const ignored = (run.ignored || []).some(r => x >= r.x && y >= r.y && x < r.x + r.width && y < r.y + r.height);
      readout.replaceChildren(row("pixel", x + ", " + y), row("expected", e ? "rgba(" + e.join(", ") + ")" : "—", e), row("actual", a ? "rgba(" + a.join(", ") + ")" : "—", a),
        row("rule", (ignored ? "ignored rectangle; " : "") + ruleOf(d, e, a)), row("element box", elements.join(", ") || "—"));
      box.dataset.x = String(x); box.dataset.y = String(y);
      at = [x, y];
      box.dataset.rule = ruleOf(d, e, a);
      box.dataset.expected = e ? e.join(",") : ""; box.dataset.actual = a ? a.join(",") : "";
    };
    viewport.addEventListener("mousemove", ev => {
      const r = viewport.getBoundingClientRect();
      const x = Math.floor((ev.clientX - r.left - viewport.clientLeft + viewport.scrollLeft) / zoom);
      const y = Math.floor((ev.clientY - r.top - viewport.clientTop + viewport.scrollTop) / zoom);
      if (x >= 0 && y >= 0 && x < first.naturalWidth && y < first.naturalHeight) inspect(x, y);
    });
    box.inspect = inspect;
    box.replaceChildren(el("div", {}, zoomBar, viewport, note), readout);
    draw();
    // Start at the first counted mismatch, so the readout is never empty.
    const dd = set.diff && set.diff.data;
    let start = [0, 0];
    if (dd) for (let i = 0; i < dd.data.length; i += 4) if (ruleOf([dd.data[i], dd.data[i + 1], dd.data[i + 2]]).startsWith("mismatch")) { start = [(i / 4) % dd.width, Math.floor(i / 4 / dd.width)]; break; }
    inspect(start[0], start[1]);
    viewport.scrollLeft = Math.max(0, start[0] * zoom - 200); viewport.scrollTop = Math.max(0, start[1] * zoom - 100);
    draw();
    box.dataset.ready = "1";
  }, err => { status.textContent = "pixel inspector unavailable: " + err.message; box.dataset.ready = "error"; });
  return box;
}

// Filters: status chips with run counts, and a search over scenario and device names.
const chips = document.getElementById("chips");
const search = document.getElementById("search");
let chip = "all";
const applyFilter = () => {
  const q = search.value.trim().toLowerCase();
  let shown = 0;
  for (const v of views) {
    const ok = (chip === "all" || v.status === chip) && (!q || (v.run.scenario + " / " + v.run.device).toLowerCase().includes(q));
    v.section.classList.toggle("hidden", !ok);
    if (ok) shown++;
  }
  chips.querySelectorAll("button").forEach(b => b.classList.toggle("on", b.dataset.chip === chip));
  document.body.dataset.shownRuns = String(shown);
};
for (const c of ["all", "failed", "missing", "error", "recorded", "passed"]) {
  const n = c === "all" ? views.length : views.filter(v => v.status === c).length;
  if (c !== "all" && !n) continue;
  const b = el("button", { text: c + " " + n, "data-chip": c });
  b.addEventListener("click", () => { chip = c; applyFilter(); });
  chips.append(b);
}
search.addEventListener("input", applyFilter);
applyFilter();

// Keys act on the active run: the one last clicked or focused, or reached with n / p.
let focused = -1;
const focusFailure = k => {
  const visible = failures.filter(c => !c.view.section.classList.contains("hidden"));
  if (!visible.length) return;
  const cur = visible.indexOf(failures[focused]);
  const next = visible[((cur < 0 ? (k > 0 ? -1 : 0) : cur) + k + visible.length) % visible.length];
  focused = failures.indexOf(next);
  failures.forEach(c => c.classList.toggle("focused", c === next));
  next.view.section.open = true;
  activate(next.view);
  // Its start just below the sticky header: a full-screen frame's card is taller than the window,
  // and centring it put its title and mode buttons above the top (an audit, 2026-11-27).
  const header = document.querySelector("header");
  const below = header ? header.getBoundingClientRect().bottom : 0;
  window.scrollTo({ top: next.getBoundingClientRect().top + scrollY - Math.max(0, below) - 8 });
  next.focus({ preventScroll: true });
};
const onKey = e => {
  const tag = e.target && e.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || (e.target && e.target.isContentEditable)) return;
  // Ctrl+P prints and Cmd+N opens a window: keys with a modifier are the browser's. Space on a
  // button, a summary or a link presses it (an audit: it started playback instead).
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if ((e.key === " " || e.key === "Enter") && (tag === "BUTTON" || tag === "SUMMARY" || tag === "A")) return;
  const p = active && active.player;
  if (e.key === "n" || e.key === "j") focusFailure(1);
  else if (e.key === "p" || e.key === "k") focusFailure(-1);
  else if (e.key === " " && p) { e.preventDefault(); p.play(); }
  else if (e.key === "ArrowRight" && p) { e.preventDefault(); p.show(p.state.index + 1); }
  else if (e.key === "ArrowLeft" && p) { e.preventDefault(); p.show(p.state.index - 1); }
};
document.addEventListener("keydown", onKey);

document.body.dataset.failures = String(failures.reduce((n, c) => n + Number(c.querySelector(".range input") ? c.querySelector(".range input").max : 0) + 1, 0));
document.body.dataset.ranges = String(failures.length);
document.body.dataset.ready = "1";
const countImages = () => {
  const imgs = [...document.querySelectorAll("img")].filter(i => i.getAttribute("src"));
  document.body.dataset.images = String(imgs.length);
  document.body.dataset.broken = String(imgs.filter(i => i.complete && i.naturalWidth === 0).length);
  document.body.dataset.pending = String(imgs.filter(i => !i.complete).length);
};
// Where each picture cell is on the page, for scripts/report-test to find it in a screenshot.
const markBoxes = () => document.querySelectorAll(".cell").forEach(c => {
  const r = c.getBoundingClientRect();
  c.dataset.box = [r.left + scrollX, r.top + scrollY, r.width, r.height].map(v => v.toFixed(2)).join(",");
});
// Whether every sheet cell shows its frame's rectangle, whole, at the cell's width: the sheet
// loaded, and its offset and scale what thumbnailRect says (half a pixel of rounding allowed).
const sheetCellsWrong = () => {
  const wrong = [];
  let n = 0;
  for (const v of views) v.section.querySelectorAll(".cell.sheet").forEach(c => {
    n++;
    const f = v.run.frames[Number(c.dataset.frame)], img = c.firstChild;
    const [x, y, w, h] = f.thumbnailRect;
    const cr = c.getBoundingClientRect(), ir = img.getBoundingClientRect(), k = c.clientWidth / w;
    const near = (a, b) => Math.abs(a - b) <= 0.5;
    if (!(img.naturalWidth > 0 && getComputedStyle(img).visibility === "visible" && near(c.clientHeight, h * k) && near(ir.left - c.clientLeft - cr.left, -x * k)
          && near(ir.top - c.clientTop - cr.top, -y * k) && near(ir.width, img.naturalWidth * k) && near(ir.height, img.naturalHeight * k)))
      wrong.push(v.run.scenario + " frame " + f.index + (c.closest(".stage") ? " (player)" : ""));
  });
  return { n, wrong };
};
window.addEventListener("load", () => {
  countImages();
  if (hash.has("boxes")) markBoxes();
  document.body.dataset.loaded = "1";
  if (hash.has("inspect") && failures.length) { failures[0].selectMode("inspect pixels"); }
  if (hash.has("selftest")) selfTest();
});

// The page's own checks of its interactions (scripts/report-test opens index.html#selftest).
function selfTest() {
  const out = document.getElementById("selftest");
  const say = (ok, what) => out.append(el("div", { class: ok ? "st-ok" : "st-fail", text: (ok ? "ok " : "FAIL ") + what }));
  const key = k => onKey(new KeyboardEvent("keydown", { key: k }));
  const bad = views.filter(v => ["failed", "missing", "error"].includes(v.status));
  const firstGood = views.findIndex(v => !["failed", "missing", "error"].includes(v.status));
  say(views.slice(0, bad.length).every(v => bad.includes(v)), "failing runs come first");
  say(views.filter(v => v.status === "passed").every(v => !v.section.open) || hash.has("expand"), "passing runs are collapsed");
  say(failures.every(c => c.dataset.mode === "diff"), "failing frames open on the diff");
  // Chips and search.
  chip = "passed"; applyFilter();
  say(views.every(v => v.section.classList.contains("hidden") === (v.status !== "passed")), "the passed chip shows passing runs only");
  chip = "all"; search.value = bad.length > 1 ? bad[1].run.scenario : "no such run"; applyFilter();
  say(views.every(v => v.section.classList.contains("hidden") !== (v.run.scenario + " / " + v.run.device).toLowerCase().includes(search.value.toLowerCase())), "search matches scenario names");
  search.value = ""; applyFilter();
  // Keys follow the focused run.
  if (bad.length > 1) {
    focused = -1;
    let guard = 0;
    do { key("n"); } while (active !== bad[1] && ++guard < 100);
    const other = bad[0].player.state.index, before = bad[1].player.state.index;
    key("ArrowRight");
    say(active === bad[1] && bad[1].player.state.index === Math.min(before + 1, bad[1].run.frames.length - 1) && bad[0].player.state.index === other, "arrow keys step the run reached with n, not the first");
    key("ArrowLeft");
    say(bad[1].player.state.index === before, "arrow left steps back in that run");
  } else say(false, "self-test needs two failing runs");
  // Ranges: one card per run of consecutive failing frames.
  // (A record's changed frames form ranges of their own, apart from failing ones.)
  const kind = f => isBad(f) ? 1 : isReview(f) ? 2 : 0;
  const consecutive = views.every(v => { const fs = v.run.frames; let n = 0; fs.forEach((f, i) => { if (kind(f) && (i === 0 || kind(fs[i - 1]) !== kind(f))) n++; }); return !v.built || failures.filter(c => c.view === v).length === n; });
  say(consecutive, "consecutive failing frames are grouped into ranges");
  say(bad.every(v => v.section.querySelectorAll(".spark rect").length === v.run.frames.length), "a sparkline bar per frame");
  say(bad.every(v => (v.section.querySelector(".approve code") || {}).textContent === v.run.approve), "approve command shown");
  // The pixel inspector on the first range.
  const card = failures[0];
  card.selectMode("inspect pixels");
  const box = card.querySelector(".inspector");
  const wait = (t) => new Promise(r => setTimeout(r, t));
  (async () => {
    for (let i = 0; i < 50 && !box.dataset.ready; i++) await wait(50);
    say(box.dataset.ready === "1", "inspector loaded the frame's pixels");
    say(/^mismatch/.test(box.dataset.rule || "") && box.dataset.expected !== box.dataset.actual && box.dataset.expected.split(",").length === 4,
        "inspector at a mismatched pixel: expected " + box.dataset.expected + ", actual " + box.dataset.actual + ", " + box.dataset.rule);
    // Zoom keeps the inspected pixel in view and the canvas the viewport's size, at any zoom.
    say(!!box.setZoom, "the inspector zooms");
    if (box.setZoom) {
      const vp = box.querySelector(".viewport"), [x, y] = [Number(box.dataset.x), Number(box.dataset.y)];
      box.setZoom(16);
      const [cw, ch] = box.dataset.canvas.split("x").map(Number);
      // The pixel's centre stays where it was on the screen, so it is inside the viewport.
      const cx = (x + 0.5) * 16 - vp.scrollLeft, cy = (y + 0.5) * 16 - vp.scrollTop;
      const seen = cx >= 0 && cx <= vp.clientWidth && cy >= 0 && cy <= vp.clientHeight;
      say(seen && cw <= vp.clientWidth + 32 && ch <= vp.clientHeight + 32, "zoom 16x keeps pixel " + x + "," + y + " in view on a " + box.dataset.canvas + " canvas (scrolled to " + vp.scrollLeft + "," + vp.scrollTop + " of " + vp.scrollWidth + "x" + vp.scrollHeight + ", " + vp.clientWidth + "x" + vp.clientHeight + " shown)");
      box.setZoom(2);
    }
    if (box.inspect) { box.inspect(0, 0); say(!!box.dataset.rule && box.dataset.rule !== "unknown colour", "inspector names the rule at 0,0: " + box.dataset.rule); }
    card.selectMode("diff");
    // Boxes of a frame looked at again are on their element, not in the corner (its image is cached).
    card.selectMode("side by side"); card.selectMode("diff");
    await wait(200);
    // Each box where its element's rectangle is at the picture's drawn scale (±1.5 px).
    const frameShown = card.view.run.frames.find(f => String(f.index) === card.dataset.frame);
    const rects = [...(card.view.run.ignored || []), ...(((frameShown || {}).comparison || {}).elements || []).map(e => e.box)];
    const placed = [...card.querySelectorAll(".views .pic")].flatMap(pic => {
      const img = pic.querySelector("img"), k = img.clientWidth / (img.naturalWidth || 1);
      return [...pic.querySelectorAll(":scope > .box")].map(b => ({ b, k }));
    });
    const onElement = ({ b, k }) => rects.some(r => Math.abs(b.offsetLeft - r.x * k) <= 1.5 && Math.abs(b.offsetTop - r.y * k) <= 1.5
      && Math.abs(b.offsetWidth - Math.max(2, r.width * k)) <= 5);
    say(placed.length > 0 && placed.every(onElement), "boxes of a frame shown again are on their elements (" + placed.length + ", "
      + placed.filter(p => !onElement(p)).map(p => p.b.offsetLeft + "," + p.b.offsetTop + " " + p.b.offsetWidth).join("; ") + ")");
    // Keys with a modifier are the browser's (Ctrl+P prints).
    const before = focused;
    onKey(new KeyboardEvent("keydown", { key: "p", ctrlKey: true }));
    say(focused === before, "Ctrl+P is left to the browser");
    for (const v of views) if (!v.built) { build(v); v.section.open = true; }
    await wait(1500);
    countImages();
    // No two box labels of one picture overlap.
    const overlapping = [...document.querySelectorAll(".failure")].flatMap(c => [...c.querySelectorAll("div")].filter(d => d.querySelector(":scope > .box")))
      .filter(pic => { const r = [...pic.querySelectorAll(":scope > .box > span")].map(s => s.getBoundingClientRect()).filter(q => q.width > 0);
        return r.some((a, i) => r.some((b, j) => j > i && a.left < b.right && b.left < a.right && a.top < b.bottom - 1 && b.top < a.bottom - 1)); });
    say(overlapping.length === 0, "no two box labels of a picture overlap (" + overlapping.length + " pictures with overlaps)");
    say(document.body.dataset.broken === "0" && document.body.dataset.pending === "0", "every run expanded: " + document.body.dataset.images + " images, " + document.body.dataset.broken + " broken, " + document.body.dataset.pending + " pending");
    const passing = views.flatMap(v => v.run.frames.filter(f => f.thumbnailRect));
    const cells = sheetCellsWrong();
    say(cells.wrong.length === 0 && cells.n >= passing.length && (passing.length > 0) === (cells.n > 0),
        "thumbnails: " + cells.n + " cells show their frame's rectangle of the sheet" + (cells.wrong.length ? "; wrong: " + cells.wrong.slice(0, 5).join(", ") : ""));
    const stage = views.find(v => v.run.frames.filter(f => f.thumbnailRect && !isReview(f)).length > 1);
    if (stage) {
      const k = stage.run.frames.findIndex((f, i) => f.thumbnailRect && !isReview(f) && i !== stage.player.state.index);
      stage.player.show(k);
      const c = stage.section.querySelector(".stage .cell");
      say(c.classList.contains("sheet") && c.dataset.frame === String(k) && sheetCellsWrong().wrong.length === 0, "the player shows the stepped-to frame's rectangle of the sheet");
    }
    document.body.dataset.selftest = out.querySelector(".st-fail") ? "failed" : "passed";
  })();
}
</script>
</body>
</html>
"""#
}
