/// A device the scenario renders for, in points.
public struct Device: Sendable, Equatable, Hashable {
    public enum Idiom: String, Sendable { case phone, pad }

    public var name: String
    public var width: Double
    public var height: Double
    public var scale: Double
    /// Status bar height in portrait.
    public var statusBar: Double
    public var idiom: Idiom
    /// Whether the screen has a notch or island.
    public var notched: Bool
    /// The horizontal safe area on each side in landscape (the sensor housing and the rounded
    /// corners), in points.
    public var landscapeInset: Double

    public init(name: String, width: Double, height: Double, scale: Double, statusBar: Double,
                idiom: Idiom = .phone, notched: Bool? = nil, landscapeInset: Double = 0) {
        self.name = name
        self.width = width
        self.height = height
        self.scale = scale
        self.statusBar = statusBar
        self.idiom = idiom
        self.notched = notched ?? (statusBar > 20)
        self.landscapeInset = landscapeInset
    }

    /// The built-ins of NAVIGATION-MODEL.md ("Devices"). Landscape safe areas from Apple's Human
    /// Interface Guidelines layout tables and UIKit's safeAreaInsets on each model: X and XR 44 pt,
    /// 14 47 pt, 14 Pro and Pro Max 59 pt, SE none.
    public static let builtIns: [Device] = [
        Device(name: "iphone-se", width: 375, height: 667, scale: 2, statusBar: 20),
        Device(name: "iphone-x", width: 375, height: 812, scale: 3, statusBar: 44, landscapeInset: 44),
        Device(name: "iphone-14", width: 390, height: 844, scale: 3, statusBar: 47, landscapeInset: 47),
        Device(name: "iphone-14-pro", width: 393, height: 852, scale: 3, statusBar: 54, landscapeInset: 59),
        Device(name: "iphone-14-pro-max", width: 430, height: 932, scale: 3, statusBar: 54, landscapeInset: 59),
        Device(name: "iphone-xr", width: 414, height: 896, scale: 2, statusBar: 44, landscapeInset: 44),
        // Phones with the 14 Pro's and 14 Pro Max's screens and sensor housing (HIG, "Layout": 393 x
        // 852 and 430 x 932 pt at 3x): the same geometry under the names users look for.
        Device(name: "iphone-15", width: 393, height: 852, scale: 3, statusBar: 54, landscapeInset: 59),
        Device(name: "iphone-15-pro", width: 393, height: 852, scale: 3, statusBar: 54, landscapeInset: 59),
        Device(name: "iphone-16", width: 393, height: 852, scale: 3, statusBar: 54, landscapeInset: 59),
        Device(name: "iphone-15-plus", width: 430, height: 932, scale: 3, statusBar: 54, landscapeInset: 59),
        Device(name: "iphone-15-pro-max", width: 430, height: 932, scale: 3, statusBar: 54, landscapeInset: 59),
        Device(name: "iphone-16-plus", width: 430, height: 932, scale: 3, statusBar: 54, landscapeInset: 59),
    ]

    public static func named(_ name: String) -> Device? { builtIns.first { $0.name == name } }

    /// The portrait screen's size in pixels (an iPhone 14's 1170 x 2532).
    public var pixelWidth: Int { Int((width * scale).rounded()) }
    public var pixelHeight: Int { Int((height * scale).rounded()) }
}

public enum Orientation: String, Sendable, Equatable, CaseIterable {
    case portrait, landscape
}

/// The device in an orientation: what layout needs.
public struct DeviceLayout: Sendable, Equatable {
    public var device: Device
    public var orientation: Orientation

    public init(device: Device, orientation: Orientation) {
        self.device = device
        self.orientation = orientation
    }

    public var width: Double { orientation == .portrait ? device.width : device.height }
    public var height: Double { orientation == .portrait ? device.height : device.width }

    var phoneLandscape: Bool { orientation == .landscape && device.idiom == .phone }

    /// Every iPhone hides the status bar in landscape (UIKit's default since iOS 8,
    /// NAVIGATION-MODEL.md).
    public var statusBar: Double { phoneLandscape ? 0 : device.statusBar }

    /// Bar height: 44 pt; in landscape on iPhone 32 pt (compact height), except on the phones
    /// that are regular width in landscape (Plus, Max and XR: 414 pt and wider), which keep 44 pt
    /// (Apple's Human Interface Guidelines, size classes by device); 50 pt on iPad.
    public var barHeight: Double {
        if device.idiom == .pad { return 50 }
        guard phoneLandscape else { return 44 }
        return min(device.width, device.height) >= 414 ? 44 : 32
    }

    /// The horizontal safe area each side: bars lay their items out inside it.
    public var horizontalInset: Double { phoneLandscape ? device.landscapeInset : 0 }

    /// iPhones show no large titles in landscape (compact height, NAVIGATION-MODEL.md).
    public var showsLargeTitles: Bool { !phoneLandscape }
}
