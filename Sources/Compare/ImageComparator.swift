import Dispatch
import Raster

/// What to compare: the baseline, the frame, and what NavReel knows about their pixels.
public struct ComparisonInput: Sendable {
    public var expected: Image
    public var actual: Image
    public var expectedMaps: FrameMaps?
    public var actualMaps: FrameMaps?
    /// Baseline frames k-1 and k+1 (either may be missing), for the timing rule.
    public var expectedNeighbors: [Image]

    public init(expected: Image, actual: Image, expectedMaps: FrameMaps? = nil, actualMaps: FrameMaps? = nil,
                expectedNeighbors: [Image] = []) {
        self.expected = expected
        self.actual = actual
        self.expectedMaps = expectedMaps
        self.actualMaps = actualMaps
        self.expectedNeighbors = expectedNeighbors
    }
}

/// How the diff image shows mismatches.
public enum DiffStyle: String, Sendable, CaseIterable {
    /// Mismatches red, anti-aliasing yellow, translucency blue, timing green, ignored dimmed.
    case classic
    /// As classic, but mismatches shaded from orange (small channel difference) to dark red (large).
    case heatmap
}

/// Compares images pixel by pixel under `ComparisonSettings`.
public struct ImageComparator: Sendable {
    public var settings: ComparisonSettings
    /// Threads to split large images over (bands of rows). Results do not depend on it.
    public var jobs: Int
    /// Threads start only when the work left after the first band would take longer than this
    /// on one thread (nil: `Parallel.adaptiveThreshold`; tests set zero to exercise the threaded
    /// path on small images).
    var parallelThreshold: Duration?
    /// Whether pixels that repeat the pair of colours to their left take its verdict without
    /// deciding again where it cannot differ (compareRowsOneRule). Tests turn it off to check
    /// that the results are the same.
    var pixelRuns = true

    public init(settings: ComparisonSettings = ComparisonSettings(), jobs: Int = ImageComparator.defaultJobs) {
        self.settings = settings
        self.jobs = max(1, jobs)
    }

    public static var defaultJobs: Int { max(1, activeProcessorCount()) }

    /// Compares, and draws the diff image when `diff` is given.
    public func compare(_ input: ComparisonInput, diff style: DiffStyle? = nil) -> (Comparison, DiffImage?) {
        let e = input.expected, a = input.actual
        var result = Comparison(width: e.width, height: e.height)
        result.metric = settings.metric
        guard e.width == a.width && e.height == a.height else {
            result.sizeMismatch = (Comparison.Size(width: e.width, height: e.height), Comparison.Size(width: a.width, height: a.height))
            return (result, nil)
        }
        let pixelCount = e.width * e.height
        result.allowedMismatches = budget(pixels: pixelCount)
        let plan = Plan(settings: settings, input: input)
        // Bands of about 16K pixels, handed out one at a time (Parallel.forEachAdaptive): threads
        // start only when the first band says the rest is worth them, or at once when the thread
        // team's helpers are still spinning from the job before (a diff's decodes). Merged in
        // band order, so counts and diff images are the same for any number of jobs. (64K-pixel
        // bands left a 1x full-screen frame five bands, the first run alone before any helper
        // started: two jobs compared two fully different 1x frames in 5.3-9.4 ms, 16K bands in
        // 4.4-6.1.)
        let bandCount = Self.bandCount(width: e.width, height: e.height)
        var bands = [BandResult](repeating: BandResult(), count: bandCount)
        let compareAll = { (ip: UnsafeMutablePointer<UInt8>?) in
            e.pixels.withUnsafeBufferPointer { ep in
                a.pixels.withUnsafeBufferPointer { ap in
                    bands.withUnsafeMutableBufferPointer { bp in
                        let images = Images(expected: ep.baseAddress!, actual: ap.baseAddress!, width: e.width, height: e.height,
                                            indices: ip, heatmap: style == .heatmap, runs: pixelRuns)
                        let run = { (band: Int) in
                            let y0 = band * e.height / bandCount, y1 = (band + 1) * e.height / bandCount
                            bp[band] = plan.compareRows(y0..<y1, images)
                        }
                        Parallel.forEachAdaptive(bandCount, workers: jobs, threshold: parallelThreshold, run)
                    }
                }
            }
        }
        // The diff's indices: every pixel's is written by the comparison (a run of equal pixels
        // or one verdict each), so the buffer is not zeroed first.
        var indices: [UInt8] = []
        if style == nil {
            compareAll(nil)
        } else {
            indices = .filledLarge(count: pixelCount) { compareAll($0.baseAddress) }
        }
        // Merge in band order: integer sums and min/max, so the result is the same for any job count.
        var elementStats = [ElementStat](repeating: ElementStat(), count: 256)
        var box = ElementStat()
        for band in bands {
            result.counts.add(band.counts)
            result.channelForgiven += band.channelForgiven
            result.maxChannelDelta = max(result.maxChannelDelta, band.maxChannelDelta)
            result.maxMismatchDelta = max(result.maxMismatchDelta, band.maxMismatchDelta)
            box.merge(band.box)
            if let stats = band.elements {
                for i in 0..<256 { elementStats[i].merge(stats[i]) }
            }
        }
        result.mismatchBox = box.rect
        let names = (input.actualMaps?.elementNames ?? [:]).merging(input.expectedMaps?.elementNames ?? [:]) { a, _ in a }
        result.elements = (0..<256).compactMap { id -> ElementMismatch? in
            let s = elementStats[id]
            guard s.count > 0, let rect = s.rect else { return nil }
            return ElementMismatch(id: UInt8(id), name: names[UInt8(id)] ?? "element \(id)", pixels: s.count, box: rect)
        }.sorted { ($0.pixels, -Int($0.id)) > ($1.pixels, -Int($1.id)) }
        let diff = style == nil ? nil : DiffImage(width: e.width, height: e.height, indices: indices)
        return (result, diff)
    }

