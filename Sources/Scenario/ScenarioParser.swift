import Foundation
import Yams

/// Reads scenario files (SCENARIO-FORMAT.md): YAML through Yams, every key checked, every problem
/// reported with file:line:column, all of a file's problems at once.
public enum ScenarioParser {
    static let rootKeys = ["name", "devices", "scale", "fps", "capture", "timing", "appearance", "tolerance", "screens", "steps", "barTransition"]
    static let barKeys = ["style", "tintColor", "titleColor", "color", "image", "imageMode", "gradient", "translucent",
                          "alpha", "hidden", "shadowHidden", "split", "standalone", "material", "scrollEdge"]
    /// The keys a `scrollEdge` appearance may set: how the bar looks, not what it is.
    static let scrollEdgeKeys = ["style", "tintColor", "titleColor", "color", "image", "imageMode", "gradient", "material",
                                 "alpha", "shadowHidden"]
    static let screenKeys = ["title", "largeTitle", "bar", "backButton", "rightItems", "content", "scroll", "swipeBack", "backInteractive",
                             "backButtonTitle", "backButtonDisplayMode"]
    static let actions = ["show", "push", "pop", "popTo", "wait", "scroll", "swipeBack", "setBar", "rotate"]
    static let modifiers = ["duration", "curve", "animated", "tapped"]
    static let ruleKeys = ["channel", "perceptual", "antialiasing", "translucency", "temporal", "ignore"]

    /// Names become folder names under Baselines/: [a-z0-9._-]+ (SCENARIO-FORMAT.md), and not
    /// starting with a dot, so that `.` and `..` can never lead outside the folder.
    public static func isSafeName(_ name: String) -> Bool {
        name.range(of: "^[a-z0-9_-][a-z0-9._-]*$", options: .regularExpression) != nil
    }

    /// A deeper look at an image a scenario names than `notPNG`'s: given the file's path, why it
    /// cannot be drawn (a phrase following the image's name, as "is not a readable PNG image:
    /// ..."), or nil. `lint` passes one that reads the whole file as a render would, which this
    /// module cannot do (PNG decoding lives in Raster); other commands draw the image anyway.
    public typealias ImageCheck = @Sendable (String) -> String?

