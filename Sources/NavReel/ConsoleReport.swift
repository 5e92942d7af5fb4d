import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// Lines for people: one per failing frame, one summary, and for GitHub Actions `::error`
/// annotations and a Markdown step summary.
public enum ConsoleReport {
    public static func failureLine(_ job: JobResult, _ f: FrameOutcome, color: Bool) -> String? {
        let red = color ? "\u{1B}[31m" : "", yellow = color ? "\u{1B}[33m" : "", reset = color ? "\u{1B}[0m" : ""
        // The step that made the frame, as JUnit names it: a failing frame is found in the file.
        let step = f.line.map { ", \(job.file):\($0)" + (f.column.map { ":\($0)" } ?? "") } ?? ""
        let where_ = TerminalText.visible("\(job.scenario)/\(job.device) frame \(f.index) (t=\(String(format: "%.3f", f.time))s\(step))")
        switch f.status {
        case .failed:
            var line = "\(red)FAIL\(reset) \(where_): " + (f.comparison?.summary ?? "")
            if !f.drift.isEmpty { line += " \(yellow)[environment drift: \(f.drift.joined(separator: "; "))]\(reset)" }
            return line
        case .missing: return "\(red)MISSING\(reset) \(where_): \(TerminalText.visible(f.message ?? ""))"
        case .error: return "\(red)ERROR\(reset) \(where_): \(TerminalText.visible(f.message ?? ""))"
        default: return nil
        }
    }

    /// Failing frames in a row from one step past the first three are folded into one line.
    public static let framesShownPerStep = 3

    /// A run's lines for its frames, as check and record print them:
    /// - a line per failing, missing or unreadable frame (and under `verbose` per passing,
    ///   added or changed one);
    /// - failed frames in a row from one step (its line and column): the first three each, then
    ///   one line that counts the rest, names their range and the worst (a title change failed 56
    ///   frames of one push, 56 lines; an audit, 2026-11-27); `verbose`, the report and JUnit keep
    ///   every frame, and a fold of one frame prints that frame's line instead;
    /// - an error every frame shares (an image that cannot be drawn) once, then counted: a broken
    ///   asset gave the same line for each of a run's 44 frames.
    public static func frameLines(_ job: JobResult, color: Bool, verbose: Bool) -> [String] {
        var out: [String] = []
        var repeated: (message: String, frames: [Int])?
        func flush() {
            if let r = repeated, r.frames.count > 0 {
                out.append("  (the same error for \(r.frames.count) more \(r.frames.count == 1 ? "frame" : "frames"): \(r.frames.first!)...\(r.frames.last!))")
            }
            repeated = nil
        }
        var folded: [FrameOutcome] = []
        var shownOfStep = 0
        func fold() {
            if folded.count == 1, let line = failureLine(job, folded[0], color: color) { out.append(line) }
            else if let line = foldedLine(folded) { out.append(line) }
            folded = []
        }
        // Frames in a row without a baseline: the first one's line (with the command that
        // records them), then one line for the rest (a new scenario in CI printed a line a frame,
        // each with the whole command; an audit, 2026-11-27).
        var missingMore: [Int] = []
        func flushMissing() {
            if let a = missingMore.first, let b = missingMore.last {
                out.append("  (\(missingMore.count) more \(missingMore.count == 1 ? "frame" : "frames") without a baseline: "
                           + "\(a == b ? "\(a)" : "\(a)...\(b)"); the same command records them)")
            }
            missingMore = []
        }
        var previous: FrameOutcome?
        for f in job.frames {
            let sameStep = f.status == .failed && previous?.status == .failed && f.line != nil
                && previous?.line == f.line && previous?.column == f.column
            if !sameStep { fold(); shownOfStep = 0 }
            if f.status == .missing && previous?.status == .missing && !verbose {
                previous = f
                missingMore.append(f.index)
                continue
            }
            flushMissing()
            previous = f
            if sameStep && !verbose && shownOfStep >= framesShownPerStep {
                folded.append(f)
                continue
            }
            if f.status == .failed { shownOfStep += 1 }
            if f.status == .error, let m = f.message, let r = repeated, r.message == m {
                repeated?.frames.append(f.index)
                continue
            }
            flush()
            if let line = failureLine(job, f, color: color) {
                out.append(line)
                if f.status == .error, let m = f.message { repeated = (m, []) }
            } else if verbose, f.status == .added || f.status == .changed, let m = f.message {
                out.append(m)
            } else if verbose, let line = passLine(job, f) {
                out.append(line)
            }
        }
        fold()
        flushMissing()
        flush()
        return out
    }

