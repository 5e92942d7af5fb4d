// NavReel's modules are imported by name where they are used (`import Raster`, `import Scenario`,
// ...): nothing is re-exported wholesale, so a client importing NavReel or NavReelTesting does not
// receive names such as `Image`, `Path`, `Canvas` or `SHA256` that SwiftUI and CryptoKit also use.

/// NavReel's version, recorded in every baseline it writes.
public enum NavReelVersion {
    public static let string = "0.1.0"
}