    /// Reads a scenario file. Image paths are relative to `fixturesRoot` and must stay inside it.
    public static func load(path: String, fixturesRoot: String, imageCheck: ImageCheck? = nil) -> Result<Scenario, ScenarioErrors> {
        let where_ = ScenarioLocation(file: path, line: 1, column: 1)
        guard let data = FileManager.default.contents(atPath: path) else {
            // Why, where it can be told (an audit, 2026-11-29: a folder named x.yaml, a link to
            // nothing and a link loop all said "cannot read the file").
            var isDir: ObjCBool = false
            let why = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
                ? (isDir.boolValue ? ": it is a folder, not a file" : "")
                : ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil ? ": it is a symbolic link to nothing (or a loop of links)" : "")
            return .failure(ScenarioErrors([ScenarioIssue(where_, "cannot read the file" + why)]))
        }
        guard data.count <= 4 << 20 else {
            return .failure(ScenarioErrors([ScenarioIssue(where_, "the file has \(data.count) bytes; scenario files are limited to 4 MiB")]))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            // Where the first byte that is not UTF-8 is (an audit, 2026-11-29: a Latin-1 "é" on
            // line 13 was reported at 1:1).
            let bytes = [UInt8](data)
            let at = firstInvalidUTF8(bytes) ?? 0
            let (line, column) = lineColumn(ofByte: at, in: bytes)
            return .failure(ScenarioErrors([ScenarioIssue(ScenarioLocation(file: path, line: line, column: column),
                                                          "the file is not UTF-8 text: byte 0x\(String(bytes[min(at, bytes.count - 1)], radix: 16, uppercase: true)) here "
                                                          + "(save it as UTF-8)")]))
        }
        let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return parse(yaml: text, file: path, defaultName: base, fixturesRoot: fixturesRoot, imageCheck: imageCheck)
    }

    /// Parses scenario text. `fixturesRoot` nil skips the check that assets exist.
    public static func parse(yaml: String, file: String, defaultName: String, fixturesRoot: String?,
                             imageCheck: ImageCheck? = nil) -> Result<Scenario, ScenarioErrors> {
        let reader = YAMLReader(file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            return .failure(ScenarioErrors([yamlIssue(error, file: file, yaml: yaml)]))
        }
        guard let root else {
            return .failure(ScenarioErrors([ScenarioIssue(ScenarioLocation(file: file, line: 1, column: 1), "the file is empty")]))
        }
        let parser = Parser(reader: reader, fixturesRoot: fixturesRoot, imageCheck: imageCheck)
        let scenario = parser.scenario(root, defaultName: defaultName)
        if reader.issues.isEmpty, let scenario { return .success(scenario) }
        let sorted = reader.issues.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) }
        return .failure(ScenarioErrors(sorted))
    }

    /// Why an image path a scenario names cannot be drawn, as the error at its line, or nil: it
    /// must be relative, stay inside the fixtures folder (also through symbolic links), and name a
    /// PNG file there (`notPNG`, then `imageCheck`). Without `fixturesRoot` only the path's form
    /// is checked. `what` names the key ("image", "header image"). Scenarios built in Swift are
    /// checked with it too (`assertNavigation`).
    public static func assetProblem(_ p: String, what: String, fixturesRoot: String?, imageCheck: ImageCheck? = nil) -> String? {
        if p.isEmpty { return "\(what) is an empty path: give a PNG file's path relative to Fixtures/" }
        if p.hasPrefix("/") || p.hasPrefix("~") {
            return "\(what) `\(p)` must be a path relative to Fixtures/, not an absolute path"
        }
        var depth = 0
        for part in p.split(separator: "/", omittingEmptySubsequences: true) {
            if part == ".." { depth -= 1 } else if part != "." { depth += 1 }
            if depth < 0 { return "\(what) `\(p)` leaves the Fixtures folder; paths must stay inside it" }
        }
        guard let root = fixturesRoot else { return nil }
        let full = (root as NSString).appendingPathComponent(p)
        var isDir: ObjCBool = false
        if FileManager.default.fileExists(atPath: full, isDirectory: &isDir), isDir.boolValue {
            return "\(what) `\(p)` is a folder, not a PNG file (\(full))"
        }
        if !FileManager.default.fileExists(atPath: full, isDirectory: &isDir) {
            // Where it was looked for, and why there: "not a file under ." told a user nothing (an
            // audit, 2026-11-27).
            let base = root == "." ? "the working folder" : "`\(root)`"
            return "missing asset: \(what) `\(p)` is not a file: no \(full) (image paths are relative to \(base), "
                + "the folder above the scenarios folder)" + scaledNameHint(p, root: root)
        }
        // A symbolic link inside Fixtures/ must not lead outside it either.
        let resolvedRoot = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let resolved = URL(fileURLWithPath: full).resolvingSymlinksInPath().path
        if !resolved.hasPrefix(resolvedRoot + "/") { return "\(what) `\(p)` resolves outside the Fixtures folder" }
        if let problem = Parser.notPNG(full) ?? imageCheck?(full) { return "\(what) `\(p)` \(problem)" }
        return nil
    }

    /// For a missing `name.png` beside a `name@3x.png` (or @2x): UIKit's `imageNamed:` finds the
    /// scaled file from the plain name, NavReel takes the file named; the hint names the one there.
    static func scaledNameHint(_ p: String, root: String) -> String {
        let ns = p as NSString
        let stem = ns.deletingPathExtension, ext = ns.pathExtension
        guard ext.lowercased() == "png", !stem.hasSuffix("@2x"), !stem.hasSuffix("@3x") else { return "" }
        let found = ["@3x", "@2x"].map { stem + $0 + "." + ext }.filter {
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: (root as NSString).appendingPathComponent($0), isDirectory: &isDir) && !isDir.boolValue
        }
        guard !found.isEmpty else { return "" }
        return " (did you mean \(found.map { "`\($0)`" }.joined(separator: " or "))? NavReel reads the file named, and takes its scale from the name)"
    }

    /// A text's lines as YAML numbers them: LF, CRLF (one Character in Swift, which a split on
    /// "\n" does not cut) and CR end a line.
    static func lines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }
    }

    /// A hint when a line up to the error holds an unquoted colour after `:`, `,`, `[` or `{`
    /// (`{color: #FFFFFF}`): YAML reads `#` there as the start of a comment, so a flow mapping
    /// loses its closing brace and the parser complains about the line after. The block form
    /// (`color: #FFFFFF` alone) parses, and the `color` check explains it (`YAMLReader.color`).
    static func colourCommentHint(_ yaml: String, upTo line: Int) -> String {
        var number = 0
        for text in lines(yaml) {
            number += 1
            if number > line { break }
            if let m = text.firstMatch(of: /[:,\[{][ \t]+#([0-9A-Fa-f]{3,8})\b/) {
                return "; line \(number) has an unquoted colour (#\(m.1)): an unquoted # starts a YAML comment, so quote it (\"#\(m.1)\")"
            }
        }
        return ""
    }

    /// A hint when the error's line is indented with a tab: YAML indents with spaces only, and
    /// the scanner's own words ("found character that cannot start any token") never say tab.
    static func tabHint(_ yaml: String, line: Int) -> String {
        let all = lines(yaml)
        guard line >= 1, line <= all.count else { return "" }
        let indent = all[line - 1].prefix { $0 == " " || $0 == "\t" }
        return indent.contains("\t") ? "; line \(line) is indented with a tab: YAML indents with spaces only" : ""
    }

    /// Where `key` appears again after its first place (1-based line and column): later on the
    /// same line (a flow mapping), or at the same indentation on a later line of the same block.
    static func repeatedKey(_ key: String, yaml: String, line: Int, column: Int) -> (line: Int, column: Int)? {
        let all = lines(yaml)
        guard line >= 1, line <= all.count, column >= 1 else { return nil }
        let spellings = [key, "\"\(key)\"", "'\(key)'"]
        func keyAt(_ text: Substring) -> Bool {
            spellings.contains { text.hasPrefix($0) && text.dropFirst($0.count).drop { $0 == " " }.first == ":" }
        }
        // Later on the same line: after a comma of the same flow mapping, not of one nested in it
        // (`{title: A, bar: {title: x}, title: B}` repeats at B), and not inside a quoted scalar. A
        // quote opens one only where a scalar starts (after `{`, `[`, `,` or `:`), so the
        // apostrophe of `What's New` does not; `\"` and `''` stay inside.
        let first = Array(all[line - 1])
        var i = column, depth = 0
        var quote: Character?
        var lastSignificant: Character = "{"
        while i < first.count {
            let c = first[i]
            if let q = quote {
                if q == "\"" && c == "\\" { i += 2; continue }
                if c == q {
                    if q == "'" && i + 1 < first.count && first[i + 1] == "'" { i += 2; continue }
                    quote = nil
                    lastSignificant = c
                }
                i += 1
                continue
            }
            if (c == "\"" || c == "'") && "{[,:".contains(lastSignificant) {
                quote = c
            } else if c == "{" || c == "[" {
                depth += 1
            } else if c == "}" || c == "]" {
                depth -= 1
                if depth < 0 { break }   // the mapping ended
            } else if c == "," && depth == 0 {
                var j = i + 1
                while j < first.count && first[j] == " " { j += 1 }
                if j < first.count && keyAt(Substring(String(first[j...]))) { return (line, j + 1) }
            }
            if c != " " { lastSignificant = c }
            i += 1
        }
        let indent = column - 1
        for n in line..<all.count {
            let text = all[n]
            let lead = text.prefix { $0 == " " }.count
            let rest = text.dropFirst(lead)
            if rest.isEmpty || rest.hasPrefix("#") { continue }
            if lead < indent { return nil }   // the block ended
            if lead == indent && keyAt(rest) { return (n + 1, lead + 1) }
        }
        return nil
    }

    /// A hint when the error's line (or the one before it, where the scanner often stops after
    /// the culprit) starts in a column no line above it starts in: the usual cause of "did not find
    /// expected key" is a key one space off its siblings, and the scanner never says so.
    static func indentHint(_ yaml: String, line: Int) -> String {
        let all = lines(yaml)
        func lead(_ t: Substring) -> Int { t.prefix { $0 == " " }.count }
        func meaningful(_ t: Substring) -> Bool { let r = t.drop { $0 == " " }; return !r.isEmpty && !r.hasPrefix("#") }
        for n in [line, line - 1] where n >= 2 && n <= all.count && meaningful(all[n - 1]) {
            let column = lead(all[n - 1])
            let above = Set(all[..<(n - 1)].filter(meaningful).map(lead))
            if !above.contains(column) && column < (above.max() ?? 0) {
                let near = above.filter { $0 < column + 3 && $0 > column - 3 }.sorted()
                return "; line \(n) is indented \(column) spaces, which lines up with no line above it"
                    + (near.isEmpty ? "" : " (\(near.map(String.init).joined(separator: " or ")) nearby)")
                    + ": keys of one mapping start in the same column"
            }
        }
        return ""
    }

    /// The byte offset of the first byte that does not decode as UTF-8, or nil.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    /// 1-based line and column (in characters) of byte `offset` of `bytes`.
    static func lineColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = Swift.max(0, Swift.min(offset, bytes.count))
        var line = 1, start = 0
        for i in 0..<end where bytes[i] == 0x0A { line += 1; start = i + 1 }
        let column = String(decoding: bytes[start..<end], as: UTF8.self).count + 1
        return (line, column)
    }

    static func yamlIssue(_ error: Error, file: String, yaml: String = "") -> ScenarioIssue {
        if let e = error as? YamlError {
            switch e {
            case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
                let ctx = context.map { " (\($0.text))" } ?? ""
                return ScenarioIssue(ScenarioLocation(file: file, line: mark.line, column: mark.column),
                                     "malformed YAML: \(problem)\(ctx)\(colourCommentHint(yaml, upTo: mark.line))\(tabHint(yaml, line: mark.line))\(indentHint(yaml, line: mark.line))")
            case let .duplicatedKeysInMapping(duplicates, context):
                // Yams marks the first occurrence; the mistake is usually the later one.
                let names = duplicates.map { "`\($0)`" }.joined(separator: ", ")
                if duplicates.count == 1, let again = repeatedKey(duplicates[0], yaml: yaml, line: context.mark.line, column: context.mark.column) {
                    return ScenarioIssue(ScenarioLocation(file: file, line: again.line, column: again.column),
                                         "duplicate key \(names) in a mapping (first at line \(context.mark.line))")
                }
                return ScenarioIssue(ScenarioLocation(file: file, line: context.mark.line, column: context.mark.column),
                                     "duplicate key \(names) in a mapping")
            case let .reader(problem, offset, _, _):
                // At the character libyaml stopped on (a NUL on line 6 was reported at 1:1).
                let (line, column) = lineColumn(ofByte: offset ?? 0, in: Array(yaml.utf8))
                return ScenarioIssue(ScenarioLocation(file: file, line: line, column: column), "unreadable text: \(problem)")
            default:
                break
            }
        }
        return ScenarioIssue(ScenarioLocation(file: file, line: 1, column: 1), "malformed YAML: \(error)")
    }
}

