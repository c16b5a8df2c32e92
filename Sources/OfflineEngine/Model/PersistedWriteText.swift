import Foundation

/// The text the store keeps for a write (read back by `PersistedForm.mutation(_:)`), written
/// member by member in the order of their sorted keys: the text `JSONText` gives the write as a
/// JSON value, without building that value and sorting its keys first, which took about a sixth
/// of an offline `execute()` (`Benchmarks scale.enqueue`). The tests check the two give the same
/// bytes.
enum PersistedWriteText {
    /// The write's stored bytes.
    static func data(_ mutation: Mutation) -> Data {
        var members = Members()
        members.add("attempts") { JSONText.write(.number(JSONNumber(mutation.attempts)), to: &$0) }
        members.add("createdAt") {
            JSONText.write(.number(JSONNumber(mutation.createdAt.timeIntervalSince1970)), to: &$0)
        }
        // Written only when set: a store of an earlier version reads the same bytes.
        if mutation.expectsRows { members.add("expectRows") { JSONText.write(.bool(true), to: &$0) } }
        members.add("filters") { output in
            JSONText.write(.array(mutation.filters.map(PersistedForm.json)), to: &output)
        }
        members.add("id") { output in
            output.append(UInt8(ascii: "\""))
            mutation.id.appendLowercasedText(to: &output)
            output.append(UInt8(ascii: "\""))
        }
        members.add("ignoreDuplicates") { JSONText.write(.bool(mutation.ignoreDuplicates), to: &$0) }
        members.add("missingDefault") { JSONText.write(.bool(mutation.useDefaultForMissing), to: &$0) }
        if let columns = mutation.onConflict {
            members.add("onConflict") { JSONText.write(.array(columns.map(JSONValue.string)), to: &$0) }
        }
        members.add("op") { JSONText.writeString(mutation.operation.rawValue, to: &$0) }
        if let owner = mutation.ownerID { members.add("owner") { JSONText.writeString(owner, to: &$0) } }
        if let returning = mutation.returning {
            members.add("returning") { JSONText.writeString(returning, to: &$0) }
        }
        members.add("rows") { output in
            output.append(UInt8(ascii: "["))
            for (index, row) in mutation.rows.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                JSONText.write(.object(row.values), to: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        if let schema = mutation.schema { members.add("schema") { JSONText.writeString(schema, to: &$0) } }
        if !mutation.shownOnlyColumns.isEmpty {
            members.add("shownOnly") {
                JSONText.write(.array(mutation.shownOnlyColumns.sorted().map(JSONValue.string)), to: &$0)
            }
        }
        members.add("table") { JSONText.writeString(mutation.table, to: &$0) }
        return Data(members.finished())
    }

    /// An object's text, member by member, in the order they are added (the caller's keys are
    /// in byte order, as `JSONText` sorts them: every key is ASCII).
    private struct Members {
        var output: [UInt8]
        var count = 0

        init() {
            output = []
            output.reserveCapacity(256)
            output.append(UInt8(ascii: "{"))
        }

        mutating func add(_ key: StaticString, value: (inout [UInt8]) -> Void) {
            if count > 0 { output.append(UInt8(ascii: ",")) }
            count += 1
            output.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { output.append(contentsOf: $0) }
            output.append(UInt8(ascii: "\""))
            output.append(UInt8(ascii: ":"))
            value(&output)
        }

        consuming func finished() -> [UInt8] {
            output.append(UInt8(ascii: "}"))
            return output
        }
    }
}
