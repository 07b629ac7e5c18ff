/// One `injectFaults` call of a scope: which requests it covers, how often it
/// fails them and with what, and the latency it adds.
struct FaultRule {
    let pattern: RequestPattern
    /// The share of covered requests that fail, in 0...1.
    let rate: Double
    /// What a failing request fails with; one is drawn per request.
    let faults: [StubFault]
    let latency: StubLatency
    let location: StubSourceLocation

    /// The call as messages write it: `The faults for any request`.
    var summary: String {
        FaultMessages.faultsCall(pattern)
    }

    /// Why the call cannot be used, or `nil` when it can.
    var problem: String? {
        if let problem = pattern.problem {
            return problem
        }
        guard rate.isFinite, (0...1).contains(rate) else {
            return FaultMessages.invalidRate(rate)
        }
        if rate > 0, faults.isEmpty {
            return FaultMessages.noFaults
        }
        if let fault = faults.first(where: { $0.problem != nil }), let problem = fault.problem {
            return FaultMessages.unusableFault(fault, problem: problem)
        }
        return latency.problem
    }

    /// What the rule decides for a request with `identity` under `seed`: the fault
    /// it fails with, if any, and its latency.
    func decide(for identity: RequestIdentity, seed: UInt64) -> (fault: StubFault?, latency: Duration) {
        var latencyDraws = identity.generator(seed: seed, for: .latency)
        let latency = latency.draw(using: &latencyDraws)
        var faultDraws = identity.generator(seed: seed, for: .fault)
        // `<` and a draw in 0..<1: a rate of 0 never fails, 1 always does, and every
        // request failed at one rate is failed at any higher one.
        guard faultDraws.nextUnit() < rate else {
            return (nil, latency)
        }
        var choiceDraws = identity.generator(seed: seed, for: .choice)
        return (faults[choiceDraws.next(below: faults.count)], latency)
    }
}
