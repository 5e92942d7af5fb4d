// swift-tools-version:6.1
import PackageDescription

// Layering (see ARCHITECTURE.md in the design folder): CPNG is the only code that calls libpng
// (and zlib and libdeflate);
// Raster owns images and the Swift PNG API; NavReel is the library a user links; `navreel` is a
// thin command line over it.
let package = Package(
    name: "NavReel",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "NavReel", targets: ["NavReel"]),
        .library(name: "NavReelTesting", targets: ["NavReelTesting"]),
        .library(name: "Raster", targets: ["Raster"]),
        .executable(name: "navreel", targets: ["navreel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        // libdeflate compresses baselines' image data and maps: twice as fast as zlib for the same
        // size on NavReel's frames (PNGEncodeOptions.baseline). Called only from CPNG.
        .systemLibrary(
            name: "CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]
        ),
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]
        ),
        .target(
            name: "CPNG",
            dependencies: ["CLibPNG", "CLibDeflate"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]
        ),
        .systemLibrary(
            name: "CLibAV",
            pkgConfig: "libavformat",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"]), .brew(["ffmpeg"])]
        ),
        // CAV is the only code that calls FFmpeg (animated GIF and PNG, QuickTime/MP4 video).
        .target(
            name: "CAV",
            dependencies: ["CLibAV"],
            linkerSettings: [.linkedLibrary("avformat"), .linkedLibrary("avcodec"), .linkedLibrary("swscale"), .linkedLibrary("avutil")]
        ),
        // The font files NavReel renders with (Inter, and the fallback subsets), with their
        // licences: frames never depend on the machine's fonts.
        .target(name: "NavReelFonts", resources: [.copy("Fonts")]),
        .target(name: "Raster", dependencies: ["CPNG", "CFreeType", "CHarfBuzz", "NavReelFonts"]),
        .target(name: "Compare", dependencies: ["Raster"]),
        .target(name: "Scenario", dependencies: [.product(name: "Yams", package: "Yams")]),
        .target(name: "Navigation", dependencies: ["Scenario", "Raster"]),
        .target(name: "NavReel", dependencies: ["Raster", "Compare", "Scenario", "Navigation", "CAV", .product(name: "Yams", package: "Yams")]),
        // Assertions for XCTest and Swift Testing over the NavReel library.
        .target(name: "NavReelTesting", dependencies: ["NavReel"]),
        .executableTarget(
            name: "navreel",
            dependencies: [
                "NavReel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "CPNG"]),
        .testTarget(name: "CompareTests", dependencies: ["Compare", "Raster"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "Scenario", "Raster"]),
        .testTarget(name: "NavReelCLITests", dependencies: ["NavReel", "Raster"]),
        // Types named like SwiftUI's and CryptoKit's, for the test that NavReelTesting's names do not collide.
        .target(name: "CollisionStandIns", path: "Tests/CollisionStandIns"),
        .testTarget(name: "NavReelTestingTests", dependencies: ["NavReelTesting", "NavReel", "CollisionStandIns"]),
    ]
)

// libFuzzer targets (issue 16), built only by scripts/fuzz: it sets NAVREEL_FUZZ=1 and builds
// with `--sanitize fuzzer --sanitize address` into its own scratch folder, so a normal build,
// `swift test` and `.ci/run` never see them. Each file defines LLVMFuzzerTestOneInput; libFuzzer
// supplies main, hence -parse-as-library.
if Context.environment["NAVREEL_FUZZ"] == "1" {
    let fuzzTargets: [(String, [Target.Dependency])] = [
        ("fuzz-png", ["Raster", "Compare"]),
        ("fuzz-scenario", ["Scenario", "NavReel"]),
        ("fuzz-render", ["Scenario", "Navigation", "NavReel"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(.executableTarget(name: name, dependencies: dependencies, path: "Fuzz/\(name)",
                                                 swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
