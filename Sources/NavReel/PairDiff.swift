import Compare
import Raster

/// `navreel diff A B`: one pair, the same rules as everywhere else. A library call so that the
/// command line holds no logic.
public struct PairDiff: Sendable {
    public struct Timings: Sendable {
        public var read: Duration = .zero
        public var decode: Duration = .zero
        public var compare: Duration = .zero
        public var encode: Duration = .zero
    }

    public let expectedPath: String
    public let actualPath: String
    public let comparison: Comparison
    /// The encoded diff image, when one was asked for.
    public let diffPNG: [UInt8]?
    public let timings: Timings

    /// Reads both files (in parallel; each error names its file), compares them and, when
    /// `diffStyle` is given, encodes the diff image. Files with identical bytes are not decoded
    /// (their structure is still checked) unless a diff image is wanted.
    public static func run(expected: String, actual: String, settings: ComparisonSettings,
                           diffStyle: DiffStyle? = nil, limits: PNGLimits = .default,
                           jobs: Int = ImageComparator.defaultJobs) throws(PNGError) -> PairDiff {
        let clock = ContinuousClock()
        var timings = Timings()
        var start = clock.now

        let paths = [expected, actual]
        var loaded: [Result<DecodedPNG?, PNGError>] = [.success(nil), .success(nil)]
        var bytes: [[UInt8]] = [[], []]
        var readErrors: [PNGError?] = [nil, nil]
        loaded.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeMutableBufferPointer { b in
                readErrors.withUnsafeMutableBufferPointer { errors in
                    Parallel.forEach(2) { i in
                        do throws(PNGError) { b[i] = try FileBytes.read(path: paths[i], limit: limits.maxFileBytes) } catch { errors[i] = error }
                    }
                }
            }
        }
        if let e = readErrors[0] ?? readErrors[1] { throw e }
        timings.read = clock.now - start
        start = clock.now

        let sameBytes = bytes[0] == bytes[1]
        if sameBytes && diffStyle == nil {
            let structure: PNGStructure
            do {
                structure = try bytes[0].withUnsafeBytes { raw in try PNGStructure.scan(raw, source: expected, limits: limits) }
            } catch let error as PNGError {
                throw error
            } catch {
                throw PNGError(source: expected, kind: .corrupt, message: "\(error)")
            }
            var comparison = Comparison(width: structure.width, height: structure.height)
            comparison.counts.equal = structure.width * structure.height
            comparison.metric = settings.metric
            comparison.allowedMismatches = ImageComparator(settings: settings).budget(pixels: structure.width * structure.height)
            timings.decode = clock.now - start
            return PairDiff(expectedPath: expected, actualPath: actual, comparison: comparison, diffPNG: nil, timings: timings)
        }

        loaded.withUnsafeMutableBufferPointer { out in
            Parallel.forEach(sameBytes ? 1 : 2) { i in
                do throws(PNGError) { out[i] = .success(try PNG.decode(bytes[i], source: paths[i], limits: limits)) } catch { out[i] = .failure(error) }
            }
        }
        if sameBytes { loaded[1] = loaded[0] }
        let e = try loaded[0].get()!, a = try loaded[1].get()!
        let expectedMaps = try maps(of: e, source: expected)
        let actualMaps = try maps(of: a, source: actual)
        timings.decode = clock.now - start
        start = clock.now

        let comparator = ImageComparator(settings: settings, jobs: jobs)
        let (comparison, diff) = comparator.compare(
            ComparisonInput(expected: e.image, actual: a.image, expectedMaps: expectedMaps, actualMaps: actualMaps),
            diff: diffStyle)
        timings.compare = clock.now - start
        start = clock.now
        let png = try diff?.encoded()
        timings.encode = clock.now - start
        return PairDiff(expectedPath: expected, actualPath: actual, comparison: comparison, diffPNG: png, timings: timings)
    }

    /// The tolerance and element maps a NavReel baseline carries, if any.
    static func maps(of png: DecodedPNG, source: String) throws(PNGError) -> FrameMaps? {
        guard let side = png.metadata.sideData else { return nil }
        do {
            let maps = try FrameMaps(serialized: side)
            guard maps.width == png.image.width && maps.height == png.image.height else {
                throw PNGError(source: source, kind: .corrupt,
                               message: "its maps are \(maps.width)x\(maps.height) but its pixels \(png.image.width)x\(png.image.height)")
            }
            return maps
        } catch let error as FrameMaps.DecodeError {
            throw PNGError(source: source, kind: .corrupt, message: error.description)
        } catch let error as PNGError {
            throw error
        } catch {
            throw PNGError(source: source, kind: .corrupt, message: "\(error)")
        }
    }

    public var json: JSON {
        .object(comparison.json + [("expected", .string(expectedPath)), ("actual", .string(actualPath))])
    }
}