struct Parser {
    let reader: YAMLReader
    let fixturesRoot: String?
    var imageCheck: ScenarioParser.ImageCheck? = nil
    /// Explicit image scales met so far, with where each was given.
    let imageScales = ImageScaleTable()
    /// Where `split: true` was written: HBD's key, which a plain UIKit `barTransition` cannot honour.
    let splitKeys = NodeList()

    func scenario(_ root: Node, defaultName: String) -> Scenario? {
        guard let all = reader.mapping(root, "a scenario") else { return nil }
        // Top-level keys starting `x-` are the author's own, for anchors to share (`x-dark: &dark
        // {style: black}`, then `bar: *dark` or `<<: *dark`), as Docker Compose's extension
        // fields are: read by nothing.
        let entries = all.filter { !$0.key.hasPrefix("x-") }
        let keys = reader.checkKeys(entries, allowed: ScenarioParser.rootKeys, "the scenario")

        var name = defaultName
        if let n = keys["name"] {
            if let s = reader.string(n, "name") { name = s; checkName(s, n) }
        } else if !ScenarioParser.isSafeName(defaultName) {
            reader.error(root, "the file name `\(defaultName)` is not a valid scenario name ([a-z0-9._-]+ only): rename the file or add `name:`")
        }

        var devices: [Device] = []
        if let d = keys["devices"] { devices = self.devices(d) } else { reader.error(root, "missing `devices` (for example `devices: [iphone-14]`)") }

        var scale: Double?
        if let s = keys["scale"] {
            scale = reader.double(s, "scale", min: ScenarioLimits.minRenderScale)
            // Every device the scenario renders on: the render scale may only lower its scale
            // (with `[iphone-se, iphone-14]` and scale 3, the SE rendered at 3x, above its 2x).
            if let v = scale {
                let above = devices.filter { v > $0.scale }
                if above.count == 1 && devices.count == 1 {
                    reader.error(s, "scale \(reader.format(v)) is above the device scale \(reader.format(above[0].scale)); a render scale may only lower it")
                } else if !above.isEmpty {
                    let names = above.map { "\($0.name) (\(reader.format($0.scale)))" }.joined(separator: ", ")
                    reader.error(s, "scale \(reader.format(v)) is above the device scale of \(names); a render scale may only lower it: "
                                 + "use at most \(reader.format(devices.map(\.scale).min() ?? v)), or put those devices in a scenario of their own")
                }
            }
        }
        let fps = keys["fps"].flatMap { reader.int($0, "fps", min: 1, max: 240) } ?? 30
        let capture = keys["capture"].flatMap { reader.choice($0, "capture", Scenario.Capture.self) } ?? .full
        let timing = keys["timing"].map(timingDefaults) ?? TimingDefaults()
        var appearance = BarSpec()
        if let a = keys["appearance"] { appearance = bar(a, "appearance") }
        let tolerance = keys["tolerance"].map(toleranceSpec) ?? ToleranceSpec()

        var screens: [ScreenSpec] = []
        if let s = keys["screens"], let entries = reader.mapping(s, "screens") {
            if entries.count > ScenarioLimits.maxScreens {
                reader.error(s, "`screens` has \(entries.count) screens; at most \(ScenarioLimits.maxScreens) are allowed")
            }
            for e in entries {
                checkName(e.key, e.keyNode, what: "screen name")
                screens.append(screen(e.key, e.value, keyNode: e.keyNode))
            }
            if entries.isEmpty { reader.error(s, "`screens` is empty") }
        } else if keys["screens"] == nil {
            reader.error(root, "missing `screens`")
        }

        var steps: [Step] = []
        if let s = keys["steps"], let items = reader.list(s, "steps", maxCount: ScenarioLimits.maxSteps) {
            let parsed = items.map { step($0, screens: screens.map(\.name)) }
            steps = parsed.compactMap { $0 }
            if items.isEmpty { reader.error(s, "`steps` is empty") }
            // The stack is replayed up to the first step that did not parse and would have
            // changed it (its error is reported): past it the replay would report what that
            // step's absence causes (a `show` of an unknown screen made every later push "before
            // any screen is shown"). A broken step that leaves the stack alone (a `wait: -1`) is
            // only skipped, so the stack errors after it are still reported.
            var replay: [Step] = []
            for (item, step) in zip(items, parsed) {
                if let step { replay.append(step) } else if Self.mayMoveStack(item) { break }
            }
            checkStack(replay, screens: screens, complete: replay.count == items.count)
        } else if keys["steps"] == nil {
            reader.error(root, "missing `steps`")
        }

        var scenario = Scenario(name: name, file: reader.file, devices: devices, scale: scale, fps: fps, capture: capture,
                                timing: timing, appearance: appearance, tolerance: tolerance, screens: screens, steps: steps)
        scenario.imageScales = imageScales.scales.mapValues(\.scale)
        if let b = keys["barTransition"], let mode = reader.choice(b, "barTransition", Scenario.BarTransition.self) {
            scenario.barTransition = mode
            if mode != .hbd {
                // One UIKit bar has no copies to split (a split is HBDNavigationBar's fake bars).
                for node in splitKeys.nodes {
                    reader.error(node, "`split: true` needs HBDNavigationBar's fake bars; with `barTransition: \(mode.rawValue)` the one UIKit bar never splits (remove it, or use `barTransition: hbd`)")
                }
            }
        }
        return scenario
    }

