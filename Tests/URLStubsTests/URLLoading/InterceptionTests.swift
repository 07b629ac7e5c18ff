#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
import URLStubs

@Suite("Intercepting sessions you do not build", .timeLimit(.minutes(1)))
struct InterceptionTests {
    #if canImport(FoundationNetworking)
    @Test("on Linux, intercepting URLSession.shared throws an error that says why and what to do")
    func sharedSessionThrowsOnLinux() {
        let error = #expect(throws: StubInterceptionError.self) { try StubInterception.interceptSharedSession() }
        #expect(error?.description.contains("Foundation there consults its built-in HTTP protocol before any registered class") == true)
        #expect(error?.description.contains("pass URLSession.stubbed") == true)
    }

    @Test("on Linux, intercepting default configurations throws the same error")
    func defaultConfigurationsThrowOnLinux() {
        #expect(throws: StubInterceptionError.unsupportedOnLinux) { try StubInterception.interceptDefaultConfigurations() }
    }
    #endif

    @Test("a stubbed configuration puts the stub protocol first and has no URL cache")
    func stubbedConfiguration() {
        let configuration = URLSessionConfiguration.stubbed
        #expect(configuration.protocolClasses?.first == StubURLProtocol.self)
        #expect(configuration.urlCache == nil)
    }
}
