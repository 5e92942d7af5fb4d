import ArgumentParser
import Foundation
import NavReel
import Navigation
import Raster
import Scenario

struct ScaffoldCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scaffold",
        abstract: "Write a first scenario from screenshots of your app.",
        discussion: """
        Give one PNG screenshot a screen (xcrun simctl io booted screenshot shot.png), the root \
        first, then each screen pushed over it; or one screen recording of a flow (xcrun simctl io \
        booted recordVideo rec.mov), whose screens at rest are read as screenshots and whose \
        motions become the steps (push, pop, popTo, scroll, a swipe back let go), with waits that keep the \
        recording's times. scaffold reads the device from the size (a screen made smaller, as a \
        GIF for a README is, it scales back up to the phone of its shape), and from \
        each screenshot the bar's background (a colour, a vertical or horizontal gradient, \
        transparent, translucent, or an image), the status bar's style, the title's, back \
        button's and bar buttons' colours, a large title, the hairline and the content's colour. Text is not read: titles and item \
        names are placeholders. It then renders each screen with NavReel and says how close the \
        bar's background comes to the screenshot. The scenario goes to standard output, or to \
        --out (an existing file is kept unless --force); what was read goes to standard error.
        """
    )

    @Argument(help: "PNG screenshots, one a screen: the root first, then each screen pushed over it; or one screen recording (.mov, .mp4, .m4v, .gif, .apng).")
    var screenshots: [String]

    @Option(help: "Write the scenario to this file (default: standard output).")
    var out: String?

    @Option(help: "The scenario's name (default: --out's file name, else 'scaffold').")
    var name: String?

    @Option(help: "The built-in device the screenshots come from, or 4-inch for an iPhone 5s's 320 x 568 pt (default: read from their size, or from their shape and status bar when made smaller).")
    var device: String?

    @Option(name: .customLong("status-bar"), parsing: .unconditional, help: "The status bar's height in points, for a phone NavReel does not build in (default: measured from the bar).")
    var statusBar: Double?

    @Option(name: .customLong("min-rest"), parsing: .unconditional, help: "With a recording: how many seconds the screen must hold still to count as a screen at rest (default 0.25).")
    var minRest: Double = 0.25

    @Flag(help: "With a recording: it shows the Mac's mouse pointer (a capture of the simulator's window cropped to the screen); a change no larger than a pointer neither ends a rest nor tells two screens apart (default: on where a window's title bar is cut off).")
    var pointer = false

    @Flag(help: "Replace an existing --out file.")
    var force = false

    @Flag(help: "Print nothing but warnings and errors.")
    var quiet = false

    mutating func run() throws {
        do {
            try scaffold()
        } catch let error as ExitCode {
            throw error
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(Exit.error)
        }
    }

    func scaffold() throws {
        if out == "" { throw UsageError("--out names no file") }
        guard screenshots.count <= 50 else { throw UsageError("\(screenshots.count) screenshots: scaffold takes at most 50 (one a screen of a push sequence)") }
        var named: Device?
        if let device {
            // (`4-inch`: the iPhone 5s's geometry, no built-in; the scenario gets it as a custom device.)
            guard let d = device == "4-inch" ? Scaffold.fourInch : Device.named(device) else {
                throw UsageError("--device \(device): not a built-in device (\(Device.builtIns.map(\.name).joined(separator: ", ")), or 4-inch for an iPhone 5s's 320 x 568 pt); without --device scaffold measures a custom one from the screenshot")
            }
            named = d
        }
        let stem: String? = out.map { path in
            let file = path.split(separator: "/").last.map(String.init) ?? path
            for ext in [".yaml", ".yml", ".json"] where file.hasSuffix(ext) { return String(file.dropLast(ext.count)) }
            return file
        }
        let scenarioName = name ?? stem ?? "scaffold"
        guard ScenarioParser.isSafeName(scenarioName) else {
            throw UsageError(name != nil ? "--name \(scenarioName): a scenario name is [a-z0-9._-]+" : "--out \(out!): the file's name \(scenarioName) is not a scenario name ([a-z0-9._-]+); give --name")
        }
        if let statusBar, !(statusBar >= 20 && statusBar <= 80) {
            throw UsageError("--status-bar \(statusBar): a status bar is 20 to 80 pt")
        }
        if statusBar != nil, device != nil { throw UsageError("--status-bar makes a custom device of the screenshots' size; --device \(device!) has its own status bar: give one of them") }
        if let out {
            let target = FileOutput.resolvedPath(out)
            if let input = screenshots.first(where: { FileOutput.resolvedPath($0) == target }) {
                throw UsageError("--out \(out) is the \(screenshots.count == 1 && !input.lowercased().hasSuffix(".png") ? "recording" : "screenshot") \(input)")
            }
            guard [".yaml", ".yml", ".json"].contains(where: { out.hasSuffix($0) }) else {
                throw UsageError("--out \(out): a scenario file ends in .yaml (or .yml, .json)")
            }
            if let problem = FileOutput.fileProblem(out) { throw UsageError("--out \(out): \(problem)") }
            if !force, FileManager.default.fileExists(atPath: out) {
                throw UsageError("--out \(out) exists and was left as it is; --force replaces it")
            }
        }

        var readings: [Scaffold.Reading] = []
        var images: [Image] = []
        var steps: [String]?
        var under: Scaffold.Reading?
        var barSwitch: String?
        var scrolled: [Int: Scaffold.Reading] = [:]
        var scrollAlpha: [Int: Scaffold.ScrollAlpha] = [:]
        var copies: [Scaffold.Copy] = []
        var timeline: [String] = []
        // What compare reads as an animation or a video, but a .png: a screenshot here.
        let recordingExtensions = MediaReader.extensions.filter { $0 != "png" }
        let isRecording = { (path: String) in recordingExtensions.contains((path as NSString).pathExtension.lowercased()) }
        if pointer, !screenshots.contains(where: isRecording) {
            throw UsageError("--pointer goes with a recording (a screenshot has no rests for a pointer to break)")
        }
        if screenshots.contains(where: isRecording) {
            guard screenshots.count == 1 else {
                throw UsageError("\(screenshots.first(where: isRecording)!): scaffold reads one recording, or PNG screenshots, not both or several recordings")
            }
            guard minRest >= 0.05, minRest <= 10 else { throw UsageError("--min-rest \(minRest): 0.05 to 10 seconds") }
            let path = screenshots[0]
            guard FileManager.default.fileExists(atPath: path) else { throw UsageError("\(path): no such file") }
            let r = try Scaffold.readRecording(path: path, device: named, statusBar: statusBar, minRest: minRest, pointer: pointer)
            readings = r.readings
            images = r.images
            let script = Scaffold.recordingScript(r)
            Scaffold.settleScrolledNotes(&readings, scrolled: script.scrolled)
            steps = script.steps
            scrolled = script.scrolled.mapValues { r.readings[$0] }
            scrollAlpha = script.scrollAlpha
            copies = script.copies
            under = r.uncovered
            barSwitch = r.barSwitch
            let names = Scaffold.screenNames(readings)
            func t(_ v: Double) -> String { String(format: "%.2f", v) }
            if !quiet { timeline.append("\(path): \(r.frames) frame\(r.frames == 1 ? "" : "s") over \(t(r.length)) s, \(r.rests.count) at rest, \(readings.count) screen\(readings.count == 1 ? "" : "s")") }
            for (i, rest) in r.rests.enumerated() where !quiet {
                let held = rest.held.map { "a swipe held still at \(Int(($0 * 100).rounded())) %" }
                timeline.append("  \(t(rest.start))-\(t(rest.end)) s  " + (rest.screen.map { "\(names[$0]) at rest" } ?? held ?? "not read"))
                guard i < r.movements.count else { continue }
                let what: String
                switch r.movements[i] {
                case .push: what = "the next screen came in from the trailing side (a push)"
                case .pop: what = "the screen left to the trailing side (a pop)"
                case .swipeCancelled(let to, _):
                    // (After a hold, `to` is where the fit lets go, not how far the screen went:
                    // the steps' comment says where the finger let go.)
                    what = rest.held == nil ? "the screen went \(Int((to * 100).rounded())) % of the way to the trailing side and came back (a swipe back let go)"
                        : "the swipe held was dragged on or let go, and the screen came back"
                case .swipeHeld(let to, _): what = "the screen went \(Int((to * 100).rounded())) % of the way to the trailing side (a swipe back)"
                case .swipeFinished(let to, _):
                    let length = r.rests[i + 1].start - rest.end
                    what = "the screen left to the trailing side" + (rest.held == nil ? ", \(Scaffold.fingersPace(length: length)) (a swipe back let go at \(Int((to * 100).rounded())) %)" : " (the swipe let go)")
                case .scroll(let by): what = "the content moved \(by >= 0 ? "up" : "down") \(Int(abs(by))) pt (a scroll)"
                case .unknown: what = "moved sideways (which way could not be told)"
                case .inPlace(let contentSame): what = contentSame ? "the bar changed in place" : "the screen changed in place (no push, pop or scroll)"
                case .fromBelow: what = "the next screen came up from the bottom (a modal)"
                case .toBelow: what = "the screen went down off the bottom (a modal dismissed)"
                }
                // (A tapped push or pop that started after the screen first changed: when it moved.)
                let delay = i < r.delays.count ? r.delays[i] : nil
                timeline.append("  \(t(rest.end))-\(t(r.rests[i + 1].start)) s  " + what + (delay.map { ", moving from \(t(rest.end + $0)) s" } ?? ""))
            }
            for note in r.notes where !quiet || note.hasPrefix("warning:") { timeline.append(quiet ? "\(path): \(note)" : "  " + note) }
        } else {
            for path in screenshots {
                let decoded: DecodedPNG
                do { decoded = try PNG.read(path: path) } catch {
                    // (The PNG reader's messages name the file already.)
                    let message = "\(error)"
                    throw UsageError((message.hasPrefix(path) ? message : "\(path): \(message)") + " (scaffold reads PNG screenshots: xcrun simctl io booted screenshot shot.png)")
                }
                // A screenshot made smaller than its device's pixels is read scaled back up.
                let scaling = Scaffold.scaling(for: decoded.image, device: named ?? readings.first?.device, statusBar: readings.isEmpty ? statusBar : nil)
                let image = scaling?.apply(decoded.image) ?? decoded.image
                if let first = readings.first, Int(first.device.width * first.device.scale) != image.width || Int(first.device.height * first.device.scale) != image.height {
                    throw UsageError("\(path): \(decoded.image.width) x \(decoded.image.height) px, where \(first.source) is \(first.device.name)'s screen; give the screenshots of one device")
                }
                // (Read as a video's frame is: the scaling spreads an edge over rows, as a codec does.)
                var reading = try Scaffold.read(image, source: path, device: named ?? scaling?.device ?? readings.first?.device, statusBar: statusBar,
                                                lossy: scaling?.scales == true)
                if let scaling {
                    reading.notes.insert(scaling.note, at: 0)
                    reading.scaledUp = scaling.scales
                }
                if stride(from: 3, to: decoded.image.pixels.count, by: 4).contains(where: { decoded.image.pixels[$0] < 255 }) {
                    reading.notes.append("warning: the screenshot has transparent pixels; their colours are read as stored, alpha ignored (a screen has none: is this a screenshot?)")
                }
                if let tag = SequenceComparison.colourTag(ofPNG: path), !tag.lowercased().contains("srgb") {
                    reading.notes.append("tagged \(tag): colours are read as stored, no profile converted (NavReel renders without one)")
                }
                readings.append(reading)
                images.append(image)
            }
        }
        let yaml = Scaffold.yaml(readings, name: scenarioName, steps: steps, under: under, scrolled: scrolled, scrollAlpha: scrollAlpha, barSwitch: barSwitch,
                                 copies: copies)
        if case .failure(let errors) = ScenarioParser.parse(yaml: yaml, file: "<scaffold>", defaultName: scenarioName, fixturesRoot: nil) {
            throw UsageError("the scenario scaffold wrote does not read back (a bug in NavReel; please report it):\n\(errors)\n\(yaml)")
        }

        // Each screen at rest, rendered, against its screenshot.
        var lines: [String] = timeline
        let renderer = try FrameRenderer(fixturesRoot: ".")
        for (i, reading) in readings.enumerated() {
            if !quiet {
                lines.append("\(reading.source):")
                for note in reading.notes { lines.append("  " + note) }
            } else {
                for note in reading.notes where note.hasPrefix("warning:") { lines.append("\(reading.source): \(note)") }
            }
            let text = Scaffold.yaml(readings, name: scenarioName, sources: false, steps: Scaffold.restSteps(readings, index: i), under: under, scrolled: scrolled, scrollAlpha: scrollAlpha, barSwitch: barSwitch)
            guard case .success(let scenario) = ScenarioParser.parse(yaml: text, file: "<scaffold>", defaultName: scenarioName, fixturesRoot: nil),
                  let job = renderer.jobs(for: scenario).first else { continue }
            let frame = try renderer.render(job, frame: job.frameCount - 1)
            let screen = Scaffold.screenNames(readings)[i]
            // A video's frame, or a screenshot made smaller and scaled back, has its edges and
            // text spread over rows: compared leaving more around them.
            let spread = steps != nil || reading.scaledUp
            guard let a = Scaffold.agreement(render: frame, screenshot: images[i], barRows: reading.barRows, skipping: reading.inkBoxes, margin: Int((spread ? 5 : 2) * reading.device.scale),
                                                 edge: spread ? Int(reading.device.scale) : 0) else {
                lines.append("  \(screen): nothing of the bar's background to compare")
                continue
            }
            // A video's frames carry its codec's error: chroma kept for 2 x 2 pixels blurs a red
            // bar's edges by 10-15 levels (H.264 4:2:0 at CRF 18, ScaffoldRecordingTests).
            // A scaled screenshot's bilinear blur of a 1 px hairline or edge, likewise.
            let allowed = spread ? 16 : 8
            // A picture under the bar, or the bar's own image, is drawn by a stand-in (a gradient,
            // a colour): the difference is the stand-in's, which the user's image mends.
            var standIn: String?
            if reading.header != nil { standIn = "the gradient standing in for the picture under the bar; give your image as the header to compare it" }
            if case .other(let c) = reading.background { standIn = "\(Scaffold.hex(c)) standing in for the bar's image; give your image as `image:` to compare it" }
            let verdict: String
            if a.p99 > allowed, let standIn {
                verdict = "NavReel's render of \(screen) differs from \(reading.source)'s bar background by \(a.p99) levels (99 % of \(a.pixels) px): \(standIn)"
            } else if a.p99 <= allowed {
                verdict = "NavReel's render of \(screen) matches the bar's background (not its text or items) within \(a.p99) levels (99 % of \(a.pixels) px; mean \(String(format: "%.1f", a.mean)))"
            } else {
                verdict = "warning: NavReel's render of \(screen) differs from \(reading.source)'s bar background by \(a.p99) levels (99 % of \(a.pixels) px; worst at y \(a.worstRow) px): adjust the bar by hand"
            }
            if !quiet { lines.append("  " + verdict) } else if a.p99 > allowed, standIn == nil { lines.append(verdict) }
        }
        if let under {
            if !quiet {
                lines.append("root, under \(Scaffold.screenNames(readings)[0]): \(under.source)")
                for note in under.notes { lines.append("  " + note) }
            } else {
                for note in under.notes where note.hasPrefix("warning:") { lines.append("root: \(note)") }
            }
        }
        if let out {
            try FileOutput.write(yaml, to: out)
            if !quiet {
                lines.append("wrote \(out)")
                lines.append("next: navreel lint \(out), then navreel record --filter \(scenarioName)" + (out.hasPrefix("Fixtures/scenarios/") ? "" : " (scenarios are read from Fixtures/scenarios or navreel.yaml's folder)"))
            }
        } else {
            Terminal.write(yaml, to: 1)
        }
        if !lines.isEmpty { Terminal.write(lines.joined(separator: "\n") + "\n", to: 2) }
    }
}
