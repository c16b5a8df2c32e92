import Foundation
import OfflineEngine

/// A stand-in for PostgREST that lets PostgreSQL do the work: each request becomes one
/// parameterised SQL statement, run in a transaction as the role and JWT claims of the request's
/// token, so row-level security policies written as on Supabase (`auth.uid() = user_id`) apply.
///
/// It translates the part of PostgREST's dialect the engine sends: GET with `select` (columns and
/// renames), filters, `order`, `limit`/`offset` and `Range`, `Prefer: count=exact`; POST inserts
/// and upserts (`on_conflict`, `resolution=merge-duplicates|ignore-duplicates`, `columns=`,
/// `missing=default`), PATCH and DELETE, `Prefer: return=representation|minimal`, and
/// `Accept-Profile`/`Content-Profile`. Errors come back as PostgREST sends them (status and
/// `code`, `message`, `details`, `hint`); anything else gets a 400 that says what is not
/// supported, never a wrong answer. Serve it with ``LocalHTTPServer`` to go through real HTTP.
/// Its one connection runs one statement at a time, on the calling thread (libpq blocks): it is
/// for tests, not for load.
///
/// ```swift
/// let gateway = try PostgresGateway(connectionInfo: "host=/tmp/pg port=5432 user=postgres dbname=app")
/// let token = PostgresGateway.token(userID: "8d6f…")   // claims only, unsigned
/// ```
public final class PostgresGateway: HTTPTransport {
    private let connection: PostgresConnection

    /// A gateway over a new libpq connection (`connectionInfo` as libpq reads it).
    public init(connectionInfo: String) throws {
        connection = try PostgresConnection(connectionInfo)
    }

    /// A bearer token for `userID` (the `sub` claim, what `auth.uid()` returns) with `role`,
    /// unsigned: the gateway reads claims without checking signatures.
    public static func token(userID: String, role: String = "authenticated") -> String {
        GatewayClaims.token(claims: ["sub": .string(userID), "role": .string(role)])
    }

    /// Answers one request by running its statement.
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        do {
            return try answer(request)
        } catch let refusal as GatewayRefusal {
            return refusal.response
        } catch let unsupported as GatewaySQL.Unsupported {
            return GatewayRefusal.unsupported(unsupported.what).response
        }
    }

    private func answer(_ request: HTTPRequest) throws -> HTTPResponse {
        let claims = try GatewayClaims(headers: request.headers)
        let read = request.method == .get || request.method == .head
        var statement = try GatewayStatement(
            request, schema: request.headers[read ? "Accept-Profile" : "Content-Profile"])
        let rows: [[String?]]
        do {
            rows = try connection.transaction { (execute) throws(PostgresError) in
                _ = try execute(
                    "SELECT set_config('request.jwt.claims', $1, true), set_config('role', $2, true)",
                    [claims.json, claims.role])
                try statement.resolveConflictTarget(execute)
                return try execute(statement.sql, statement.parameters)
            }
        } catch {
            throw GatewayRefusal(error, anonymous: claims.isAnonymous)
        }
        return statement.response(rows.first ?? [], method: request.method)
    }
}