    /// Bands of about 16K pixels (at least a row each) that a comparison, or the diff image of an
    /// image compared with itself, is split into.
    static func bandCount(width: Int, height: Int) -> Int { max(1, min(height, width * height / 16_384)) }

    /// The verdict on two images of different sizes, as `compare` gives it, from their sizes alone
    /// (`navreel diff` then checks both files one after the other, with `PNG.check`).
    public func sizeMismatch(expected: Comparison.Size, actual: Comparison.Size) -> Comparison {
        var result = Comparison(width: expected.width, height: expected.height)
        result.metric = settings.metric
        result.sizeMismatch = (expected, actual)
        return result
    }

    /// What `compare` gives for two images of this size with the same pixels, without reading
    /// them: every pixel equal, whatever the rules (a run of identical pixels is never looked at
    /// further). For a file compared with itself, which `PairDiff` checks but does not decode.
    public func identical(width: Int, height: Int) -> Comparison {
        var result = Comparison(width: width, height: height)
        result.metric = settings.metric
        result.allowedMismatches = budget(pixels: width * height)
        result.counts.equal = width * height
        return result
    }

    /// The mismatches a frame may have. Each budget that is set must hold; with neither set, none.
    public func budget(pixels: Int) -> Int {
        let t = settings.tolerance
        let byRatio = Int((t.maxDiffRatio * Double(pixels)).rounded(.down))
        switch (t.maxDiffPixels > 0, t.maxDiffRatio > 0) {
        case (true, true): return min(t.maxDiffPixels, byRatio)
        case (true, false): return t.maxDiffPixels
        case (false, true): return byRatio
        case (false, false): return 0
        }
    }
}

// MARK: - The per-pixel work

struct ElementStat: Sendable {
    var count = 0
    var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min

    @inline(__always)
    mutating func add(_ x: Int, _ y: Int) {
        count += 1
        minX = min(minX, x); maxX = max(maxX, x)
        minY = min(minY, y); maxY = max(maxY, y)
    }

    mutating func merge(_ o: ElementStat) {
        count += o.count
        minX = min(minX, o.minX); maxX = max(maxX, o.maxX)
        minY = min(minY, o.minY); maxY = max(maxY, o.maxY)
    }

    var rect: PixelRect? {
        count == 0 ? nil : PixelRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}

struct BandResult: Sendable {
    var counts = RuleCounts()
    var channelForgiven = 0
    var maxChannelDelta = 0
    var maxMismatchDelta = 0
    var box = ElementStat()
    var elements: [ElementStat]?
}

struct Images: @unchecked Sendable {
    let expected: UnsafePointer<UInt8>
    let actual: UnsafePointer<UInt8>
    let width: Int
    let height: Int
    let indices: UnsafeMutablePointer<UInt8>?
    let heatmap: Bool
    /// See ImageComparator.pixelRuns.
    let runs: Bool
}

/// The settings resolved for fast per-pixel lookups.
struct Plan: Sendable {
    let base: PixelRule
    let pixelmatch: Bool
    /// Rule per element id (base with that element's override), when any element is overridden.
    let elementRules: [PixelRule]?
    let regions: [Region]
    let expectedElements: MapPlane?
    let actualElements: MapPlane?
    let expectedWeights: MapPlane?
    let actualWeights: MapPlane?
    let neighbors: [Image]