    func checkName(_ name: String, _ node: Node, what: String = "name") {
        if !ScenarioParser.isSafeName(name) {
            reader.error(node, "\(what) `\(name)` may only use a-z, 0-9, '.', '_' and '-', and may not start with '.'")
        }
    }

    // MARK: Devices

    func devices(_ node: Node) -> [Device] {
        guard let items = reader.list(node, "devices", maxCount: ScenarioLimits.maxDevices) else { return [] }
        if items.isEmpty { reader.error(node, "`devices` is empty") }
        var out: [Device] = []
        let builtInNames = Device.builtIns.map(\.name)
        for item in items {
            if case .scalar = item {
                guard let name = reader.string(item, "a device") else { continue }
                if let d = Device.named(name) { out.append(d) } else {
                    reader.error(item, "unknown device `\(name)`\(Suggestion.hint(name, builtInNames)); built-in devices: \(builtInNames.joined(separator: ", "))")
                }
                continue
            }
            guard let entries = reader.mapping(item, "a custom device") else { continue }
            let keys = reader.checkKeys(entries, allowed: ["name", "width", "height", "scale", "statusBar", "landscapeInset"], "a custom device")
            var missing = false
            for k in ["name", "width", "height", "scale", "statusBar"] where keys[k] == nil {
                reader.error(item, "a custom device needs `\(k)`")
                missing = true
            }
            guard !missing else { continue }
            let name = reader.string(keys["name"]!, "device name")
            if let name { checkName(name, keys["name"]!, what: "device name") }
            let w = reader.double(keys["width"]!, "width", min: 1, max: 4096)
            let h = reader.double(keys["height"]!, "height", min: 1, max: 4096)
            let s = reader.double(keys["scale"]!, "scale", min: 1, max: 4)
            let sb = reader.double(keys["statusBar"]!, "statusBar", min: 0, max: 200)
            // The horizontal safe area each side in landscape; 0 when not given.
            let inset = keys["landscapeInset"].map { reader.double($0, "landscapeInset", min: 0, max: 200) } ?? 0
            if let name, let w, let h, let s, let sb, let inset {
                out.append(Device(name: name, width: w, height: h, scale: s, statusBar: sb, landscapeInset: inset))
            }
        }
        let names = out.map(\.name)
        if Set(names).count != names.count { reader.error(node, "a device is listed twice") }
        return out
    }

    // MARK: Timing

