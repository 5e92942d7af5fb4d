// swift-tools-version:6.1
import PackageDescription

// Layering (see ARCHITECTURE.md in the design folder): CPNG is the only code that calls libpng
// (and zlib and libdeflate);
// Raster owns images and the Swift PNG API; NavReel is the library a user links; `navreel` is a
// thin command line over it.
// FFmpeg's headers. pkg-config would also put -lavformat on the link line, and a linked FFmpeg costs
// every start of `navreel` ~50 ms (CAV loads it with dlopen instead). On Linux the headers are in
// the compiler's default search path (Debian and Ubuntu: /usr/include/<triple>), so pkg-config is
// skipped; on macOS Homebrew's headers need its flags (dylibs are cheaper to load there).
#if os(Linux)
let libAVPkgConfig: String? = nil
#else
let libAVPkgConfig: String? = "libavformat"
#endif

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
        // libdeflate compresses baselines' image data and maps (twice as fast as zlib for the same
        // size on NavReel's frames, PNGEncodeOptions.baseline) and inflates the image data of plain
        // PNGs and the maps (about 2.5x zlib's speed). Called only from CPNG.
        .systemLibrary(
            name: "CLibDeflate",
            pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"]), .brew(["libdeflate"])]
        ),
        .target(
            name: "CPNG",
            dependencies: ["CLibPNG", "CLibDeflate"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]
        ),
        .systemLibrary(
            name: "CLibAV",
            pkgConfig: libAVPkgConfig,
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"]), .brew(["ffmpeg"])]
        ),
        // CAV is the only code that calls FFmpeg (animated GIF and PNG, QuickTime/MP4 video). It
        // loads FFmpeg with dlopen on first use instead of linking it: linked, the ~150 libraries
        // it pulls in cost every `navreel` start about 50 ms. CLibAV gives it the headers only.
        .target(
            name: "CAV",
            dependencies: ["CLibAV"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        // The font files NavReel renders with (Inter, and the fallback subsets), with their
        // licences: frames never depend on the machine's fonts.
        .target(name: "NavReelFonts", resources: [.copy("Fonts")]),
        // CFontLibs is the only code that calls FreeType and HarfBuzz: on Linux it loads them with
        // dlopen when the first typeface is made (see its header), so that commands that draw no
        // text (`diff`, `--version`) do not pay for loading them. CFreeType and CHarfBuzz give the
        // headers; their pkg-config flags still put the libraries on the link line (after any
        // --as-needed SwiftPM passes on), so scripts/build-release removes them from the finished
        // binary with patchelf. A plain build keeps them linked and works the same, starting slower.
        .target(
            name: "CFontLibs",
            dependencies: ["CFreeType", "CHarfBuzz"],
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]
        ),
        .target(name: "Raster", dependencies: ["CPNG", "CFontLibs", "CFreeType", "CHarfBuzz", "NavReelFonts"]),
        // The per-pixel anti-aliasing test of comparisons, in C for its vector compares (no library).
        .target(name: "CCompare"),
        .target(name: "Compare", dependencies: ["Raster", "CCompare"]),
        .target(name: "Scenario", dependencies: [.product(name: "Yams", package: "Yams")]),
        .target(name: "Navigation", dependencies: ["Scenario", "Raster"]),
        // Ctrl-C and closed pipes: temporary files removed on SIGINT/SIGTERM/SIGHUP, SIGPIPE
        // ignored (installed by the command line only; the library registers its temporary files).
        .target(name: "CSignals"),
        .target(name: "NavReel", dependencies: ["Raster", "Compare", "Scenario", "Navigation", "CAV", "CSignals", .product(name: "Yams", package: "Yams")]),
        // Assertions for XCTest and Swift Testing over the NavReel library.
        .target(name: "NavReelTesting", dependencies: ["NavReel"]),
        .executableTarget(
            name: "navreel",
            dependencies: [
                "NavReel",
                "CSignals",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "CPNG"]),
        .testTarget(name: "CompareTests", dependencies: ["Compare", "Raster", "CCompare", "CPNG"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario"]),
        .testTarget(name: "NavigationTests", dependencies: ["Navigation", "Scenario", "Raster"]),
        // Fixtures are read from the source tree (#filePath), not bundled.
        .testTarget(name: "NavReelCLITests", dependencies: ["NavReel", "Raster"], exclude: ["Fixtures"]),
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
        ("fuzz-media", ["NavReel", "Raster", "Compare"]),
    ]
    for (name, dependencies) in fuzzTargets {
        package.targets.append(.executableTarget(name: name, dependencies: dependencies, path: "Fuzz/\(name)",
                                                 swiftSettings: [.unsafeFlags(["-parse-as-library"])]))
    }
}
