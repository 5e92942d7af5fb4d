import Foundation

/// The font files NavReel renders with, shipped in this target's resource bundle (`Fonts/`, with
/// their licence files), so that frames never depend on the fonts installed on the machine.
public enum BundledFonts {
    /// The folder holding the shipped font files, or nil when the resource bundle cannot be found
    /// (SwiftPM puts it next to the executable, `NavReel_NavReelFonts.resources` on Linux or
    /// `NavReel_NavReelFonts.bundle` on macOS).
    public static let directory: String? = {
        guard let url = Bundle.module.url(forResource: "Fonts", withExtension: nil) else { return nil }
        return url.path
    }()
}