    func curve(_ node: Node) -> Curve? {
        if case .sequence = node {
            guard let v = reader.numbers(node, "curve", count: 4, min: -ScenarioLimits.maxCurveY, max: ScenarioLimits.maxCurveY) else { return nil }
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                reader.error(node, "a cubic-bezier curve needs x1 and x2 within 0...1")
                return nil
            }
            return .bezier(v[0], v[1], v[2], v[3])
        }
        guard let word = reader.string(node, "curve") else { return nil }
        switch word {
        case "linear": return .linear
        case "easeInOut": return .easeInOut
        default:
            // Names other tools give curves: CSS's, UIKit's and SwiftUI's, as cubic-beziers where
            // they are one (CSS's easing keywords, W3C CSS Easing Functions 1, which UIKit's
            // UIView.AnimationCurve values are too); a spring is none.
            let named: [String: String] = ["ease": "[0.25, 0.1, 0.25, 1]", "easein": "[0.42, 0, 1, 1]", "easeout": "[0, 0, 0.58, 1]",
                                           "ease-in": "[0.42, 0, 1, 1]", "ease-out": "[0, 0, 0.58, 1]"]
            let hint: String
            if let bezier = named[word.lowercased()] {
                hint = " (`\(word)` is the cubic-bezier \(bezier): write `curve: \(bezier)`)"
            } else if word.lowercased().hasPrefix("spring") || word.lowercased() == "bouncy" || word.lowercased() == "snappy" {
                hint = " (springs are not modelled; pushes and pops default to UIKit's measured curve, and scrolls and setBar to easeInOut)"
            } else {
                hint = Suggestion.hint(word, ["linear", "easeInOut"])
            }
            reader.error(node, "curve must be linear, easeInOut or [x1, y1, x2, y2], not `\(word)`\(hint)")
            return nil
        }
    }

    func timingDefaults(_ node: Node) -> TimingDefaults {
        var out = TimingDefaults()
        guard let entries = reader.mapping(node, "timing") else { return out }
        let keys = reader.checkKeys(entries, allowed: ["profile", "push", "pop"], "timing")
        if let p = keys["profile"], let profile = reader.choice(p, "timing profile", TimingDefaults.Profile.self) {
            out = TimingDefaults(profile: profile)
        }
        for (k, v) in keys.sorted(by: { $0.key < $1.key }) where k != "profile" {
            guard let e = reader.mapping(v, "timing.\(k)") else { continue }
            let t = reader.checkKeys(e, allowed: ["duration", "curve"], "timing.\(k)")
            var timing = k == "push" ? out.push : out.pop
            if let d = t["duration"], let value = reader.double(d, "duration", min: 0, max: ScenarioLimits.maxDuration) { timing.duration = value }
            if let c = t["curve"], let value = curve(c) { timing.curve = value }
            if k == "push" { out.push = timing } else { out.pop = timing }
        }
        return out
    }

    // MARK: Bars

    /// An image path: a string, or `{file: path, scale: 2}` for a file whose name does not carry
    /// its scale (UIKit reads `name@2x.png` as 2 pixels per point; an explicit scale wins).
    func path(_ node: Node, _ what: String) -> String? {
        if case .mapping = node, let entries = reader.mapping(node, what) {
            let k = reader.checkKeys(entries, allowed: ["file", "scale"], what)
            guard let file = k["file"] else {
                reader.error(node, "\(what) needs `file`, e.g. {file: images/logo.png, scale: 2}")
                return nil
            }
            guard let p = path(file, what) else { return nil }
            if let sn = k["scale"], let scale = reader.double(sn, "\(what) scale", min: 1, max: 4) {
                if let earlier = imageScales.scales[p], earlier.scale != scale {
                    reader.error(sn, "`\(p)` is given scale \(ImageScaleTable.text(scale)) here and \(ImageScaleTable.text(earlier.scale)) at line \(earlier.line); one file has one scale")
                } else if imageScales.scales[p] == nil {
                    imageScales.scales[p] = (scale, reader.location(sn).line)
                }
            }
            return p
        }
        guard let p = reader.string(node, what) else { return nil }
        if let problem = ScenarioParser.assetProblem(p, what: what, fixturesRoot: fixturesRoot, imageCheck: imageCheck) {
            reader.error(node, problem)
            return nil
        }
        return p
    }

    /// Why the file at `path` is not a PNG image, from its first bytes (signature and header
    /// chunk, PNG specification 5.2-5.3), or nil. Lint then names a JPEG or a downloaded web page
    /// saved as `.png` at the line that uses it; before, lint passed it and check reported the
    /// same decoding error once for every frame of every device. The image data itself is
    /// checked when the frame is drawn.
    static func notPNG(_ path: String) -> String? {
        // Only a regular file is opened: reading a FIFO or a device would wait forever.
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot be read" }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        if head.count >= 16 && Array(head[0..<8]) == signature && Array(head[12..<16]) == Array("IHDR".utf8) { return nil }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "is a JPEG file; NavReel draws PNG images (convert it, e.g. `sips -s format png`)" }
        if head.starts(with: Array("GIF8".utf8)) { return "is a GIF file; NavReel draws PNG images" }
        if head.count >= 12 && Array(head[0..<4]) == Array("RIFF".utf8) && Array(head[8..<12]) == Array("WEBP".utf8) { return "is a WebP file; NavReel draws PNG images" }
        if head.isEmpty { return "is empty, not a PNG image" }
        if head.starts(with: signature) { return "is not a PNG image: it ends before its header chunk" }
        return "is not a PNG image (it does not start with the PNG signature)"
    }

    func gradient(_ node: Node) -> ScenarioGradient? {
        guard let entries = reader.mapping(node, "gradient") else { return nil }
        let keys = reader.checkKeys(entries, allowed: ["colors", "start", "end"], "gradient")
        guard let c = keys["colors"], let items = reader.list(c, "gradient colors", maxCount: ScenarioLimits.maxGradientColors) else {
            if keys["colors"] == nil { reader.error(node, "a gradient needs `colors`") }
            return nil
        }
        let colors = items.compactMap { reader.color($0, "a gradient colour") }
        guard colors.count == items.count else { return nil }
        guard colors.count >= 2 else { reader.error(c, "a gradient needs at least two colours"); return nil }
        var g = ScenarioGradient(colors: colors)
        let m = ScenarioLimits.maxGradientPoint
        if let s = keys["start"], let v = reader.numbers(s, "gradient start", count: 2, min: -m, max: m) { g.start = (v[0], v[1]) }
        if let e = keys["end"], let v = reader.numbers(e, "gradient end", count: 2, min: -m, max: m) { g.end = (v[0], v[1]) }
        if g.start == g.end { reader.error(node, "gradient start and end must differ") }
        return g
    }

    func capInsets(_ node: Node, _ what: String) -> (Double, Double, Double, Double)? {
        guard let v = reader.numbers(node, what, count: 4, min: 0, max: ScenarioLimits.maxCapInset) else { return nil }
        return (v[0], v[1], v[2], v[3])
    }

    /// `only`: the keys allowed instead of every bar key (a `scrollEdge` appearance's).
    func bar(_ node: Node, _ what: String, extra: [String] = [], only: [String]? = nil) -> BarSpec {
        var spec = BarSpec()
        guard let entries = reader.mapping(node, what) else { return spec }
        let allowed = (only ?? ScenarioParser.barKeys) + extra
        let keys = reader.checkKeys(entries, allowed: allowed, what)
        if let v = keys["style"], !extra.contains("style") { spec.style = reader.choice(v, "style", BarStyle.self) }
        if let v = keys["tintColor"] { spec.tintColor = reader.color(v, "tintColor") }
        if let v = keys["titleColor"] { spec.titleColor = reader.color(v, "titleColor") }
        if let v = keys["color"] { spec.color = reader.color(v, "color") }
        if let v = keys["image"] { spec.image = path(v, "image") }
        if let v = keys["imageMode"] {
            if case .mapping = v, let e = reader.mapping(v, "imageMode") {
                let k = reader.checkKeys(e, allowed: ["capInsets"], "imageMode")
                if let c = k["capInsets"], let insets = capInsets(c, "capInsets") { spec.imageMode = .capInsets(insets.0, insets.1, insets.2, insets.3) }
                else if k["capInsets"] == nil { reader.error(v, "imageMode takes stretch, tile or {capInsets: [top, left, bottom, right]}") }
            } else if let word = reader.string(v, "imageMode") {
                switch word {
                case "stretch": spec.imageMode = .stretch
                case "tile": spec.imageMode = .tile
                default: reader.error(v, "imageMode must be stretch, tile or {capInsets: [...]}, not `\(word)`\(Suggestion.hint(word, ["stretch", "tile"]))")
                }
            }
        }
        if let v = keys["gradient"] { spec.gradient = gradient(v) }
        if let v = keys["material"] { spec.material = reader.choice(v, "material", BarMaterial.self) }
        if let v = keys["translucent"] { spec.translucent = reader.bool(v, "translucent") }
        if let v = keys["alpha"] { spec.alpha = reader.double(v, "alpha", min: 0, max: 1) }
        if let v = keys["hidden"] { spec.hidden = reader.bool(v, "hidden") }
        if let v = keys["shadowHidden"] { spec.shadowHidden = reader.bool(v, "shadowHidden") }
        if let v = keys["split"] {
            spec.split = reader.bool(v, "split")
            if spec.split == true { splitKeys.nodes.append(v) }
        }
        if let v = keys["standalone"] {
            if case .mapping = v, let e = reader.mapping(v, "standalone") {
                let k = reader.checkKeys(e, allowed: ["topAttached"], "standalone")
                spec.standalone = Standalone(topAttached: k["topAttached"].flatMap { reader.bool($0, "topAttached") } ?? true)
            } else if let b = reader.bool(v, "standalone") {
                spec.standalone = b ? Standalone() : nil
            }
        }
        if let v = keys["scrollEdge"] {
            if case .scalar(let word) = v, word.string == "transparent" {
                spec.scrollEdge = .transparent
            } else if case .mapping = v {
                spec.scrollEdge = .bar(bar(v, "scrollEdge", only: ScenarioParser.scrollEdgeKeys))
            } else {
                reader.error(v, "scrollEdge takes `transparent` (UIKit's default: no background, no shadow) or a mapping of "
                             + "\(ScenarioParser.scrollEdgeKeys.joined(separator: ", ")), not \(reader.describe(v))")
            }
        }
        if spec.image != nil && spec.gradient != nil { reader.error(node, "\(what) has both `image` and `gradient`; choose one") }
        return spec
    }

    // MARK: Screens

    func screen(_ name: String, _ node: Node, keyNode: Node) -> ScreenSpec {
        var s = ScreenSpec(name: name, title: name, location: reader.location(keyNode))
        // Names are text too (docs/limits.md: at most 500 characters).
        if name.unicodeScalars.count > YAMLReader.maxTextLength {
            reader.error(keyNode, "screen name has \(name.unicodeScalars.count) characters; at most \(YAMLReader.maxTextLength) are allowed")
        }
        guard let entries = reader.mapping(node, "screen `\(name)`") else { return s }
        let keys = reader.checkKeys(entries, allowed: ScenarioParser.screenKeys, "screen `\(name)`", nested: ["bar": ScenarioParser.barKeys])
        if let v = keys["title"] { s.title = reader.string(v, "title") ?? name }
        if let v = keys["largeTitle"] { s.largeTitle = reader.bool(v, "largeTitle") ?? false }
        if let v = keys["bar"] { s.bar = bar(v, "the bar of `\(name)`") }
        if let v = keys["backButton"], let e = reader.mapping(v, "backButton") {
            let k = reader.checkKeys(e, allowed: ["title", "image", "capInsets", "displayMode"], "backButton")
            var b = BackButtonSpec()
            if let t = k["title"] { b.title = reader.string(t, "backButton title") }
            if let d = k["displayMode"] { b.displayMode = reader.choice(d, "displayMode", BackButtonDisplayMode.self) }
            if let i = k["image"] { b.image = path(i, "backButton image") }
            if let c = k["capInsets"] { b.capInsets = capInsets(c, "capInsets") }
            if b.capInsets != nil && b.image == nil { reader.error(v, "capInsets needs a backButton image") }
            // A custom back button is a back bar button item of its own: UIKit applies the display
            // mode only without one ("When the backBarButtonItem property is nil").
            if let d = k["displayMode"], b.image != nil { reader.error(d, "displayMode applies to the standard back button, not to one with an image") }
            s.backButton = b
        }
        // UIKit's navigation item keys for the back button of the screens pushed over this one.
        if let v = keys["backButtonTitle"] { s.backButtonTitle = reader.string(v, "backButtonTitle") }
        if let v = keys["backButtonDisplayMode"] { s.backButtonDisplayMode = reader.choice(v, "backButtonDisplayMode", BackButtonDisplayMode.self) }
        if let v = keys["rightItems"], let items = reader.list(v, "rightItems", maxCount: ScenarioLimits.maxRightItems) {
            s.rightItems = items.compactMap { reader.string($0, "a right item") }
        }
        if let v = keys["content"] { s.content = content(v) }
        if let v = keys["scroll"] { s.scroll = scroll(v) }
        if let v = keys["swipeBack"] { s.swipeBack = reader.bool(v, "swipeBack") ?? true }
        if let v = keys["backInteractive"] { s.backInteractive = reader.bool(v, "backInteractive") ?? true }
        return s
    }

    func content(_ node: Node) -> ContentSpec {
        var c = ContentSpec()
        guard let entries = reader.mapping(node, "content") else { return c }
        let keys = reader.checkKeys(entries, allowed: ["color", "rows", "header", "tiles", "extendsUnderOpaqueBar"], "content")
        if let v = keys["color"], let color = reader.color(v, "content color") { c.color = color }
        if let v = keys["rows"] { c.rows = reader.int(v, "rows", min: 0, max: 1000) ?? 0 }
        if let v = keys["tiles"] { c.tiles = reader.int(v, "tiles", min: 0, max: 10_000) ?? 0 }
        if let v = keys["extendsUnderOpaqueBar"] { c.extendsUnderOpaqueBar = reader.bool(v, "extendsUnderOpaqueBar") ?? false }
        if let v = keys["header"], let e = reader.mapping(v, "header") {
            let k = reader.checkKeys(e, allowed: ["image", "gradient", "height", "stretch", "parallax"], "header")
            let height = k["height"].flatMap { reader.double($0, "header height", min: 1, max: 4096) }
            if k["height"] == nil { reader.error(v, "a header needs `height`") }
            let image = k["image"].flatMap { self.path($0, "header image") }
            let headerGradient = k["gradient"].flatMap { self.gradient($0) }
            if k["image"] == nil && k["gradient"] == nil { reader.error(v, "a header needs `image` or `gradient`") }
            if k["image"] != nil && k["gradient"] != nil { reader.error(v, "a header has either `image` or `gradient`, not both") }
            let stretch = k["stretch"].flatMap { reader.bool($0, "header stretch") } ?? false
            let parallax = k["parallax"].flatMap { reader.double($0, "header parallax", min: 0, max: 1) } ?? 1
            if let height { c.header = HeaderSpec(image: image, gradient: headerGradient, height: height, stretch: stretch, parallax: parallax) }
        }
        return c
    }

    func scroll(_ node: Node) -> ScrollSpec {
        var s = ScrollSpec()
        guard let entries = reader.mapping(node, "scroll") else { return s }
        let keys = reader.checkKeys(entries, allowed: ["alpha", "styleBelowAlpha", "shadowFrom", "titleFollowsAlpha"], "scroll")
        if let v = keys["alpha"], let e = reader.mapping(v, "scroll.alpha") {
            let k = reader.checkKeys(e, allowed: ["start", "end", "exponent", "max"], "scroll.alpha")
            let o = ScenarioLimits.maxOffset
            let start = k["start"].flatMap { reader.double($0, "start", min: -o, max: o) } ?? 0
            let end = k["end"].flatMap { reader.double($0, "end", min: -o, max: o) }
            let exponent = k["exponent"].flatMap {
                reader.double($0, "exponent", min: ScenarioLimits.exponentRange.lowerBound, max: ScenarioLimits.exponentRange.upperBound)
            } ?? 1
            let max = k["max"].flatMap { reader.double($0, "scroll.alpha max", min: 0, max: 1) } ?? 1
            if k["end"] == nil { reader.error(v, "scroll.alpha needs `end`") }
            if let end {
                if end <= start { reader.error(v, "scroll.alpha end must be greater than start") } else {
                    s.alpha = ScrollSpec.AlphaRule(start: start, end: end, exponent: exponent, max: max)
                }
            }
        }
        if let v = keys["styleBelowAlpha"], let e = reader.mapping(v, "styleBelowAlpha") {
            let k = reader.checkKeys(e, allowed: ["alpha", "style", "tintColor", "titleColor"], "styleBelowAlpha")
            if k["alpha"] == nil { reader.error(v, "styleBelowAlpha needs `alpha`") }
            if let a = k["alpha"].flatMap({ reader.double($0, "alpha", min: 0, max: 1) }) {
                s.styleBelowAlpha = ScrollSpec.StyleRule(alpha: a, style: k["style"].flatMap { reader.choice($0, "style", BarStyle.self) },
                                                         tintColor: k["tintColor"].flatMap { reader.color($0, "tintColor") },
                                                         titleColor: k["titleColor"].flatMap { reader.color($0, "titleColor") })
            }
        }
        if let v = keys["shadowFrom"] { s.shadowFrom = reader.double(v, "shadowFrom", min: -ScenarioLimits.maxOffset, max: ScenarioLimits.maxOffset) }
        if let v = keys["titleFollowsAlpha"], let b = reader.bool(v, "titleFollowsAlpha") { s.titleFollowsAlpha = b }
        return s
    }

    // MARK: Tolerance

    func rule(_ entries: [String: Node], into r: inout ToleranceSpec.Rule) {
        if let v = entries["channel"] { r.channel = reader.int(v, "channel", min: 0, max: 255) }
        if let v = entries["perceptual"] { r.perceptual = reader.double(v, "perceptual", min: 0, max: 1) }
        if let v = entries["antialiasing"] { r.antialiasing = reader.bool(v, "antialiasing") }
        if let v = entries["translucency"] { r.translucency = reader.int(v, "translucency", min: 0, max: 255) }
        if let v = entries["temporal"] {
            // `temporal: 1` in COMPARISON.md; true/false also accepted.
            if v.int != nil, case .scalar = v { r.temporal = reader.int(v, "temporal", min: 0, max: 1).map { $0 != 0 } } else { r.temporal = reader.bool(v, "temporal") }
        }
        if let v = entries["ignore"] { r.ignore = reader.bool(v, "ignore") }
    }

    func toleranceSpec(_ node: Node) -> ToleranceSpec {
        var t = ToleranceSpec()
        guard let entries = reader.mapping(node, "tolerance") else { return t }
        let keys = reader.checkKeys(entries, allowed: ScenarioParser.ruleKeys.filter { $0 != "ignore" } + ["maxDiffPixels", "maxDiffRatio", "elements", "regions"], "tolerance")
        rule(keys, into: &t.base)
        if let v = keys["maxDiffPixels"] { t.maxDiffPixels = reader.int(v, "maxDiffPixels", min: 0, max: ScenarioLimits.maxDiffPixels) }
        if let v = keys["maxDiffRatio"] { t.maxDiffRatio = reader.double(v, "maxDiffRatio", min: 0, max: 1) }
        if let v = keys["elements"], let e = reader.mapping(v, "tolerance.elements") {
            let names = Element.allCases.map(\.key)
            for item in e {
                guard names.contains(item.key) else {
                    reader.error(item.keyNode, "unknown element `\(item.key)`\(Suggestion.hint(item.key, names)); elements: \(names.joined(separator: ", "))")
                    continue
                }
                var r = ToleranceSpec.Rule()
                if case .scalar(let s) = item.value {
                    if s.string == "ignore" { r.ignore = true } else {
                        reader.error(item.value, "an element takes `ignore` or a mapping of tolerances, not `\(s.string)`")
                    }
                } else if let m = reader.mapping(item.value, "element `\(item.key)`") {
                    rule(reader.checkKeys(m, allowed: ScenarioParser.ruleKeys, "element `\(item.key)`"), into: &r)
                }
                t.elements[item.key] = r
            }
        }
        if let v = keys["regions"], let items = reader.list(v, "tolerance.regions", maxCount: ScenarioLimits.maxRegions) {
            for item in items {
                guard let m = reader.mapping(item, "a region") else { continue }
                let k = reader.checkKeys(m, allowed: ["rect"] + ScenarioParser.ruleKeys, "a region")
                guard let rectNode = k["rect"] else { reader.error(item, "a region needs `rect: [x, y, width, height]` in points"); continue }
                guard let rect = reader.numbers(rectNode, "rect", count: 4, min: -ScenarioLimits.maxOffset, max: ScenarioLimits.maxOffset) else { continue }
                if rect[2] <= 0 || rect[3] <= 0 { reader.error(rectNode, "a region's width and height must be positive"); continue }
                var r = ToleranceSpec.Rule()
                rule(k, into: &r)
                t.regions.append(ToleranceSpec.Region(rect: (rect[0], rect[1], rect[2], rect[3]), rule: r))
            }
        }
        return t
    }

    // MARK: Steps

    func step(_ node: Node, screens: [String]) -> Step? {
        if case .scalar(let bare) = node, ScenarioParser.actions.contains(bare.string) {
            // `- pop` alone: the action without its value.
            let example = bare.string == "pop" ? "pop: {}" : bare.string == "swipeBack" ? "swipeBack: {to: 1}" : "\(bare.string): …"
            reader.error(node, "a step must be a mapping (key: value), not `\(bare.string)`: write `- \(example)`")
            return nil
        }
        guard let entries = reader.mapping(node, "a step") else { return nil }
        let actionEntries = entries.filter { ScenarioParser.actions.contains($0.key) }
        for e in entries where !ScenarioParser.actions.contains(e.key) && !ScenarioParser.modifiers.contains(e.key) {
            reader.error(e.keyNode, "unknown key `\(e.key)` in a step\(Suggestion.uikitHint(e.key) ?? Suggestion.hint(e.key, ScenarioParser.actions + ScenarioParser.modifiers))")
        }
        guard actionEntries.count == 1, let actionEntry = actionEntries.first else {
            if actionEntries.isEmpty {
                reader.error(node, "a step needs one action: \(ScenarioParser.actions.joined(separator: ", "))")
            } else {
                reader.error(node, "a step has one action, not \(actionEntries.map { "`\($0.key)`" }.joined(separator: " and "))")
            }
            return nil
        }
        var step = Step(action: .wait(0), location: reader.location(actionEntry.keyNode))
        // An action whose own value is wrong: the step is dropped, but its other keys and
        // modifiers are still checked, so that lint reports every problem at once.
        var invalid = false
        // Modifiers beside the action key...
        var modifierNodes: [String: Node] = [:]
        for e in entries where ScenarioParser.modifiers.contains(e.key) { modifierNodes[e.key] = e.value }
        let value = actionEntry.value
        func screenName(_ what: String) -> String? {
            guard let n = reader.string(value, what) else { return nil }
            guard screens.contains(n) else {
                reader.error(value, "unknown screen `\(n)`\(Suggestion.hint(n, screens))")
                return nil
            }
            return n
        }
        /// ...or inside the action's own mapping: both spellings mean the same.
        func inner(_ allowed: [String], _ what: String) -> [String: Node]? {
            guard let m = reader.mapping(value, what) else { return nil }
            var k = reader.checkKeys(m, allowed: allowed + ScenarioParser.modifiers, what)
            for mod in ScenarioParser.modifiers {
                if let n = k.removeValue(forKey: mod) {
                    if modifierNodes[mod] != nil { reader.error(n, "`\(mod)` is given twice in this step") }
                    modifierNodes[mod] = n
                }
            }
            return k
        }

        switch actionEntry.key {
        case "show":
            guard let n = screenName("show") else { return nil }
            step.action = .show(n)
        case "push":
            guard let n = screenName("push") else { return nil }
            step.action = .push(n)
        case "popTo":
            guard let n = screenName("popTo") else { return nil }
            step.action = .popTo(n)
        case "pop":
            if case .mapping = value { _ = inner([], "pop") } else if value.tag != Tag(.null) {
                reader.error(value, "pop takes {} (or {duration: ..., curve: ..., tapped: true}), not \(reader.describe(value))")
            }
            step.action = .pop
        case "wait":
            guard let s = reader.double(value, "wait", min: 0, max: ScenarioLimits.maxWait) else { return nil }
            step.action = .wait(s)
        case "scroll":
            guard let k = inner(["to"], "scroll") else { return nil }
            // Negative offsets pull the content down (rubber-banding): a large-title bar stretches.
            if let to = k["to"] {
                if let v = reader.double(to, "scroll to", min: -300, max: ScenarioLimits.maxOffset) { step.action = .scroll(to: v) } else { invalid = true }
            } else {
                reader.error(value, "scroll needs `to` (the content offset in points)")
                invalid = true
            }
        case "swipeBack":
            guard let k = inner(["to", "release"], "swipeBack") else { return nil }
            let release = k["release"].flatMap { reader.choice($0, "release", Release.self) }
            if let to = k["to"] {
                if let v = reader.double(to, "swipeBack to", min: 0, max: 1) { step.action = .swipeBack(to: v, release: release) } else { invalid = true }
            } else {
                reader.error(value, "swipeBack needs `to` (how far the finger drags, 0...1 of the width)")
                invalid = true
            }
        case "setBar":
            guard case .mapping = value, let m = reader.mapping(value, "setBar") else {
                reader.error(value, "setBar takes a mapping of bar keys")
                return nil
            }
            // `style` is either the bar style (default | black) or how to hide (fade | slide).
            var hideStyle = HideStyle.fade
            var hideStyleNode: Node?
            var barEntries: [(key: String, keyNode: Node, value: Node)] = []
            for e in m {
                if ScenarioParser.modifiers.contains(e.key) {
                    if modifierNodes[e.key] != nil { reader.error(e.value, "`\(e.key)` is given twice in this step") }
                    modifierNodes[e.key] = e.value
                } else if e.key == "style", case .scalar(let s) = e.value, let h = HideStyle(rawValue: s.string) {
                    hideStyle = h
                    hideStyleNode = e.value
                } else if e.key == "style", case .scalar(let s) = e.value, BarStyle(rawValue: s.string) == nil {
                    // One key, two meanings: say both rather than only the bar style's values.
                    reader.error(e.value, "style in setBar is the bar style (\(BarStyle.allCases.map(\.rawValue).joined(separator: ", "))) "
                                 + "or, with `hidden`, how the bar hides or shows (\(HideStyle.allCases.map(\.rawValue).joined(separator: ", "))); not `\(s.string)`"
                                 + (Suggestion.barStyleNames[s.string.lowercased()].map { " (\($0))" } ?? ""))
                    invalid = true
                } else {
                    barEntries.append(e)
                }
            }
            let spec = bar(Node.mapping(Node.Mapping(barEntries.map { ($0.keyNode, $0.value) }, .implicit, .block, value.mark)),
                           "setBar")
            // A hide style beside other keys and no `hidden` is accepted and does nothing, as it always
            // was (scenarios written so keep working); alone, it is the step's only key.
            if barEntries.isEmpty && !invalid {
                reader.error(value, "setBar needs at least one bar key" + (hideStyleNode == nil ? "" :
                    "; style: \(hideStyle.rawValue) only says how `hidden` animates (`setBar: {hidden: true, style: \(hideStyle.rawValue)}`)"))
            }
            step.action = .setBar(spec, style: hideStyle)
        case "rotate":
            guard let o = reader.choice(value, "rotate", Orientation.self) else { return nil }
            step.action = .rotate(o)
        default:
            return nil
        }

        if let d = modifierNodes["duration"] { step.duration = reader.double(d, "duration", min: 0, max: ScenarioLimits.maxDuration) }
        if let c = modifierNodes["curve"] { step.curve = curve(c) }
        if let a = modifierNodes["animated"] { step.animated = reader.bool(a, "animated") }
        if let n = modifierNodes["tapped"] {
            step.tapped = reader.bool(n, "tapped")
            switch step.action {
            case .pop, .popTo: break
            default: reader.error(n, "tapped is for pop and popTo: the back button that a tap highlights (a \(step.action.keyword) has none)")
            }
        }
        if invalid { return nil }
        if case .wait = step.action, modifierNodes["curve"] != nil || modifierNodes["animated"] != nil {
            reader.error(at: step.location, "wait takes no curve or animated")
        }
        if case .show = step.action, modifierNodes["duration"] != nil || modifierNodes["curve"] != nil {
            reader.error(at: step.location, "show is instant and takes no duration or curve")
        }
        return step
    }

    /// Whether a step that did not parse could have changed the stack: its one action is `show`,
    /// `push`, `pop`, `popTo` or `swipeBack`, or it has no single action to tell.
    static func mayMoveStack(_ node: Node) -> Bool {
        guard case .mapping(let m) = node else { return true }
        let actions = m.keys.compactMap(\.string).filter { ScenarioParser.actions.contains($0) }
        guard actions.count == 1 else { return true }
        return ["show", "push", "pop", "popTo", "swipeBack"].contains(actions[0])
    }

    /// Replays the steps with the timeline's own stack rules to report impossible ones where
    /// they are written.
    /// `complete`: every step parsed, so a finger still down after the last one is an error (with
    /// steps missing, the step that would have lifted it may be the broken one).
    func checkStack(_ steps: [Step], screens: [ScreenSpec], complete: Bool) {
        var stack: [String] = []
        var fingerDown: ScenarioLocation?
        for (i, step) in steps.enumerated() {
            if i == 0, case .show = step.action {} else if i == 0 {
                reader.error(at: step.location, "the first step must be `show: SCREEN`")
            }
            switch StackRules.apply(step.action, to: stack, fingerDown: fingerDown, screen: { name in screens.first { $0.name == name } }) {
            case .stack(let next):
                stack = next
                if case .swipeBack = step.action { fingerDown = StackRules.holds(step.action) ? step.location : nil }
            case .refused: break
            case .invalid(let why): reader.error(at: step.location, why)
            }
        }
        if complete, let held = fingerDown {
            reader.error(at: held, "the run ends with the finger still down (`release: hold`): "
                + "end the swipe with a swipeBack that lifts it (`release: finish` or `cancel`)")
        }
    }
}

/// YAML nodes collected while parsing, shared by the parser's value copies.
final class NodeList {
    var nodes: [Node] = []
}

/// Explicit image scales of one scenario file, shared by the parser's value copies.
final class ImageScaleTable {
    var scales: [String: (scale: Double, line: Int)] = [:]
    static func text(_ s: Double) -> String { s == s.rounded() ? String(Int(s)) : String(s) }
}
