#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many times longer a test's real-time limits are in this process: 10 under
/// ThreadSanitizer (which slows every access 5 to 15 times, and more with every suite running at
/// once), else 1; the environment variable `OFFLINE_ENGINE_TIME_SCALE` sets it outright.
///
/// The limits are guards that keep a wait for an observable result from hanging the run, not
/// measures of speed: under a sanitizer the same wait takes longer, and a guard that fires then
/// reports a slowdown, not a bug. ``withTimeout(_:_:)`` applies it.
///
/// ```swift
/// #expect(waited < .seconds(5 * realTimeScale))
/// ```
public let realTimeScale: Double = {
    if let text = getenv("OFFLINE_ENGINE_TIME_SCALE").map({ String(cString: $0) }), let value = Double(text),
        value > 0
    {
        return value
    }
    return threadSanitizerIsRunning ? 10 : 1
}()

/// Whether ThreadSanitizer's runtime is in this process (`swift test --sanitize=thread`).
private var threadSanitizerIsRunning: Bool {
    dlsym(dlopen(nil, RTLD_LAZY), "__tsan_init") != nil
}
