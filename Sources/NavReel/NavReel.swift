@_exported import Raster
@_exported import Compare
@_exported import Scenario
@_exported import Navigation

/// NavReel's version, recorded in every baseline it writes.
public enum NavReelVersion {
    public static let string = "0.1.0"
}