    init(settings: ComparisonSettings, input: ComparisonInput) {
        pixelmatch = settings.metric == .pixelmatch
        let w = input.expected.width, h = input.expected.height
        func fits(_ m: FrameMaps?) -> FrameMaps? { m.flatMap { $0.width == w && $0.height == h ? $0 : nil } }
        func fits(_ plane: MapPlane?) -> MapPlane? { plane.flatMap { $0.fits(width: w, height: h) ? $0 : nil } }
        let em = fits(input.expectedMaps), am = fits(input.actualMaps)
        if pixelmatch {
            // Only pixelmatch's two rules: its threshold (applied even at 0) and its AA detection.
            base = PixelRule(channel: -1, perceptual: settings.tolerance.perceptual, antialiasing: settings.tolerance.antialiasing,
                             translucency: 0, temporal: false, ignore: false)
            elementRules = nil
            regions = []
            expectedElements = nil
            actualElements = nil
            expectedWeights = nil
            actualWeights = nil
            neighbors = []
            return
        }
        let base = settings.tolerance.pixelRule
        self.base = base
        elementRules = settings.elements.isEmpty ? nil : (0..<256).map { id in
            settings.elements[UInt8(id)].map { base.applying($0) } ?? base
        }
        regions = settings.regions
        expectedElements = fits(em?.elementRows)
        actualElements = fits(am?.elementRows)
        expectedWeights = fits(em?.translucencyRows)
        actualWeights = fits(am?.translucencyRows)
        neighbors = settings.tolerance.temporal || settings.elements.values.contains { $0.temporal == true }
            || settings.regions.contains { $0.rule.temporal == true }
            ? input.expectedNeighbors.filter { $0.width == w && $0.height == h } : []
    }

    /// The rule at a pixel: the element's rule, then regions; the stricter of the two maps'.
    @inline(__always)
    func rule(at x: Int, _ y: Int) -> PixelRule {
        var fromExpected = base, fromActual = base
        if let table = elementRules {
            if let m = expectedElements { fromExpected = table[Int(m.value(x, y))] }
            if let m = actualElements { fromActual = table[Int(m.value(x, y))] }
        }
        for region in regions where region.rect.contains(x, y) {
            fromExpected = fromExpected.applying(region.rule)
            fromActual = fromActual.applying(region.rule)
        }
        return fromExpected.stricter(fromActual)
    }

    enum Verdict { case equal, perceptual, antialiasing, translucency, timing, ignored, mismatched }

    func compareRows(_ rows: Range<Int>, _ im: Images) -> BandResult {
        if elementRules == nil && regions.isEmpty {
            return withRows(expectedElements) { ee in
                withRows(actualElements) { ae in
                    withRows(expectedWeights) { we in
                        withRows(actualWeights) { wa in
                            compareRowsOneRule(rows, im, MapPointers(expectedElements: ee, actualElements: ae,
                                                                     expectedWeights: we, actualWeights: wa))
                        }
                    }
                }
            }
        }
        return compareRowsPerPixelRule(rows, im)
    }

    struct MapPointers {
        let expectedElements: MapRows?
        let actualElements: MapRows?
        let expectedWeights: MapRows?
        let actualWeights: MapRows?
    }

