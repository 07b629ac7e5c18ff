import Foundation

/// How long the requests that ``StubScope/injectFaults(_:rate:faults:latency:seed:fileID:filePath:line:column:)``
/// or ``StubScope/injectLatency(_:for:seed:fileID:filePath:line:column:)`` cover wait before their answer: nothing, a fixed time, or a time drawn for each
/// request from the scope's seed.
///
/// ```swift
/// await scope.injectLatency(.logNormal(median: .milliseconds(80), sigma: 0.5))
/// ```
public struct StubLatency: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case none
        case fixed(Duration)
        case uniform(ClosedRange<Duration>)
        case logNormal(median: Duration, sigma: Double)
    }

    let kind: Kind

    /// No added wait. (Named `zero`, like `Duration.zero`, not `none`, which reads
    /// as `Optional.none` wherever an optional latency is expected.)
    public static let zero = StubLatency(kind: .none)

    /// The same wait for every request.
    public static func fixed(_ duration: Duration) -> StubLatency {
        StubLatency(kind: .fixed(duration))
    }

    /// A wait drawn evenly from `range` for each request: `.uniform(.milliseconds(20) ... .milliseconds(200))`.
    public static func uniform(_ range: ClosedRange<Duration>) -> StubLatency {
        StubLatency(kind: .uniform(range))
    }

    /// A wait drawn for each request from a log-normal distribution, the usual shape
    /// of network latency: half the requests wait less than `median`, and `sigma`
    /// (the standard deviation of the wait's logarithm) sets the tail; 0.5 makes one
    /// request in twenty wait more than 2.3 times the median.
    ///
    /// A draw is capped at 1,000 times the median.
    public static func logNormal(median: Duration, sigma: Double) -> StubLatency {
        StubLatency(kind: .logNormal(median: median, sigma: sigma))
    }

    /// The largest multiple of the median a log-normal draw may reach.
    static let logNormalCap = 1_000.0

    /// Why the latency cannot be used (a negative wait, an unusable sigma), or
    /// `nil` when it can.
    var problem: String? {
        switch kind {
        case .none:
            nil
        case let .fixed(duration):
            duration < .zero ? FaultMessages.negativeLatency(duration) : nil
        case let .uniform(range):
            range.lowerBound < .zero ? FaultMessages.negativeLatency(range.lowerBound) : nil
        case let .logNormal(median, sigma):
            if median < .zero {
                FaultMessages.negativeLatency(median)
            } else if !sigma.isFinite || sigma < 0 {
                FaultMessages.invalidSigma(sigma)
            } else {
                nil
            }
        }
    }

    /// The wait for one request, drawn from `generator`.
    func draw(using generator: inout SplitMix64) -> Duration {
        switch kind {
        case .none:
            return .zero
        case let .fixed(duration):
            return duration
        case let .uniform(range):
            return range.lowerBound + (range.upperBound - range.lowerBound) * generator.nextUnit()
        case let .logNormal(median, sigma):
            // Box–Muller: a standard normal from two uniform draws (the first in 0 < u ≤ 1).
            let radius = (-2 * log(1 - generator.nextUnit())).squareRoot()
            let normal = radius * cos(2 * Double.pi * generator.nextUnit())
            return median * min(exp(sigma * normal), Self.logNormalCap)
        }
    }
}

extension StubLatency: CustomStringConvertible {
    /// The latency written as `none`, `0.08 seconds`, `uniform 0.02 seconds...0.2 seconds`
    /// or `log-normal (median 0.08 seconds, sigma 0.5)`.
    public var description: String {
        switch kind {
        case .none: "none"
        case let .fixed(duration): "\(duration)"
        case let .uniform(range): "uniform \(range.lowerBound)...\(range.upperBound)"
        case let .logNormal(median, sigma): "log-normal (median \(median), sigma \(sigma))"
        }
    }
}
