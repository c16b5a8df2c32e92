import OfflineEngineTesting
import PostgresGateway

extension DifferentialColumns {
    /// Lays out the differential tests' table `cases` on `connection`: the key column `key` (its
    /// SQL definition) and then every column of ``all(withCitext:random:)``, `citext` among them
    /// when the extension can be created, with the enum and composite types they use.
    static func createCasesTable(on connection: PostgresConnection, key: String, random: inout SeededRandom)
        throws -> [DifferentialColumn]
    {
        let withCitext = (try? connection.execute("CREATE EXTENSION IF NOT EXISTS citext")) != nil
        try connection.execute("CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy', 'Happy Days', 'OK')")
        try connection.execute("CREATE TYPE pair AS (a int, b text)")
        let columns = all(withCitext: withCitext, random: &random)
        let definitions = columns.map { "\"\($0.name)\" \($0.sqlType)" }.joined(separator: ", ")
        try connection.execute("CREATE TABLE cases (\(key), \(definitions))")
        return columns
    }
}