    /// compareRowsPerPixelRule when every pixel has the base rule (no element overrides, no
    /// regions: every `diff` and most checks): the same verdicts in the same order, with the
    /// rule's fields and the maps read once outside the loop, through pointers, and the
    /// mismatch bookkeeping in locals.
    func compareRowsOneRule(_ rows: Range<Int>, _ im: Images, _ maps: MapPointers) -> BandResult {
        var r = BandResult()
        let width = im.width, height = im.height
        let rule = base
        let channel = rule.channel
        let perceptualOn = rule.perceptual > 0 || pixelmatch
        let limit = YIQ.limit(threshold: rule.perceptual)
        let antialiasing = rule.antialiasing
        let translucency = rule.translucency
        let weights = translucency > 0 ? (maps.expectedWeights.flatMap { e in maps.actualWeights.map { (e, $0) } }) : nil
        let temporal = rule.temporal && !neighbors.isEmpty
        let slack = max(0, channel)
        let ignore = rule.ignore
        let trackElements = maps.expectedElements != nil || maps.actualElements != nil
        let neighborFree = weights == nil && !temporal
        let elements = UnsafeMutablePointer<ElementStat>.allocate(capacity: trackElements ? 256 : 1)
        elements.initialize(repeating: ElementStat(), count: trackElements ? 256 : 1)
        defer { elements.deallocate() }
        let ew = UnsafeRawPointer(im.expected).assumingMemoryBound(to: UInt32.self)
        let aw = UnsafeRawPointer(im.actual).assumingMemoryBound(to: UInt32.self)
        var counts = RuleCounts()
        var channelForgiven = 0, maxChannelDelta = 0, maxMismatchDelta = 0
        var box = ElementStat()
        for y in rows {
            let rowStart = y * width, end = rowStart + width
            // This row of each map (a row of a baseline's map may be shared with rows above it).
            let weightRows = weights.map { ($0.0.row(y), $0.1.row(y)) }
            let expectedElementRow = maps.expectedElements?.row(y), actualElementRow = maps.actualElements?.row(y)
            var i = rowStart
            while i < end {
                let runStart = i
                while i < end && ew[i] == aw[i] { i += 1 }
                counts.equal += i - runStart
                if let out = im.indices, i > runStart { DiffPalette.fadeRun(ew, out, runStart..<i) }
                if i == end { break }

                let x = i - rowStart
                let p = im.expected + i * 4, q = im.actual + i * 4
                let delta = largestChannelDelta(ew[i], aw[i])
                if delta > maxChannelDelta { maxChannelDelta = delta }
                let verdict: Verdict
                if delta <= channel {
                    verdict = .equal
                    counts.equal += 1
                    if delta > 0 { channelForgiven += 1 }   // (0: two transparent pixels)
                } else if perceptualOn && YIQ.within(p, q, limit: limit) {
                    verdict = .perceptual
                    counts.perceptual += 1
                } else if antialiasing
                    && ((!AntiAliasing.hasThreeIdenticalNeighbors(im.expected, x, y, width, height)
                         && AntiAliasing.isAntialiased(im.expected, x, y, width, height, im.actual))
                        || (!AntiAliasing.hasThreeIdenticalNeighbors(im.actual, x, y, width, height)
                            && AntiAliasing.isAntialiased(im.actual, x, y, width, height, im.expected))) {
                    verdict = .antialiasing
                    counts.antialiasing += 1
                } else if let w = weightRows, case let weight = Int(min(w.0[x], w.1[x])),
                          weight > 0 && delta * 255 <= weight * translucency {
                    verdict = .translucency
                    counts.translucency += 1
                } else if temporal && withinEnvelope(i, p, q, slack: slack) {
                    verdict = .timing
                    counts.timing += 1
                } else if ignore {
                    verdict = .ignored
                    counts.ignored += 1
                } else {
                    verdict = .mismatched
                    counts.mismatched += 1
                    if delta > maxMismatchDelta { maxMismatchDelta = delta }
                    box.add(x, y)
                    if trackElements {
                        let ea = actualElementRow.map { Int($0[x]) }, ee = expectedElementRow.map { Int($0[x]) }
                        if let ea { elements[ea].add(x, y) }
                        if let ee, ee != ea { elements[ee].add(x, y) }
                    }
                }
                let index = im.indices.map { out in
                    let index = DiffPalette.index(for: verdict, expected: p, delta: delta, heatmap: im.heatmap)
                    out[i] = index
                    return index
                }
                i += 1
                guard im.runs else { continue }

                // The pixels after it with the same pair of colours get the same verdict without
                // deciding it again, where that verdict cannot depend on their neighbours (on two
                // different frames, 90-98 % of the differing pixels have the pair of the pixel to
                // their left: flat backgrounds and bars). The channel and perceptual rules read
                // the pair alone; so does a mismatch when anti-aliasing is not forgiven. With it
                // forgiven, a pixel whose left and right neighbours and one of those above and
                // below are its own colour, in each image, has three identical neighbours in
                // both, so neither image calls it anti-aliased (hasThreeIdenticalNeighbors, the
                // first test either way), and it is a mismatch as the first was (this path's rule
                // never ignores). Translucency weights and timing read each pixel's maps and
                // neighbours, so runs stop there (neighborFree).
                let e = ew[i - 1], a = aw[i - 1]
                let runFrom = i
                switch verdict {
                case .equal, .perceptual:
                    while i < end && ew[i] == e && aw[i] == a { i += 1 }
                case .mismatched:
                    guard neighborFree else { break }
                    if !antialiasing {
                        while i < end && ew[i] == e && aw[i] == a { i += 1 }
                    } else if y > 0 && y < height - 1 {
                        // i + 1 < end: pixel i has a right neighbour in the row (and so x < width - 1).
                        while i + 1 < end && ew[i] == e && aw[i] == a && ew[i + 1] == e && aw[i + 1] == a
                                && (ew[i - width] == e || ew[i + width] == e) && (aw[i - width] == a || aw[i + width] == a) {
                            i += 1
                        }
                    }
                default:
                    break
                }
                let n = i - runFrom
                if n == 0 { continue }
                if let out = im.indices, let index { out.advanced(by: runFrom).update(repeating: index, count: n) }
                switch verdict {
                case .equal:
                    counts.equal += n
                    if delta > 0 { channelForgiven += n }
                case .perceptual:
                    counts.perceptual += n
                default:
                    counts.mismatched += n
                    box.add(i - 1 - rowStart, y)   // the run's last pixel (only box's rectangle is read)
                    if trackElements {
                        for k in runFrom - rowStart..<i - rowStart {
                            let ea = actualElementRow.map { Int($0[k]) }, ee = expectedElementRow.map { Int($0[k]) }
                            if let ea { elements[ea].add(k, y) }
                            if let ee, ee != ea { elements[ee].add(k, y) }
                        }
                    }
                }
            }
        }
        r.counts = counts
        r.channelForgiven = channelForgiven
        r.maxChannelDelta = maxChannelDelta
        r.maxMismatchDelta = maxMismatchDelta
        r.box = box
        // A band without mismatches has no element counts to merge (most bands of most diffs).
        if trackElements && counts.mismatched > 0 { r.elements = Array(UnsafeBufferPointer(start: elements, count: 256)) }
        return r
    }

