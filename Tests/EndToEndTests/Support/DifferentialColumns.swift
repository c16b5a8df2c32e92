import OfflineEngineTesting

/// The columns of the differential test's table: one per PostgreSQL type a JSON value may come
/// from, each with the values its rows hold (as input text; `nil` is SQL NULL).
struct DifferentialColumn: Sendable {
    /// The column name.
    let name: String
    /// Its SQL type.
    let sqlType: String
    /// The label of the per-type table.
    let label: String
    /// Input texts rows draw from.
    let pool: [String]
    /// Unusual input texts one row in ten draws from instead.
    var oddities: [String] = []
    /// Whether the column is the table's key (`id`).
    var isKey = false
}

enum DifferentialColumns {
    /// Every column; `citext` only when the extension can be created.
    static func all(withCitext: Bool, random: inout SeededRandom) -> [DifferentialColumn] {
        let uuids = (0..<40).map { _ in randomUUID(&random) }
        var columns = [
            DifferentialColumn(
                name: "c_text", sqlType: "text", label: "text", pool: texts, oddities: oddTexts),
            DifferentialColumn(
                name: "c_varchar", sqlType: "varchar(24)", label: "varchar", pool: texts, oddities: oddTexts),
            DifferentialColumn(
                name: "c_char", sqlType: "char(6)", label: "char(6)",
                pool: ["ab", "abc", "abcdef", "a b", "", "xyz", "ABC", " ab", "12", "x"]),
            DifferentialColumn(
                name: "c_int2", sqlType: "int2", label: "int2",
                pool: ["0", "1", "7", "42", "-5", "100", "-32768", "32767", "12", "999"]),
            DifferentialColumn(
                name: "c_int4", sqlType: "int4", label: "int4",
                pool: (0..<30).map { _ in String(random.int(in: -50...5_000)) } + [
                    "2147483647", "-2147483648", "0", "16777217", "16777216",
                ]),
            DifferentialColumn(
                name: "c_int8", sqlType: "int8", label: "int8",
                pool: (0..<30).map { _ in String(random.int(in: 0...2_000_000)) } + [
                    "9223372036854775807", "-9223372036854775808", "9007199254740993", "9007199254740992",
                    "0",
                ]),
            DifferentialColumn(
                name: "c_numeric", sqlType: "numeric", label: "numeric",
                pool: [
                    "1.50", "1.5", "0", "-0.001", "1e3", "NaN", "123456789012345678901234567890.123", "0.1",
                    "7", "100", "2.50", "-3",
                ]),
            DifferentialColumn(
                name: "c_float8", sqlType: "float8", label: "float8",
                pool: [
                    "0.1", "1.5", "-0", "NaN", "Infinity", "-Infinity", "1e100", "9007199254740993",
                    "3.14159",
                    "2.5e-10", "7", "100",
                ]),
            DifferentialColumn(
                name: "c_bool", sqlType: "boolean", label: "boolean", pool: ["true", "false"]),
            DifferentialColumn(name: "c_uuid", sqlType: "uuid", label: "uuid", pool: uuids),
            // UUIDs kept as text, as an app's encoder writes them (capitals) and as PostgreSQL
            // writes a uuid (lower case), some the same UUID in both.
            DifferentialColumn(
                name: "c_uuid_text", sqlType: "text", label: "text (UUIDs)",
                pool: uuids.prefix(6).map { $0.uppercased() } + Array(uuids.prefix(10))),
            DifferentialColumn(
                name: "c_date", sqlType: "date", label: "date",
                pool: [
                    "2024-01-15", "1999-12-31", "infinity", "-infinity", "0044-03-15 BC", "2024-02-29",
                    "2000-01-01",
                ]
            ),
            DifferentialColumn(
                name: "c_timestamptz", sqlType: "timestamptz", label: "timestamptz",
                pool: [
                    "2024-01-15 12:00:00+00", "2024-01-15 12:00:00.123456+00", "infinity",
                    "2024-06-01 00:00:00+05:30",
                    "1900-01-01 00:00:00+00", "2024-01-15 13:00:00+01",
                ]),
            DifferentialColumn(
                name: "c_timestamp", sqlType: "timestamp", label: "timestamp",
                pool: ["2024-01-15 12:00:00", "2024-01-15 12:00:00.5", "-infinity", "2023-12-31 23:59:59"]),
            DifferentialColumn(
                name: "c_inet", sqlType: "inet", label: "inet",
                pool: ["10.0.0.1", "10.0.0.1/24", "::1", "192.168.1.0/24", "2001:db8::1", "fe80::abcd"]),
            DifferentialColumn(
                name: "c_macaddr", sqlType: "macaddr", label: "macaddr",
                pool: ["08:00:2b:01:02:03", "aa:bb:cc:dd:ee:ff", "08-00-2b-01-02-04"]),
            DifferentialColumn(
                name: "c_jsonb", sqlType: "jsonb", label: "jsonb",
                pool: [
                    #""abc""#, #""123""#, "123", "1.50", "true", "false", "null", #"{"a": 1}"#, "[1, 2]",
                    #""""#,
                    #"" x ""#, #""ABC""#, #""true""#, #""a\"b""#, "0", #"{"a": null}"#,
                ]),
            DifferentialColumn(
                name: "c_enum", sqlType: "mood", label: "enum",
                pool: ["sad", "ok", "happy", "Happy Days", "OK"]),
            DifferentialColumn(
                name: "c_textarray", sqlType: "text[]", label: "text[]",
                pool: ["{a,b}", "{}", #"{"x,y"}"#, "{1,2}", "{NULL}"]),
        ]
        // Types beyond the brief's list that also render as JSON strings or numbers.
        columns += [
            DifferentialColumn(
                name: "c_float4", sqlType: "float4", label: "float4",
                pool: ["0.1", "1.5", "16777217", "3.4e38", "NaN", "-0", "7", "1e-3"]),
            DifferentialColumn(
                name: "c_time", sqlType: "time", label: "time",
                pool: ["12:00:00", "00:00:00", "23:59:59.5", "24:00:00"]),
            DifferentialColumn(
                name: "c_interval", sqlType: "interval", label: "interval",
                pool: ["1 day", "02:00:00", "1 year 2 mons", "-1 days +02:00:00", "0"]),
            DifferentialColumn(
                name: "c_bytea", sqlType: "bytea", label: "bytea", pool: [#"\x0102"#, "abc", ""]),
            DifferentialColumn(
                name: "c_money", sqlType: "money", label: "money", pool: ["1.00", "-2.5", "1000"]),
            DifferentialColumn(
                name: "c_tsvector", sqlType: "tsvector", label: "tsvector", pool: ["a b", "", "cat:1 dog"]),
            DifferentialColumn(
                name: "c_cidr", sqlType: "cidr", label: "cidr",
                pool: ["10.0.0.0/8", "::/0", "192.168.1.0/24"]),
            DifferentialColumn(
                name: "c_bit", sqlType: "varbit", label: "varbit", pool: ["101", "", "0", "1111"]),
            DifferentialColumn(
                name: "c_intarray", sqlType: "int4[]", label: "int4[]", pool: ["{1,2}", "{}", "{NULL,3}"]),
            DifferentialColumn(
                name: "c_pair", sqlType: "pair", label: "composite", pool: ["(1,x)", "(,)", "(1,)", "(,y)"]),
        ]
        if withCitext {
            columns.append(
                DifferentialColumn(
                    name: "c_citext", sqlType: "citext", label: "citext",
                    pool: ["Alice", "alice", "BOB", "Straße", "İstanbul", "x", "", "Ünïcödé", "trailing "]))
        }
        return columns
    }

    /// Realistic text values.
    static let texts = [
        "alpha", "Beta", "gamma ray", "Hello, World", "naïve café", "O'Brien", #"say "hi""#, #"back\slash"#,
        "a,b", "Task 12", "Ünïcödé", "日本語", "MiXeD", "Buy milk", "Call mom", "Write report", "Fix bug #7",
        "Review PR", "Plan trip", "Read book", "Pay rent", "done", "todo", "In progress", "é", "x",
    ]

    /// Text values that look like other types or stress the comparison.
    static let oddTexts = [
        "(paren)", "  padded", "trailing  ", "", "NULL", "null", "true", "42", "2024-01-15", "e\u{301}",
        "tab\there", "line\nbreak", "{braces}", "[1,2]",
    ]

    static func randomUUID(_ random: inout SeededRandom) -> String {
        let hex = Array("0123456789abcdef")
        var text = ""
        for index in 0..<32 {
            if [8, 12, 16, 20].contains(index) { text.append("-") }
            text.append(hex[Int(random.next() % 16)])
        }
        return text
    }
}
