import ArkivatorCore
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The answer to one chat-completions request.
public struct ChatAnswer: Sendable, Equatable {
    /// The assistant message's text.
    public var content: String
    /// The model the server says answered.
    public var model: String?
    /// Whether the server took `response_format` `json_schema` (false: it fell back to `json_object`).
    public var usedSchema: Bool
}

/// A client for the OpenAI chat-completions API over AsyncHTTPClient.
///
/// One request per call, `temperature` 0. A 429 or 5xx answer is tried again after 1, 2 and 4 s
/// (at most ``LLMSettings/attempts`` tries); a server that refuses `response_format` `json_schema`
/// (HTTP 400/422 naming the format) is asked once more with `json_object`. Every failure is an ``LLMFailure``.
public struct ChatClient: Sendable {
    public let settings: LLMSettings

    public init(settings: LLMSettings) {
        self.settings = settings
    }

    /// One client for the process, never shut down. A refused connection fails at once (no retry
    /// by the client): a server that is down should cost a document nothing.
    private static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration(timeout: .init(connect: .seconds(10)))
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    /// Asks for a JSON answer following `schema` (a JSON schema object, encoded).
    public func complete(system: String, user: String, schemaName: String, schema: Data,
                         maxTokens: Int = 400) async throws(LLMFailure) -> ChatAnswer {
        var useSchema = true
        var attempt = 1
        while true {
            do {
                let body = try Self.body(model: settings.model, system: system, user: user, maxTokens: maxTokens,
                                         schemaName: schemaName, schema: useSchema ? schema : nil)
                var answer = try await send(body)
                answer.usedSchema = useSchema
                return answer
            } catch let failure {
                if useSchema, case .refusedSchema = failure.retryHint {
                    useSchema = false
                    continue
                }
                guard failure.isRetried, attempt < settings.attempts else { throw failure }
                try? await Task.sleep(nanoseconds: UInt64(1 << (attempt - 1)) * 1_000_000_000)
                attempt += 1
            }
        }
    }

    /// The request body: system and user messages, `response_format` with the schema (or
    /// `json_object` when `schema` is nil).
    static func body(model: String, system: String, user: String, maxTokens: Int,
                     schemaName: String, schema: Data?) throws(LLMFailure) -> Data {
        var format: [String: Any] = ["type": "json_object"]
        if let schema {
            guard let object = try? JSONSerialization.jsonObject(with: schema) else {
                throw LLMFailure.malformed("schema", detail: "the JSON schema is not JSON")
            }
            format = ["type": "json_schema", "json_schema": ["name": schemaName, "strict": true, "schema": object]]
        }
        let request: [String: Any] = [
            "model": model,
            "messages": [["role": "system", "content": system], ["role": "user", "content": user]],
            "temperature": 0,
            "max_tokens": maxTokens,
            "stream": false,
            "response_format": format,
        ]
        guard let data = try? JSONSerialization.data(withJSONObject: request, options: [.sortedKeys]) else {
            throw LLMFailure.malformed("request", detail: "the request could not be encoded")
        }
        return data
    }

    private func send(_ body: Data) async throws(LLMFailure) -> ChatAnswer {
        let host = settings.hostDescription
        var request = HTTPClientRequest(url: settings.endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        if let key = settings.apiKey { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        request.body = .bytes(ByteBuffer(bytes: body))
        let status: Int
        var data = Data()
        do {
            let response = try await Self.sharedClient.execute(request, timeout: .milliseconds(Int64(settings.timeout * 1000)))
            status = Int(response.status.code)
            for try await chunk in response.body where data.count <= 1 << 20 {
                data.append(contentsOf: chunk.readableBytesView)
            }
        } catch {
            let problem = ConnectionError(error)
            if problem.kind == .timedOut { throw LLMFailure.timedOut(host, seconds: Int(settings.timeout)) }
            throw LLMFailure.unreachable(host, detail: problem.detail)
        }
        switch status {
        case 200..<300:
            return try Self.decode(data, host: host)
        case 401, 403:
            throw LLMFailure.invalidKey(host, status: status)
        case 429:
            throw LLMFailure.rateLimited(host)
        case 408, 500...599:
            throw LLMFailure.server(host, status: status)
        case 400 where Self.mentionsFormat(data), 422 where Self.mentionsFormat(data):
            // Only an answer about the format: any other 400 is a request the server refuses.
            throw LLMFailure.schemaRefused(host, status: status)
        default:
            throw LLMFailure.refused(host, status: status, detail: Self.serverMessage(data))
        }
    }

    /// The first choice's message content.
    static func decode(_ data: Data, host: String) throws(LLMFailure) -> ChatAnswer {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw LLMFailure.malformed(host, detail: "the answer is not a JSON object")
        }
        guard let choices = object["choices"] as? [[String: Any]], let first = choices.first,
              let message = first["message"] as? [String: Any] else {
            throw LLMFailure.malformed(host, detail: "no choices[0].message.content")
        }
        // A model that will not answer says so in `refusal` (OpenAI's structured outputs) instead of the content.
        let content = (message["content"] as? String) ?? ""
        if let refusal = message["refusal"] as? String, !refusal.isEmpty,
           content.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw LLMFailure.declined(host)
        }
        guard message["content"] is String else { throw LLMFailure.malformed(host, detail: "no choices[0].message.content") }
        return ChatAnswer(content: content, model: object["model"] as? String, usedSchema: true)
    }

    /// Whether an error answer is about `response_format` (a server without JSON-schema support).
    static func mentionsFormat(_ data: Data) -> Bool {
        let text = String(decoding: data.prefix(4096), as: UTF8.self).lowercased()
        return text.contains("response_format") || text.contains("json_schema") || text.contains("schema")
    }

    /// The server's own error message, shortened.
    static func serverMessage(_ data: Data) -> String {
        if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            if let error = object["error"] as? [String: Any], let message = error["message"] as? String { return String(message.prefix(160)) }
            if let message = object["error"] as? String { return String(message.prefix(160)) }
        }
        return ""
    }
}
