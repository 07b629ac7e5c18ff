print("URLStubs benchmarks: not yet implemented")
