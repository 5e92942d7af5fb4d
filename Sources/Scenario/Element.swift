/// What the painter can draw, each with a small id for element maps and a key for scenario files
/// (`tolerance.elements`). Ids are stable: they are stored in baselines.
public enum Element: UInt8, Sendable, CaseIterable, Equatable {
    case content = 1
    case statusBar = 2
    case barBackground = 3
    case hairline = 4
    case title = 5
    case largeTitle = 6
    case backButton = 7
    case barButton = 8
    case dimming = 9
    case edgeShadow = 10

    /// The key used in scenario files.
    public var key: String {
        switch self {
        case .content: return "content"
        case .statusBar: return "statusBar"
        case .barBackground: return "barBackground"
        case .hairline: return "hairline"
        case .title: return "title"
        case .largeTitle: return "largeTitle"
        case .backButton: return "backButton"
        case .barButton: return "barButton"
        case .dimming: return "dimming"
        case .edgeShadow: return "edgeShadow"
        }
    }

    /// The name used in reports.
    public var displayName: String {
        switch self {
        case .content: return "content"
        case .statusBar: return "status bar"
        case .barBackground: return "bar background"
        case .hairline: return "hairline"
        case .title: return "title"
        case .largeTitle: return "large title"
        case .backButton: return "back button"
        case .barButton: return "bar button"
        case .dimming: return "dimming"
        case .edgeShadow: return "edge shadow"
        }
    }

    public static func withKey(_ key: String) -> Element? { allCases.first { $0.key == key } }
}
