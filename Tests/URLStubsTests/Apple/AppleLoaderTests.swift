#if canImport(ObjectiveC)
import Foundation
import Testing
@_spi(Integration) @testable import URLStubs

/// Apple's two URL loaders, background configurations, and the task kinds
/// Foundation on Linux cannot complete: what only a Mac or a simulator can prove.
@Suite("Apple platforms: loaders, task kinds and background configurations")
struct AppleLoaderTests {
    private func url(_ path: String) -> URL {
        URL(string: "https://api.example.com\(path)")!
    }

    /// One session for every case: a configuration someone else set to the
    /// Network.framework loader after stubbing it.
    private static let networkLoaderSession: URLSession = {
        let configuration = URLSessionConfiguration.stubbed
        ClassicLoadingMode.select(false, on: configuration)
        return URLSession(configuration: configuration)
    }()

    /// Whether this OS has the Network.framework loader (iOS 18.4, macOS 15.4 and later).
    private static var hasNetworkLoader: Bool {
        ClassicLoadingMode.isClassic(.ephemeral) != nil
    }

    @Test("stubbed configurations select the classic loader where the OS has a choice, even from a base set to the other")
    func stubbedSelectsTheClassicLoader() throws {
        let expected: Bool? = Self.hasNetworkLoader ? true : nil
        #expect(ClassicLoadingMode.isClassic(.stubbed) == expected)
        let base = URLSessionConfiguration.default
        ClassicLoadingMode.select(false, on: base)
        #expect(ClassicLoadingMode.isClassic(base) == (Self.hasNetworkLoader ? false : nil))
        #expect(ClassicLoadingMode.isClassic(try .stubbed(from: base)) == expected)
    }

    @Test("the resume hook also covers NWURLSessionTask where the OS has it", .enabled(if: NSClassFromString("NWURLSessionTask") != nil))
    func hookCoversTheNetworkLoader() {
        StubInterception.prepare()
        #expect(ResumeHook.hookedClassNames.contains("NWURLSessionTask"))
        #expect(ResumeHook.problem == nil)
    }

    @Test(
        "64 parallel scopes through a session set to usesClassicLoadingMode = false each get their own body",
        .enabled(if: AppleLoaderTests.hasNetworkLoader),
        arguments: 0..<64
    )
    func parallelScopesOnTheNetworkLoader(index: Int) async throws {
        try await withStubScope { scope in
            #expect(ClassicLoadingMode.isClassic(Self.networkLoaderSession.configuration) == false)
            await scope.stub(.get(url("/network-loader")), with: .text("scope \(index)"))
            let (data, response) = try await Self.networkLoaderSession.data(for: URLRequest(url: url("/network-loader")))
            #expect(String(decoding: data, as: UTF8.self) == "scope \(index)")
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(await scope.requests.count == 1)
        }
    }

    @Test("a background configuration is refused by stubbed(from:), naming its identifier")
    func backgroundConfigurationIsRefused() {
        #expect(throws: StubInterceptionError.backgroundConfiguration(identifier: "com.example.refused")) {
            try URLSessionConfiguration.stubbed(from: .background(withIdentifier: "com.example.refused"))
        }
    }

    @Test("a background configuration made in a scope while configurations are intercepted is a problem of that scope")
    func backgroundConfigurationUnderTheOptIn() async throws {
        try StubInterception.interceptDefaultConfigurations()
        let outcome = await StubScope.withNewScope(name: nil, location: here()) { _ in
            _ = URLSessionConfiguration.background(withIdentifier: "com.example.opt-in")
        }
        #expect(outcome.problems.map(\.message) == [StubInterceptionError.backgroundConfiguration(identifier: "com.example.opt-in").description])
    }

    @Test("download(for:) is answered by the stub: the file holds the body")
    func download() async throws {
        try await withStubScope { scope in
            await scope.stub(.get(url("/file.txt")), with: .text("file body"))
            let (file, response) = try await URLSession.stubbed.download(for: URLRequest(url: url("/file.txt")))
            #expect(try String(contentsOf: file, encoding: .utf8) == "file body")
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(await scope.requests.map(\.url.path) == ["/file.txt"])
        }
    }

    @Test("upload(for:from:) is answered by the stub, whose recorded request has no body: URL protocols are not shown an upload's body")
    func uploadBodyIsNotShown() async throws {
        try await withStubScope { scope in
            await scope.stub(.post(url("/upload")), with: .status(201))
            var request = URLRequest(url: url("/upload"))
            request.httpMethod = "POST"
            let (_, response) = try await URLSession.stubbed.upload(for: request, from: Data("payload".utf8))
            #expect((response as? HTTPURLResponse)?.statusCode == 201)
            #expect(await scope.requests.first.map { $0.body ?? Data() } == Data())
        }
    }
}
#endif
