import Foundation

extension Engine {
    /// Calls the database function `function` with `params` (`POST /rest/v1/rpc/<function>`) as
    /// the session signed in now: online only, never queued (a function's effects cannot be laid
    /// over lists), so with the network known down it throws ``ClientError/offline``.
    func call(_ function: String, params: JSONValue, schema: String?) async throws -> HTTPResponse {
        try await calls.underway {
            try RequestBuilder.validate(table: function)
            await waitForSessionToSettle()
            guard connectivity.current != .offline else { throw ClientError.offline }
            guard let url = URL(string: endpoint.restRoot + "/rpc/" + PercentEncoding.encode(function)) else {
                throw QueryError(.invalidTableName)
            }
            let profile = try RequestBuilder.profile(schema)
            let sent = try await tokens.send(for: outputs.session.value.authSession, through: transport) {
                token in
                var headers = try RequestBuilder.baseHeaders(endpoint: endpoint, accessToken: token)
                headers["Content-Type"] = "application/json"
                if let profile { headers["Content-Profile"] = profile }
                return HTTPRequest(
                    method: .post, url: url, headers: headers, body: JSONText.data(params),
                    retriesTransportFailures: false)
            }
            guard let response = sent else { throw CancellationError() }
            guard response.isSuccess else { throw ResponseDecoding.failure(for: response) }
            return response
        }
    }
}
