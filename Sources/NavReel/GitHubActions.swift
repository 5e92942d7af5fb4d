import Compare
import Foundation
import Navigation
import Raster
import Scenario

/// GitHub Actions workflow commands ("Workflow commands for GitHub Actions", docs.github.com):
/// `::error file=F,line=L,col=C,title=T::message` puts an annotation on line L of F in the pull
/// request. Escaping follows @actions/core (toolkit/packages/core/src/command.ts): in the message
/// `%`, CR and LF; in properties also `:` and `,`.
public enum GitHubActions {
    public enum Level: String, Sendable { case error, warning, notice }

    public static func annotation(_ level: Level, file: String? = nil, line: Int? = nil, column: Int? = nil,
                                  title: String? = nil, message: String) -> String {
        var props: [String] = []
        if let file, !file.isEmpty { props.append("file=" + escapeProperty(file)) }
        if let line, line > 0 { props.append("line=\(line)") }
        if let column, column > 0 { props.append("col=\(column)") }
        if let title { props.append("title=" + escapeProperty(title)) }
        return "::\(level.rawValue)" + (props.isEmpty ? "" : " " + props.joined(separator: ",")) + "::" + escapeData(message)
    }

    public static func escapeData(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    public static func escapeProperty(_ s: String) -> String {
        escapeData(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// A diagnostic line `FILE:LINE:COLUMN: error|warning: MESSAGE` (lint's format, and the text of
    /// a scenario error in results) as an annotation; other text becomes a file-less error.
    public static func annotation(diagnostic text: String) -> String {
        let pattern = #"^(.+):(\d+):(\d+): (error|warning): (.*)$"#
        guard let re = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]),
              let m = re.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)), m.numberOfRanges == 6 else {
            return annotation(.error, title: "NavReel", message: text)
        }
        func group(_ i: Int) -> String { Range(m.range(at: i), in: text).map { String(text[$0]) } ?? "" }
        return annotation(group(4) == "warning" ? .warning : .error, file: group(1), line: Int(group(2)), column: Int(group(3)),
                          title: "NavReel lint", message: group(5))
    }

    /// Appends to the step summary file (GITHUB_STEP_SUMMARY), creating it when it does not exist
    /// yet: the runner names the file but does not always create it first.
    public static func appendSummary(_ markdown: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw UsageError("\(path): cannot open the step summary: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(markdown.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; throw UsageError("\(path): cannot write the step summary: \(String(cString: strerror(errno)))") }
            offset += n
        }
    }
}
