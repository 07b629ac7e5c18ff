// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "URLStubs",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "URLStubs", targets: ["URLStubs"]),
        .library(name: "URLStubsTesting", targets: ["URLStubsTesting"]),
    ],
    targets: [
        .target(name: "URLStubs"),
        .target(name: "URLStubsTesting", dependencies: ["URLStubs"]),
        .executableTarget(
            name: "URLStubsBenchmarks",
            dependencies: [
                "URLStubs",
                // For the `.stubbed` trait's cost per test: linked on Linux only, where
                // Swift Testing is a library of the toolchain (see TraitScopes.swift).
                .target(name: "URLStubsTesting", condition: .when(platforms: [.linux])),
            ],
            path: "Benchmarks/URLStubsBenchmarks"
        ),
        .testTarget(
            name: "URLStubsTests",
            dependencies: ["URLStubs", "URLStubsTesting"],
            // Cassettes are read from the source tree (next to the tests), not bundled.
            exclude: ["Recording/Cassettes"],
            resources: [.copy("Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
