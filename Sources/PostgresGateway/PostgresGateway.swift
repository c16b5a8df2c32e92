import Foundation
import OfflineEngine

/// A stand-in for PostgREST that lets PostgreSQL do the work: each request becomes one
/// parameterised SQL statement, run in a transaction as the role and JWT claims of the request's
/// token, so row-level security policies written as on Supabase (`auth.uid() = user_id`) apply.
///
/// It translates the part of PostgREST's dialect apps send and answers it as PostgREST does, case
/// for case with PostgREST's own spec tests (`GatewayFidelityTests`): GET and HEAD with `select`
/// (renames, casts, computed columns), filters and logic trees, `order`, `limit`/`offset` and
/// `Range` (416 past the end), `Prefer: count=`; POST inserts and upserts (`on_conflict`,
/// `resolution=`, `columns=`, `missing=default`), PATCH and DELETE, each returning only what
/// `return=` asks for, with `Content-Range`, `Location` and `Preference-Applied` as PostgREST sends
/// them; one-object answers (`Accept: application/vnd.pgrst.object+json`: 406 and rolled back
/// unless one row); `Accept-Profile`/`Content-Profile`; embedded tables (`select=*,clients(*)`),
/// found through the foreign keys the catalog holds in the request's transaction: to-one as an
/// object or `null`, to-many and many-to-many as an array, with aliases, `!hint`, `!inner`,
/// nesting, `(count)` and parameters scoped to an embed; an ambiguous embed is PostgREST's 300
/// `PGRST201`, one no key reaches its 400 `PGRST200`. Each embed runs as the request's role, so
/// row-level security applies inside it. Errors come back as PostgREST sends them (status and
/// `code`, `message`, `details`, `hint`); anything else (spreads, aggregates, embeds through
/// views, full-text search, CSV) gets a 400 that says what is not supported, never a wrong
/// answer. Serve it with ``LocalHTTPServer`` to go through real HTTP. Its one connection runs
/// one statement at a time, on the calling thread (libpq blocks): it is for tests, not for load.
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
        try respond(to: request)
    }

    /// Answers one request by running its statement, blocking the calling thread until
    /// PostgreSQL answers: for a caller that keeps libpq's waits off the cooperative pool.
    public func respond(to request: HTTPRequest) throws -> HTTPResponse {
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
        let parsed = try GatewayRequest(request)
        let answered: (GatewayAnswer.Result, GatewayStatement, GatewayTable?)
        do {
            answered = try connection.transaction { execute in
                _ = try execute(
                    "SELECT set_config('request.jwt.claims', $1, true), set_config('role', $2, true)",
                    [claims.json, claims.role])
                let table =
                    parsed.isRead
                    ? nil
                    : try GatewayTable(parsed.query.table, schema: parsed.query.schema, execute: execute)
                let relations =
                    parsed.embeds
                    ? try GatewayRelationSearch(schema: parsed.query.schema ?? "public", execute: execute)
                    : nil
                let statement = try GatewayStatement(parsed, table: table, relations: relations)
                let result = GatewayAnswer.Result(
                    try execute(statement.sql, statement.parameters).first ?? [])
                // Thrown inside the transaction, so a write that reached no row or several is undone.
                if parsed.singular, result.count != 1 { throw GatewayAnswer.notSingular(result.count) }
                return (result, statement, table)
            }
        } catch let error as PostgresError {
            throw GatewayRefusal(
                error, anonymous: claims.isAnonymous,
                table: (parsed.query.schema ?? "public") + "." + parsed.query.table)
        }
        let (result, statement, table) = answered
        return GatewayAnswer.response(result, request: parsed, statement: statement, table: table)
    }
}
