import Foundation

// Scenarios in Swift. The builder reads like the YAML format and produces it: every value
// goes through the same parser and checks as a scenario file, so anything a file can say a Swift
// scenario can say, the two give the same frames, and a mistake is reported at the Swift line
// that made it.
//
//     let scenario = try Scenario(name: "wechat-pop", devices: ["iphone-14"]) {
//         Screen("me", title: "Me", bar: ["style": "black", "color": "#2B2B2B"])
//         Screen("favorites", title: "Favorites", rightItems: ["Edit"], content: ["rows": 20])
//     } steps: {
//         Show("me")
//         Push("favorites", duration: 0.4)
//         SwipeBack(to: 0.4, release: "cancel")
//         Pop()
//     }

/// A YAML value written as a Swift literal: `"black"`, `20`, `0.4`, `true`, `[...]`,
/// `["key": value]` (keys keep their order).
public indirect enum ScenarioValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case string(String)
    case int(Int)
    case number(Double)
    case bool(Bool)
    case list([ScenarioValue])
    case map([Pair])

    public struct Pair: Sendable, Equatable {
        public var key: String
        public var value: ScenarioValue
    }

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: ScenarioValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, ScenarioValue)...) { self = .map(elements.map { Pair(key: $0.0, value: $0.1) }) }

    /// Flow-style YAML: strings always quoted (JSON escapes are YAML's), so `no`, `1.0` or `#FFF`
    /// stay strings.
    public var yaml: String {
        switch self {
        case .string(let s): return Self.quoted(s)
        case .int(let i): return String(i)
        case .number(let d):
            guard d.isFinite else { return d.isNaN ? ".nan" : (d < 0 ? "-.inf" : ".inf") }
            return d == d.rounded() && abs(d) < 1e15 ? String(format: "%.1f", d) : "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .list(let items): return "[" + items.map(\.yaml).joined(separator: ", ") + "]"
        case .map(let pairs): return "{" + pairs.map { Self.quoted($0.key) + ": " + $0.value.yaml }.joined(separator: ", ") + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 || u.value == 0x7F { out += String(format: "\\u%04X", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }
}

/// Where a piece of a Swift scenario was written, for errors.
public struct ScenarioSourceLine: Sendable, Equatable {
    public var fileID: String
    public var line: Int
    public init(fileID: String, line: Int) { self.fileID = fileID; self.line = line }
}

/// A screen of a Swift scenario: `Screen("me", title: "Me", bar: [...])`.
public struct ScenarioScreen: Sendable {
    public var name: String
    public var keys: [ScenarioValue.Pair]
    public var source: ScenarioSourceLine

    /// The keys of a screen in the YAML format; `more` takes any key by name.
    public static func make(_ name: String, title: String? = nil, largeTitle: Bool? = nil, bar: ScenarioValue? = nil,
                              backButton: ScenarioValue? = nil, rightItems: [String]? = nil, content: ScenarioValue? = nil,
                              scroll: ScenarioValue? = nil, swipeBack: Bool? = nil, backInteractive: Bool? = nil,
                              more: KeyValuePairs<String, ScenarioValue> = [:],
                              fileID: String = #fileID, line: Int = #line) -> ScenarioScreen {
        var keys: [ScenarioValue.Pair] = []
        func add(_ k: String, _ v: ScenarioValue?) { if let v { keys.append(.init(key: k, value: v)) } }
        add("title", title.map { .string($0) })
        add("largeTitle", largeTitle.map { .bool($0) })
        add("bar", bar)
        add("backButton", backButton)
        add("rightItems", rightItems.map { .list($0.map { .string($0) }) })
        add("content", content)
        add("scroll", scroll)
        add("swipeBack", swipeBack.map { .bool($0) })
        add("backInteractive", backInteractive.map { .bool($0) })
        for (k, v) in more { add(k, v) }
        return ScenarioScreen(name: name, keys: keys, source: ScenarioSourceLine(fileID: fileID, line: line))
    }
}

/// A step of a Swift scenario: `Push("b", duration: 0.4)`.
public struct ScenarioStep: Sendable {
    public var keys: [ScenarioValue.Pair]
    public var source: ScenarioSourceLine

    static func make(_ action: String, _ value: ScenarioValue, duration: Double?, curve: ScenarioValue?, animated: Bool?,
                     tapped: Bool? = nil, _ fileID: String, _ line: Int) -> ScenarioStep {
        var keys = [ScenarioValue.Pair(key: action, value: value)]
        if let duration { keys.append(.init(key: "duration", value: .number(duration))) }
        if let curve { keys.append(.init(key: "curve", value: curve)) }
        if let animated { keys.append(.init(key: "animated", value: .bool(animated))) }
        if let tapped { keys.append(.init(key: "tapped", value: .bool(tapped))) }
        return ScenarioStep(keys: keys, source: ScenarioSourceLine(fileID: fileID, line: line))
    }
}

// Steps, named as the format's actions.

public func Show(_ screen: String, fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("show", .string(screen), duration: nil, curve: nil, animated: nil, fileID, line)
}
/// `curve`: `"linear"`, `"easeInOut"` or `[x1, y1, x2, y2]`.
public func Push(_ screen: String, duration: Double? = nil, curve: ScenarioValue? = nil, animated: Bool? = nil,
                        fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("push", .string(screen), duration: duration, curve: curve, animated: animated, fileID, line)
}
/// `tapped`: the back button was tapped, and starts highlighted (a pop by code when nil or false).
public func Pop(duration: Double? = nil, curve: ScenarioValue? = nil, animated: Bool? = nil, tapped: Bool? = nil,
                       fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("pop", .map([]), duration: duration, curve: curve, animated: animated, tapped: tapped, fileID, line)
}
public func PopTo(_ screen: String, duration: Double? = nil, curve: ScenarioValue? = nil, animated: Bool? = nil, tapped: Bool? = nil,
                         fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("popTo", .string(screen), duration: duration, curve: curve, animated: animated, tapped: tapped, fileID, line)
}
public func Wait(_ seconds: Double, fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("wait", .number(seconds), duration: nil, curve: nil, animated: nil, fileID, line)
}
public func Scroll(to offset: Double, duration: Double? = nil, curve: ScenarioValue? = nil, animated: Bool? = nil,
                          fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("scroll", .map([.init(key: "to", value: .number(offset))]), duration: duration, curve: curve, animated: animated, fileID, line)
}
/// `release`: `"finish"`, `"cancel"` or `"hold"` (the finger stays down for the next SwipeBack); nil lets
/// the distance decide.
public func SwipeBack(to fraction: Double, release: String? = nil, duration: Double? = nil, curve: ScenarioValue? = nil,
                             fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    var m = [ScenarioValue.Pair(key: "to", value: .number(fraction))]
    if let release { m.append(.init(key: "release", value: .string(release))) }
    return ScenarioStep.make("swipeBack", .map(m), duration: duration, curve: curve, animated: nil, fileID, line)
}
/// Bar keys, and `style: "fade"` or `"slide"` for how a hidden bar goes.
public func SetBar(_ bar: ScenarioValue, duration: Double? = nil, curve: ScenarioValue? = nil, animated: Bool? = nil,
                          fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("setBar", bar, duration: duration, curve: curve, animated: animated, fileID, line)
}
/// `"landscape"` or `"portrait"`.
public func Rotate(_ orientation: String, fileID: String = #fileID, line: Int = #line) -> ScenarioStep {
    ScenarioStep.make("rotate", .string(orientation), duration: nil, curve: nil, animated: nil, fileID, line)
}

/// A screen with the keys of the YAML format; `more` takes any key by name.
public func Screen(_ name: String, title: String? = nil, largeTitle: Bool? = nil, bar: ScenarioValue? = nil,
                   backButton: ScenarioValue? = nil, rightItems: [String]? = nil, content: ScenarioValue? = nil,
                   scroll: ScenarioValue? = nil, swipeBack: Bool? = nil, backInteractive: Bool? = nil,
                   more: KeyValuePairs<String, ScenarioValue> = [:], fileID: String = #fileID, line: Int = #line) -> ScenarioScreen {
    ScenarioScreen.make(name, title: title, largeTitle: largeTitle, bar: bar, backButton: backButton, rightItems: rightItems,
                        content: content, scroll: scroll, swipeBack: swipeBack, backInteractive: backInteractive, more: more,
                        fileID: fileID, line: line)
}

/// Collects the screens or the steps of a Swift scenario, with `if`, `switch` and `for`.
@resultBuilder
public enum ScenarioListBuilder<Element> {
    public static func buildExpression(_ e: Element) -> [Element] { [e] }
    public static func buildExpression(_ e: [Element]) -> [Element] { e }
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
    public static func buildEither(first: [Element]) -> [Element] { first }
    public static func buildEither(second: [Element]) -> [Element] { second }
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
}

extension Scenario {
    /// A scenario written in Swift. `devices` are built-in names or custom devices as mappings
    /// (`["name": "tiny", "width": 120, ...]`); `more` takes any other root key of the format
    /// (`timing`, `appearance`, `tolerance`). `fixtures` is the folder image paths are relative
    /// to, checked as for files (nil: not checked).
    public init(name: String, devices: [ScenarioValue] = ["iphone-14"], scale: Double? = nil, fps: Int? = nil,
                capture: Capture? = nil, more: KeyValuePairs<String, ScenarioValue> = [:], fixtures: String? = nil,
                fileID: String = #fileID, line: Int = #line,
                @ScenarioListBuilder<ScenarioScreen> screens: () -> [ScenarioScreen],
                @ScenarioListBuilder<ScenarioStep> steps: () -> [ScenarioStep]) throws {
        let here = ScenarioSourceLine(fileID: fileID, line: line)
        var lines: [String] = []
        var origin: [ScenarioSourceLine] = []
        func emit(_ text: String, _ from: ScenarioSourceLine) { lines.append(text); origin.append(from) }
        emit("name: " + ScenarioValue.quoted(name), here)
        emit("devices: " + ScenarioValue.list(devices).yaml, here)
        if let scale { emit("scale: " + ScenarioValue.number(scale).yaml, here) }
        if let fps { emit("fps: \(fps)", here) }
        if let capture { emit("capture: " + capture.rawValue, here) }
        for (k, v) in more { emit(ScenarioValue.quoted(k) + ": " + v.yaml, here) }
        let screenList = screens()
        emit("screens:", here)
        for s in screenList { emit("  " + ScenarioValue.quoted(s.name) + ": " + ScenarioValue.map(s.keys).yaml, s.source) }
        let stepList = steps()
        emit("steps:", here)
        for s in stepList { emit("  - " + ScenarioValue.map(s.keys).yaml, s.source) }
        let text = lines.joined(separator: "\n") + "\n"
        switch ScenarioParser.parse(yaml: text, file: fileID, defaultName: name, fixturesRoot: fixtures) {
        case .success(let s):
            self = s
        case .failure(let errors):
            // Each YAML line came from one Swift call: report the error there.
            throw ScenarioErrors(errors.issues.map { issue in
                let i = issue.location.line - 1
                let from = origin.indices.contains(i) ? origin[i] : here
                let detail = lines.indices.contains(i) ? " (in `\(lines[i].trimmingCharacters(in: .whitespaces))`)" : ""
                return ScenarioIssue(ScenarioLocation(file: from.fileID, line: from.line, column: 1), issue.message + detail)
            })
        }
    }
}