    static func foldedLine(_ frames: [FrameOutcome]) -> String? {
        guard let first = frames.first, let last = frames.last else { return nil }
        let worst = frames.max { ($0.comparison?.counts.mismatched ?? 0) < ($1.comparison?.counts.mismatched ?? 0) }
        let range = frames.count == 1 ? "frame \(first.index)" : "frames \(first.index)-\(last.index)"
        var line = "  ... and \(frames.count) more failing \(frames.count == 1 ? "frame" : "frames") of the same step (\(range))"
        if let w = worst, let n = w.comparison?.counts.mismatched, n > 0 { line += ", most at frame \(w.index): \(n) pixels mismatched" }
        return TerminalText.visible(line) + "; --verbose prints each"
    }

    /// A passing frame under `--verbose`: where it is, and what the rules forgave, if anything.
    public static func passLine(_ job: JobResult, _ f: FrameOutcome) -> String? {
        guard f.status == .passed else { return nil }
        var line = "pass " + TerminalText.visible("\(job.scenario)/\(job.device) frame \(f.index) (t=\(String(format: "%.3f", f.time))s)")
        // A frame whose bytes matched its baseline's was never decoded: no comparison, identical.
        line += ": " + (f.comparison?.summary ?? "identical")
        return line
    }

    public static func summary(_ r: SuiteResult) -> String {
        var parts = ["\(r.count(.passed)) passed"]
        if r.count(.failed) > 0 { parts.append("\(r.count(.failed)) failed") }
        if r.count(.missing) > 0 { parts.append("\(r.count(.missing)) missing") }
        if r.count(.added) > 0 { parts.append("\(r.count(.added)) added") }
        if r.count(.changed) > 0 { parts.append("\(r.count(.changed)) updated") }
        // "error", as the page's chip and results.json name the status.
        if r.count(.error) > 0 { parts.append("\(r.count(.error)) \(r.count(.error) == 1 ? "error" : "errors") (unreadable)") }
        if !r.scenarioErrors.isEmpty { parts.append("\(r.scenarioErrors.count) scenario \(r.scenarioErrors.count == 1 ? "error" : "errors")") }
        return "\(r.frameCount) \(r.frameCount == 1 ? "frame" : "frames") in \(r.jobs.count) \(r.jobs.count == 1 ? "run" : "runs"): " + parts.joined(separator: ", ")
    }

    /// Under `--last-failed`: that the report keeps the runs this run did not rerun, and how
    /// many of them did not pass (nil when none was carried).
    public static func carriedLine(_ r: SuiteResult) -> String? {
        let errors = r.carried.errors.count
        var parts: [String] = []
        if !r.carried.runs.isEmpty {
            let n = r.carried.runs.count
            let failing = r.carried.runs.filter { $0.frames.contains { [.failed, .missing, .error].contains($0.status) } }.count
            parts.append("the report keeps the last run's other \(n) \(n == 1 ? "run" : "runs"), not rerun"
                         + (failing > 0 ? " (\(failing) of them with frames that did not pass)" : ""))
        }
        if errors > 0 {
            parts.append((parts.isEmpty ? "the report holds " : " and ") + "\(errors) scenario \(errors == 1 ? "error" : "errors") of files the rerun did not select")
        }
        let dropped = r.carried.dropped
        if !dropped.isEmpty {
            parts.append((parts.isEmpty ? "the report " : "; it ") + "leaves out the last run's " + dropped.joined(separator: ", ")
                         + ": check \(dropped.count == 1 ? "it" : "them") again")
        }
        return parts.isEmpty ? nil : parts.joined()
    }