    func compareRowsPerPixelRule(_ rows: Range<Int>, _ im: Images) -> BandResult {
        var r = BandResult()
        let width = im.width
        let trackElements = expectedElements != nil || actualElements != nil
        var elements = trackElements ? [ElementStat](repeating: ElementStat(), count: 256) : []
        let ew = UnsafeRawPointer(im.expected).assumingMemoryBound(to: UInt32.self)
        let aw = UnsafeRawPointer(im.actual).assumingMemoryBound(to: UInt32.self)
        for y in rows {
            let rowStart = y * width, end = rowStart + width
            var i = rowStart
            while i < end {
                // Runs of identical pixels: one word comparison each.
                let runStart = i
                while i < end && ew[i] == aw[i] { i += 1 }
                r.counts.equal += i - runStart
                if let out = im.indices, i > runStart { DiffPalette.fadeRun(ew, out, runStart..<i) }
                if i == end { break }

                let x = i - rowStart
                let p = im.expected + i * 4, q = im.actual + i * 4
                let delta = largestChannelDelta(ew[i], aw[i])
                r.maxChannelDelta = max(r.maxChannelDelta, delta)
                let rule = (elementRules == nil && regions.isEmpty) ? base : self.rule(at: x, y)
                let verdict = decide(i, x, y, p, q, delta, rule, im)
                switch verdict {
                case .equal:
                    r.counts.equal += 1
                    if delta > 0 { r.channelForgiven += 1 }
                case .perceptual: r.counts.perceptual += 1
                case .antialiasing: r.counts.antialiasing += 1
                case .translucency: r.counts.translucency += 1
                case .timing: r.counts.timing += 1
                case .ignored: r.counts.ignored += 1
                case .mismatched:
                    r.counts.mismatched += 1
                    r.maxMismatchDelta = max(r.maxMismatchDelta, delta)
                    r.box.add(x, y)
                    if trackElements {
                        let ea = actualElements.map { Int($0.value(x, y)) }, ee = expectedElements.map { Int($0.value(x, y)) }
                        if let ea { elements[ea].add(x, y) }
                        if let ee, ee != ea { elements[ee].add(x, y) }
                    }
                }
                if let out = im.indices { out[i] = DiffPalette.index(for: verdict, expected: p, delta: delta, heatmap: im.heatmap) }
                i += 1
            }
        }
        if trackElements && r.counts.mismatched > 0 { r.elements = elements }
        return r
    }

