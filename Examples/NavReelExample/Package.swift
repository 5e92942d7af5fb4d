// swift-tools-version:6.1
import PackageDescription

// An app's test suite using NavReel: depends on the repository by path, as an app would depend
// on it by URL.
let package = Package(
    name: "NavReelExample",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "NavReel", path: "../..")],
    targets: [
        // __Baselines__ holds the assertions' PNG frames, not sources: excluded, or SwiftPM warns
        // about unhandled files.
        .testTarget(name: "ExampleTests", dependencies: [.product(name: "NavReelTesting", package: "NavReel")],
                    exclude: ["__Baselines__"]),
    ]
)
