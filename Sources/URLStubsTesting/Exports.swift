/// `URLStubsTesting` re-exports the core, so test targets need only this import.
@_exported import URLStubs
