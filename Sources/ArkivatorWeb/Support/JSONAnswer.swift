import Foundation
import HTTPTypes
import Hummingbird

/// JSON answers of the API: sorted keys, no escaped slashes.
enum JSONAnswer {
    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    /// A request body decoded as `T`, or nil when it is not that JSON.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, context: WebContext) async throws -> T? {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        return try? JSONDecoder().decode(T.self, from: Data(buffer: body))
    }
}