    /// After a run with failing frames: the `navreel approve` command that accepts them (one
    /// run's exact command when one run failed, else every failing frame of the report), which
    /// the HTML report also shows per run. Nil when nothing can be approved.
    public static func approveHint(_ r: SuiteResult, report: String, baselines: String) -> String? {
        let failing = r.jobs.filter(HTMLReport.approvable)
        guard !failing.isEmpty,
              let command = HTMLReport.approveCommand(failing.count == 1 ? failing[0] : nil, report: report, baselines: baselines,
                                                      jobs: r.jobs, project: try? ProjectFile.find())
        else { return nil }
        return "to accept the failing frames after looking at the report: \(command)"
    }

    /// After a `check` that wrote baselines because none existed: which files to review and
    /// commit, grouped by run folder (nil when it wrote none).
    public static func newBaselines(_ r: SuiteResult, baselines: String) -> String? {
        guard r.recordMode == .missing, r.count(.added) > 0 else { return nil }
        var lines = ["\(r.count(.added)) new baselines were written because none existed; this run fails so that they are noticed.",
                     "Review them (the report shows each frame), then commit them:"]
        for j in r.jobs {
            let added = j.frames.filter { $0.status == .added }.map(\.index)
            guard let first = added.first, let last = added.last else { continue }
            let folder = "\(baselines)/\(j.scenario)/\(j.device)/"
            let names = added.count == 1 ? String(format: "%04d.png", first) : String(format: "%04d.png ... %04d.png", first, last)
            lines.append("  \(folder)\(names) (\(added.count) \(added.count == 1 ? "file" : "files"))")
        }
        let folders = Array(Set(r.jobs.filter { j in j.frames.contains { $0.status == .added } }.map { "\(baselines)/\($0.scenario)" })).sorted()
        lines.append("  git add \(HTMLReport.commandLine(folders))")
        lines.append("The next check compares against them (to write baselines without failing: navreel record).")
        return lines.joined(separator: "\n")
    }

    /// Baselines no scenario produces: a note pointing at `prune` (nil when there are none).
    /// `brokenFiles`: scenario files that did not parse. Their scenarios produce nothing this run,
    /// so their baselines look orphaned; the note then says so instead of advising their removal
    /// (prune refuses until the files are mended).
    /// `remover`: the commands the note names for removing orphans.
    /// `options`: the folder options the suggested `prune` needs (`SuiteRunner.folderOptions`).
    public static func orphanNote(_ orphans: [String], baselines: String, brokenFiles: [String] = [],
                                  remover: String = "`navreel prune`", options: [String] = []) -> String? {
        let tail = options.isEmpty ? "" : " " + HTMLReport.commandLine(options)
        let remover = remover.replacingOccurrences(of: "`navreel prune`", with: "`navreel prune\(tail)`")
            .replacingOccurrences(of: "`navreel record --prune`", with: "`navreel record --prune\(tail)`")
        // Temporary files a killed run left beside baselines are said as such, not as baselines.
        let temporaries = orphans.filter { FileOutput.temporaryOwner(String($0.split(separator: "/").last ?? "")) != nil }
        let baselineOrphans = orphans.filter { !temporaries.contains($0) }
        let leftover = temporaries.first.map { first in
            "\(temporaries.count) temporary \(temporaries.count == 1 ? "file" : "files") a killed run left (\(baselines)/\(first)"
                + (temporaries.count > 1 ? " and \(temporaries.count - 1) more" : "") + "); `navreel prune\(tail)` removes them"
        }
        guard !baselineOrphans.isEmpty else { return leftover }
        return orphanNote(baselines: baselineOrphans, in: baselines, brokenFiles: brokenFiles, remover: remover, tail: tail)
            .map { note in leftover.map { note + "\n" + $0 } ?? note }
    }

