import Foundation

/// The HTML report: one self-contained page (no server, no network) beside results.json.
public enum HTMLReport {
    public static func write(_ r: SuiteResult, to folder: String) throws {
        try FileOutput.write(page(r), to: folder + "/index.html")
    }

    static func esc(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }

    static func page(_ r: SuiteResult) -> String {
        var body = "<h1>NavReel report</h1><p class=summary>\(esc(ConsoleReport.summary(r)))</p>"
        for e in r.scenarioErrors { body += "<p class=error>\(esc(e))</p>" }
        for j in r.jobs {
            let bad = j.frames.filter { $0.status != .passed && $0.status != .added && $0.status != .changed }
            body += "<section><h2>\(esc(j.scenario)) / \(esc(j.device))</h2><p>\(esc(ConsoleReport.jobLine(j)))</p>"
            for f in bad {
                body += "<article class=frame><h3>frame \(f.index) · t = \(String(format: "%.3f", f.time)) s · \(esc(f.status.rawValue))</h3>"
                body += "<p>\(esc(f.comparison?.summary ?? f.message ?? ""))</p>"
                if !f.drift.isEmpty { body += "<p class=drift>environment drift: \(esc(f.drift.joined(separator: "; ")))</p>" }
                body += "<div class=trio>"
                for (label, path) in [("expected", f.expected), ("actual", f.actual), ("diff", f.diff)] {
                    if let path { body += "<figure><figcaption>\(label)</figcaption><img src=\"\(esc(path))\" alt=\"\(label)\"></figure>" }
                }
                body += "</div></article>"
            }
            body += "</section>"
        }
        return """
        <!doctype html><html lang=en><head><meta charset=utf-8><title>NavReel report</title>
        <style>body{font:14px system-ui,sans-serif;margin:24px;color:#1c1c1e}.trio{display:flex;gap:12px;flex-wrap:wrap}
        figure{margin:0}img{max-width:360px;image-rendering:pixelated;border:1px solid #ccc}.error,.drift{color:#c00}</style>
        </head><body>\(body)</body></html>
        """
    }
}
