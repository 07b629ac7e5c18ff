#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import URLStubs

/// What URLStubs reads from the process's environment, set in a child process of
/// its own so that no other test sees it.
@Suite("What is read from the process's environment")
struct ProcessEnvironmentTests {
    #if os(macOS) || os(Linux) || os(Windows)
    @Test("URLSTUBS_SEED in the environment overrides the seed a scope's faults are given", .enabled(if: DeliveryTests.runsExitTests, "set URLSTUBS_EXIT_TESTS=1 and filter on ProcessEnvironmentTests"))
    func seedFromTheEnvironment() async {
        await #expect(processExitsWith: .success) {
            setenv("URLSTUBS_SEED", "5", 1)
            let seed = try await withStubScope { scope in
                await scope.injectFaults(rate: 0, seed: 1)
                return await scope.seed
            }
            exit(seed == 5 ? 0 : 1)
        }
    }
    #endif
}
