import Foundation
import OfflineEngine
import OfflineEngineTesting
import Testing

/// The follow tests' feed reads PostgreSQL's `test_decoding` output: a decoded row must be the
/// row the gateway answers with, or a list fed by it would never equal the server's answer.
@Suite("End to end: rows decoded from PostgreSQL's log", .offCooperativePool, .timeLimit(.minutes(10)))
struct LogicalDecodingTests {
    @Test("an inserted row decoded from the log equals the row the gateway answers, value for value")
    func decodedRowEqualsGatewayRow() async throws {
        let database = try SupabaseDatabase()
        for statement in [
            """
            CREATE TABLE public.things (
                id bigint PRIMARY KEY, label text, amount numeric, ratio double precision, flag boolean,
                at timestamptz, data jsonb, owner uuid, "Odd Name" text, missing text
            )
            """,
            "ALTER TABLE public.things REPLICA IDENTITY FULL",
            "GRANT SELECT ON public.things TO anon, authenticated",
        ] {
            try database.admin.execute(statement)
        }
        let slot = try ReplicationSlotFeed(database: database.database)
        defer { slot.stop() }
        try database.admin.execute(
            """
            INSERT INTO public.things VALUES (7, 'it''s "here", [1]: ok', 12.50, 0.25, true,
                '2026-01-02 03:04:05.678901+00', '{"a": [1, null]}', 'a11ce000-0000-4000-8000-000000000001',
                'odd', NULL)
            """)
        let changes = try await Self.changes(from: slot, count: 1)
        try await LocalHTTPServer.serving(try database.gateway()) { local in
            let served = try await serverAnswer(
                local, as: SupabaseDatabase.session(GatewayEndToEndTests.alice),
                { $0.from("things").select() })
            #expect(changes.map(\.kind) == [.insert])
            #expect(changes.first?.record == served.first)
            #expect(changes.first?.columns.count == 10)
            #expect(changes.first?.commitTimestamp != nil)
        }
    }

    @Test(
        "an update carries the old row under REPLICA IDENTITY FULL; a large value it left alone is missing, so the record is cut short"
    )
    func updateAndToastedValue() async throws {
        let database = try SupabaseDatabase()
        try database.admin.execute("CREATE TABLE public.notes (id bigint PRIMARY KEY, body text, n integer)")
        try database.admin.execute("ALTER TABLE public.notes REPLICA IDENTITY FULL")
        // Stored out of line: too long, and too varied to compress in place.
        try database.admin.execute(
            "INSERT INTO public.notes SELECT 1, string_agg(md5(i::text), '') , 1 FROM generate_series(1, 400) i"
        )
        let slot = try ReplicationSlotFeed(database: database.database)
        defer { slot.stop() }
        try database.admin.execute("UPDATE public.notes SET n = 2 WHERE id = 1")
        try database.admin.execute("DELETE FROM public.notes WHERE id = 1")
        let changes = try await Self.changes(from: slot, count: 2)
        #expect(changes.map(\.kind) == [.update, .delete])
        let update = try #require(changes.first)
        #expect(update.record == Row(["id": 1, "n": 2]), "the untouched long body is not in the record")
        if slot.plugin == .testDecoding {
            #expect(update.columns == ["id", "body", "n"], "the columns say the record lacks one")
        }
        #expect(update.oldRecord["n"] == 1 && update.oldRecord["body"]?.stringValue?.count == 12_800)
        #expect(changes.last?.oldRecord["id"] == 1)
    }

    @Test("a line of test_decoding reads with quoted names, doubled quotes, nulls and an old key")
    func readsALine() {
        let line =
            #"table "My Schema"."Tasks": UPDATE: old-key: id[bigint]:3 "a ""b"""[text]:'x''y z' new-tuple: "#
            + #"id[bigint]:4 "a ""b"""[text]:null done[boolean]:true at[timestamp with time zone]:'2026-01-02 03:04:05+00'"#
        let change = TestDecodingChange.change(from: line, committedAt: nil)
        #expect(change?.schema == "My Schema" && change?.table == "Tasks")
        #expect(change?.oldRecord == Row(["id": 3, "a \"b\"": "x'y z"]))
        #expect(
            change?.record == Row(["id": 4, "a \"b\"": nil, "done": true, "at": "2026-01-02T03:04:05+00:00"]))
        #expect(
            TestDecodingChange.change(from: "table public.t: DELETE: (no-tuple-data)", committedAt: nil)?
                .oldRecord == [:])
        #expect(TestDecodingChange.change(from: "BEGIN", committedAt: nil) == nil)
        #expect(
            TestDecodingChange.commitTime(from: "COMMIT (at 2026-01-02 03:04:05.5+00)")
                == Date(timeIntervalSince1970: 1_767_323_045.5))
    }

    @Test("a line of wal2json (format 2) reads with its old row, its commit time, and JSON text as JSON")
    func readsAWal2JsonLine() {
        let line =
            #"{"action":"U","timestamp":"2026-01-02 03:04:05.5+00","schema":"public","table":"tasks","#
            + #""columns":[{"name":"id","type":"bigint","value":4},{"name":"data","type":"jsonb","value":"{\"a\": [1]}"},"#
            + #"{"name":"at","type":"timestamp with time zone","value":"2026-01-02 03:04:05+00"},"#
            + #"{"name":"done","type":"boolean","value":true},{"name":"note","type":"text","value":null}],"#
            + #""identity":[{"name":"id","type":"bigint","value":3}]}"#
        let change = Wal2JsonChange.change(from: line)
        #expect(change?.kind == .update && change?.table == "tasks")
        #expect(
            change?.record
                == Row([
                    "id": 4, "data": .object(["a": [1]]), "at": "2026-01-02T03:04:05+00:00", "done": true,
                    "note": nil,
                ]))
        #expect(change?.oldRecord == Row(["id": 3]))
        #expect(change?.commitTimestamp == Date(timeIntervalSince1970: 1_767_323_045.5))
        #expect(Wal2JsonChange.change(from: #"{"action":"T","schema":"public","table":"tasks"}"#) == nil)
    }

    /// The first `count` changes the slot reads, waiting for them up to a minute (the slot is read every 20 ms; a loaded machine is slow).
    private static func changes(from slot: ReplicationSlotFeed, count: Int) async throws -> [RowChange] {
        let batches = slot.batches(every: .milliseconds(20))
        let read = try await first(of: batches.scanChanges(), within: 60) { $0.count >= count }
        return read
    }
}

extension AsyncStream<[RowChange]> {
    /// The changes read so far, after each read of the slot.
    fileprivate func scanChanges() -> AsyncStream<[RowChange]> {
        let (stream, continuation) = AsyncStream<[RowChange]>.makeStream()
        let forwarding = Task {
            var all: [RowChange] = []
            for await batch in self {
                all += batch
                continuation.yield(all)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return stream
    }
}
