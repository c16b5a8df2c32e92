import Foundation

/// The `Prefer` header as PostgREST reads it: the preferences it knows, anything else ignored
/// (PostgREST's default, lenient handling). Preferences that would change what is committed
/// (`tx=rollback`, strict handling with `max-affected`) or how values are written (`timezone`)
/// are refused with a clear 400 instead of being ignored.
struct GatewayPreferences {
    /// `return=`: what a write answers with.
    enum Representation: String {
        case minimal = "return=minimal"
        case full = "return=representation"
        case headersOnly = "return=headers-only"
    }

    /// `resolution=`: what an insert does with a row whose key exists.
    enum Resolution: String {
        case merge = "resolution=merge-duplicates"
        case ignore = "resolution=ignore-duplicates"
    }

    /// `count=`: how the total is counted.
    enum Count: String {
        case exact = "count=exact"
        case planned = "count=planned"
        case estimated = "count=estimated"
    }

    private(set) var representation: Representation?
    private(set) var resolution: Resolution?
    private(set) var count: Count?
    /// `missing=default` or `missing=null`, as written.
    private(set) var missing: String?

    /// Whether columns the body lacks get their defaults rather than NULL.
    var missingDefault: Bool { missing == "missing=default" }

    /// Whether a write's answer carries its total (PostgREST counts writes for `exact` and
    /// `estimated`, not for `planned`).
    var countsWrites: Bool { count == .exact || count == .estimated }

    init(_ header: String?) throws(GatewaySQL.Unsupported) {
        let items = (header ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for item in items {
            if item == "tx=rollback" || item == "handling=strict" || item.hasPrefix("timezone=") {
                throw GatewaySQL.Unsupported(what: "Prefer: \(item)")
            }
            if representation == nil, let value = Representation(rawValue: item) { representation = value }
            if resolution == nil, let value = Resolution(rawValue: item) { resolution = value }
            if count == nil, let value = Count(rawValue: item) { count = value }
            if missing == nil, item == "missing=default" || item == "missing=null" { missing = item }
        }
    }

    /// `Preference-Applied` for a read: only the count is echoed.
    var appliedToRead: String? { count?.rawValue }

    /// `Preference-Applied` for a write, in PostgREST's order: resolution (inserts that have a
    /// conflict target), missing, return, count.
    func appliedToWrite(resolutionApplies: Bool, missingApplies: Bool) -> String? {
        let values = [
            resolutionApplies ? resolution?.rawValue : nil, missingApplies ? missing : nil,
            representation?.rawValue, count?.rawValue,
        ]
        .compactMap { $0 }
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}