    static func orphanNote(baselines orphans: [String], in baselines: String, brokenFiles: [String], remover: String, tail: String) -> String? {
        guard let first = orphans.first else { return nil }
        let more = orphans.count > 1 ? " and \(orphans.count - 1) more" : ""
        if !brokenFiles.isEmpty {
            let files = brokenFiles.prefix(3).joined(separator: ", ") + (brokenFiles.count > 3 ? " and \(brokenFiles.count - 3) more" : "")
            return "\(orphans.count) \(orphans.count == 1 ? "baseline" : "baselines") no valid scenario produces (\(baselines)/\(first)\(more)), "
                + "probably those of \(files), which \(brokenFiles.count == 1 ? "has" : "have") errors: mend \(brokenFiles.count == 1 ? "it" : "them") first "
                + "(`navreel prune` refuses until then)"
        }
        return "\(orphans.count) orphaned \(orphans.count == 1 ? "baseline" : "baselines") (no scenario produces \(orphans.count == 1 ? "it" : "them")): " +
            "\(baselines)/\(first)\(more); list them with `navreel prune --dry-run\(tail)`, remove them with \(remover)"
    }

    /// Per scenario and device, one plain line (for CI logs).
    public static func jobLine(_ j: JobResult) -> String {
        let counts = FrameOutcome.Status.allCases.compactMap { s -> String? in
            let n = j.frames.filter { $0.status == s }.count
            return n > 0 ? "\(n) \(s.rawValue)" : nil
        }
        return TerminalText.visible("\(j.scenario)/\(j.device): \(j.frames.count) frames, " + counts.joined(separator: ", "))
    }

    /// GitHub Actions annotations for failures: one per failing run, on the scenario step that
    /// produced its first failing frame, and one per scenario error at its line and column.
    public static func annotations(_ r: SuiteResult) -> [String] {
        var out: [String] = []
        for e in r.scenarioErrors { out.append(GitHubActions.annotation(diagnostic: e)) }
        for j in r.jobs {
            let bad = j.frames.filter { [.failed, .missing, .error].contains($0.status) }
            guard let first = bad.first else { continue }
            let text = "\(bad.count) of \(j.frames.count) frames failed, first at frame \(first.index): " +
                (first.comparison?.summary ?? first.message ?? first.status.rawValue)
            // A compare run's `file` is a folder, which an annotation cannot point at: its first
            // failing expected frame instead (a file of the repository, where one exists).
            out.append(GitHubActions.annotation(.error, file: j.expectedFolder == nil ? j.file : first.expectedFile, line: first.line, column: first.column,
                                                title: "NavReel \(j.ciName)", message: text))
        }
        return out
    }


    /// A Markdown table for GITHUB_STEP_SUMMARY.
    public static func markdown(_ r: SuiteResult, reportPath: String) -> String {
        var md = "## NavReel: \(r.exitCode == 0 ? "passed" : "failed")\n\n\(summary(r))\n\n"
        md += "| scenario | device | frames | passed | failed | missing | errors |\n|---|---|---:|---:|---:|---:|---:|\n"
        for j in r.jobs {
            func n(_ s: FrameOutcome.Status) -> Int { j.frames.filter { $0.status == s }.count }
            md += "| \(mdEscape(j.ciGroup)) | \(mdEscape(j.device)) | \(j.frames.count) | \(n(.passed) + n(.added) + n(.changed)) | \(n(.failed)) | \(n(.missing)) | \(n(.error)) |\n"
        }
        // The errors that kept runs out of the table, by name (the summary only counted them).
        if !r.scenarioErrors.isEmpty {
            md += "\nNot checked:\n\n" + r.scenarioErrors.prefix(10).map { "- `\($0.replacingOccurrences(of: "`", with: "'"))`\n" }.joined()
            if r.scenarioErrors.count > 10 { md += "- and \(r.scenarioErrors.count - 10) more\n" }
        }
        md += "\nReport: `\(reportPath)/index.html`\n"
        return md
    }

    static func mdEscape(_ s: String) -> String {
        s.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "<", with: "&lt;")
    }
}
