/// The ranges the parser enforces beyond each key's own meaning (docs/limits.md). They keep every
/// number the timeline and the canvas see small enough that no arithmetic on it can overflow or
/// produce NaN, and bound the work one file can ask for.
public enum ScenarioLimits {
    /// Render scale (`scale:`): at least this, at most the device's.
    public static let minRenderScale = 0.1
    /// Seconds of one animated step (`duration`, `timing.*.duration`).
    public static let maxDuration = 60.0
    /// Seconds of one `wait`.
    public static let maxWait = 3600.0
    /// Offsets in points (`scroll to`, `scroll.alpha` start and end, `shadowFrom`, region rects).
    public static let maxOffset = 100_000.0
    /// The y values of a cubic-bezier curve (x values are 0...1).
    public static let maxCurveY = 10.0
    /// ScenarioGradient start and end, in unit coordinates of the bar.
    public static let maxGradientPoint = 10.0
    /// Cap insets of a stretchable image, in points.
    public static let maxCapInset = 4096.0
    /// `scroll.alpha.exponent`.
    public static let exponentRange = 0.01...100.0
    public static let maxRightItems = 16
    public static let maxScreens = 1000
    public static let maxSteps = 10_000
    public static let maxDevices = 64
    public static let maxGradientColors = 64
    public static let maxRegions = 1000
    /// `tolerance.maxDiffPixels`: more than any frame has.
    public static let maxDiffPixels = 1 << 30
    /// Any other number, whatever its key.
    public static var maxMagnitude: Double { YAMLReader.maxMagnitude }
    /// Titles, item labels and other text values, in Unicode scalars.
    public static var maxTextLength: Int { YAMLReader.maxTextLength }
}
