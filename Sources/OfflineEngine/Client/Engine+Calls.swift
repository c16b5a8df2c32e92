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
            let token = state.session.value.authSession?.accessToken
            var headers = try RequestBuilder.baseHeaders(endpoint: endpoint, accessToken: token)
            headers["Content-Type"] = "application/json"
            if let profile = try RequestBuilder.profile(schema) { headers["Content-Profile"] = profile }
            guard let url = URL(string: endpoint.restRoot + "/rpc/" + PercentEncoding.encode(function)) else {
                throw QueryError(.invalidTableName)
            }
            let request = HTTPRequest(
                method: .post, url: url, headers: headers, body: JSONText.data(params),
                retriesTransportFailures: false)
            let response = try await transport.send(request)
            guard response.isSuccess else { throw ResponseDecoding.failure(for: response) }
            return response
        }
    }
}