    @inline(__always)
    func decide(_ i: Int, _ x: Int, _ y: Int, _ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, _ delta: Int,
                _ rule: PixelRule, _ im: Images) -> Verdict {
        if delta <= rule.channel { return .equal }
        if rule.perceptual > 0 || pixelmatch {
            if YIQ.within(p, q, limit: YIQ.limit(threshold: rule.perceptual)) { return .perceptual }
        }
        // The exact shortcut of isAntialiased (three identical neighbours: not anti-aliasing),
        // inline and stopping at the third: most differing pixels of screenshots are in flat areas.
        if rule.antialiasing
            && ((!AntiAliasing.hasThreeIdenticalNeighbors(im.expected, x, y, im.width, im.height)
                 && AntiAliasing.isAntialiased(im.expected, x, y, im.width, im.height, im.actual))
                || (!AntiAliasing.hasThreeIdenticalNeighbors(im.actual, x, y, im.width, im.height)
                    && AntiAliasing.isAntialiased(im.actual, x, y, im.width, im.height, im.expected))) {
            return .antialiasing
        }
        if rule.translucency > 0, let we = expectedWeights, let wa = actualWeights {
            // The smaller weight: a regression that raises the frame's weight gains nothing.
            let weight = Int(min(we.value(x, y), wa.value(x, y)))
            if weight > 0 && delta * 255 <= weight * rule.translucency { return .translucency }
        }
        if rule.temporal && !neighbors.isEmpty && withinEnvelope(i, p, q, slack: max(0, rule.channel)) { return .timing }
        if rule.ignore { return .ignored }
        return .mismatched
    }

    /// Whether the frame's pixel lies within the range the baseline spans over frames k-1...k+1.
    /// A fully transparent pixel counts as transparent black on every side, so that hidden colour
    /// channels change no verdict here either (`largestChannelDelta`).
    @inline(__always)
    func withinEnvelope(_ i: Int, _ p: UnsafePointer<UInt8>, _ q: UnsafePointer<UInt8>, slack: Int) -> Bool {
        @inline(__always) func value(_ pixel: UnsafePointer<UInt8>, _ c: Int) -> Int { pixel[3] == 0 ? 0 : Int(pixel[c]) }
        for c in 0..<4 {
            var lo = value(p, c), hi = lo
            for n in neighbors {
                let v = n.pixels[i * 4 + 3] == 0 ? 0 : Int(n.pixels[i * 4 + c])
                lo = min(lo, v)
                hi = max(hi, v)
            }
            let v = value(q, c)
            if v < lo - slack || v > hi + slack { return false }
        }
        return true
    }
}

/// `body` with the plane's rows, or nil.
@inline(__always)
func withRows<R>(_ plane: MapPlane?, _ body: (MapRows?) -> R) -> R {
    guard let plane else { return body(nil) }
    return plane.withRows(body)
}

/// The largest of the four channels' absolute differences of two RGBA8 words, in integer
/// registers. The byte-wise form (four absolute differences of `p[k]` and `q[k]`) was compiled
/// into a vector stored on the stack and read back a byte at a time, a load that cannot be
/// forwarded from the store: the hottest instruction of a diff of two different frames.
///
/// Two fully transparent pixels differ by nothing, whatever colour their invisible channels hold:
/// over any background they show the same (pixelmatch, blending both over white, calls them equal
/// too). Encoders and optimisers zero or keep those channels as they like (oxipng's alpha
/// optimisation, pngquant, a graphics library's premultiplied round trip), so a byte difference
/// there is not a difference of the image; at `--perceptual 0` it failed every such pixel.
@inline(__always)
func largestChannelDelta(_ a: UInt32, _ b: UInt32) -> Int {
    if UInt32(littleEndian: a | b) >> 24 == 0 { return 0 }   // alpha is the fourth byte in memory
    @inline(__always) func channel(_ shift: UInt32) -> Int {
        let d = Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)
        return d < 0 ? -d : d
    }
    let r = channel(0), g = channel(8), bl = channel(16), al = channel(24)
    let rg = r > g ? r : g, ba = bl > al ? bl : al
    return rg > ba ? rg : ba
}

#if canImport(Glibc)
import Glibc
func activeProcessorCount() -> Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }
#elseif canImport(Darwin)
import Darwin
func activeProcessorCount() -> Int { Int(sysconf(_SC_NPROCESSORS_ONLN)) }
#endif
