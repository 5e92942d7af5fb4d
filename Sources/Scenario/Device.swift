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
    /// Whether the screen has a notch or island (the status bar hides in landscape).
    public var notched: Bool

    public init(name: String, width: Double, height: Double, scale: Double, statusBar: Double,
                idiom: Idiom = .phone, notched: Bool? = nil) {
        self.name = name
        self.width = width
        self.height = height
        self.scale = scale
        self.statusBar = statusBar
        self.idiom = idiom
        self.notched = notched ?? (statusBar > 20)
    }

    /// The built-ins of NAVIGATION-MODEL.md ("Devices").
    public static let builtIns: [Device] = [
        Device(name: "iphone-se", width: 375, height: 667, scale: 2, statusBar: 20),
        Device(name: "iphone-x", width: 375, height: 812, scale: 3, statusBar: 44),
        Device(name: "iphone-14", width: 390, height: 844, scale: 3, statusBar: 47),
        Device(name: "iphone-14-pro", width: 393, height: 852, scale: 3, statusBar: 54),
        Device(name: "iphone-14-pro-max", width: 430, height: 932, scale: 3, statusBar: 54),
        Device(name: "iphone-xr", width: 414, height: 896, scale: 2, statusBar: 44),
    ]

    public static func named(_ name: String) -> Device? { builtIns.first { $0.name == name } }
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

    /// Notched phones hide the status bar in landscape; others keep 20 pt (NAVIGATION-MODEL.md).
    public var statusBar: Double {
        guard orientation == .landscape, device.idiom == .phone else { return device.statusBar }
        return device.notched ? 0 : device.statusBar
    }

    /// Bar height: 44 pt, 32 pt on phones in landscape, 50 pt on iPad.
    public var barHeight: Double {
        if device.idiom == .pad { return 50 }
        return orientation == .landscape ? 32 : 44
    }
}
