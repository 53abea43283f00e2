import Foundation
import Models
import Sync

/// A report read from the server for a supervisor's review: the report as
/// `show` presents it, with the review of its current revision. In memory
/// only, like every `FetchedReport`.
public struct ReviewedServerReport: Sendable {
    /// The report, its photos and issues.
    public let fetched: FetchedReport
    /// The review of its current revision; nil from a server of contract 1.0.
    public let review: WireReview?
    /// The template version it was filled on, when the server says.
    public let templateVersion: Int?

    /// The revision the server sent.
    public var revision: Int { fetched.revision }
}

/// A supervisor's review (contract 1.1), online only like history: the
/// queue, a report with its review and events, and decisions. Nothing read
/// here is stored on the device.
extension SyncService {
    /// The words every review command says offline (exit 75, `REVIEW_REQUIRES_NETWORK`).
    static let reviewNeedsNetwork = "Reviewing needs a connection to the server; try again when online."

    /// Completed reports in the review state of `filter`, newest first, at most `limit`.
    public func reviewQueue(_ filter: ReviewQueueFilter, limit: Int) async throws(AppError) -> HistoryPage {
        try await reviewCall { client throws(APIError) in try await client.reviewQueue(filter, limit: limit) }
    }

    /// `GET /reports/{server_id}` (at `revision` when given) with its review.
    /// Unknown, or not the caller's to read: `NOT_FOUND` (3). A server that
    /// does not serve earlier revisions answers with its current one.
    public func reviewedReport(_ serverID: String, revision: Int? = nil) async throws(AppError)
        -> ReviewedServerReport
    {
        let fetched: ReviewedReport
        do throws(AppError) {
            fetched = try await reviewCall { client throws(APIError) in
                try await client.reviewedReport(serverID: serverID, revision: revision)
            }
        } catch  where error.code == .notFound || error.code == .serverForbidden {
            throw AppError.notFound(
                revision.map { "The server has no revision \($0) of report '\(serverID)' for this account." }
                    ?? "The server has no report '\(serverID)' for this account.")
        }
        return ReviewedServerReport(
            fetched: FetchedReport(fetched.report, serverID: serverID), review: fetched.review,
            templateVersion: fetched.templateVersion)
    }

    /// The report's events, oldest first; nil when the server keeps none (a
    /// server of contract 1.0 has no such route and answers 404).
    public func reportEvents(_ serverID: String) async throws(AppError) -> [WireReportEvent]? {
        do throws(AppError) {
            return try await reviewCall { client throws(APIError) in try await client.reportEvents(serverID: serverID) }
                .events
        } catch  where error.code == .notFound {
            return nil
        }
    }

    /// Posts a decision. A stale revision is an outcome (`.stale`), not an
    /// error. An account that is not a supervisor or admin: `REVIEW_FORBIDDEN`
    /// (5); a decision the server refuses (no comment, a field comment on no
    /// field): `REVIEW_INVALID` (4) in the server's words.
    public func decide(_ serverID: String, _ request: ReviewRequest) async throws(AppError) -> ReviewOutcome {
        let saved = try signedInSession()
        do throws(AppError) {
            return try await reviewCall(saved) { client throws(APIError) in
                try await client.decide(serverID: serverID, request)
            }
        } catch  where error.code == .serverForbidden {
            throw AppError.blocked(
                .reviewForbidden,
                "Only supervisors and admins may decide on reports; you are \(saved.user.signedInAs). Nothing was recorded."
            )
        } catch  where error.code == .notFound {
            throw AppError.notFound("The server has no report '\(serverID)' for this account; nothing was recorded.")
        } catch  where error.code == .serverBadRequest {
            throw AppError.validation(
                "The server refused the decision: \(error.message) Nothing was recorded.", code: .reviewInvalid)
        }
    }

    /// One review request with the saved session: offline is
    /// `REVIEW_REQUIRES_NETWORK` (75); 403 and 404 come back as `FORBIDDEN`
    /// and `NOT_FOUND` for the caller to word; anything else as `AppError(api:)`.
    private func reviewCall<T: Sendable>(
        _ saved: CredentialStore.Saved? = nil,
        _ body: (APIClient) async throws(APIError) -> T
    ) async throws(AppError) -> T {
        let session: CredentialStore.Saved
        if let saved { session = saved } else { session = try signedInSession() }
        let client = try sessionClient(session)
        let result: Result<T, APIError>
        do throws(APIError) { result = .success(try await body(client)) } catch { result = .failure(error) }
        switch result {
        case .success(let value):
            return value
        case .failure(let error) where Self.isUnreachable(error):
            throw AppError(code: .reviewRequiresNetwork, Self.reviewNeedsNetwork, exitCode: ExitCode.temporary)
        case .failure(let error) where error.code == .forbidden:
            throw AppError(code: .serverForbidden, error.message, exitCode: ExitCode.blocked)
        case .failure(let error) where error.code == .notFound:
            throw AppError.notFound(error.message)
        case .failure(let error) where error.code == .badRequest:
            throw AppError(code: .serverBadRequest, error.message, exitCode: ExitCode.validation)
        case .failure(let error):
            throw AppError(api: error)
        }
    }
}

extension AppError.Code {
    /// The sync client's 403, carried for the review calls to word.
    fileprivate static let serverForbidden = AppError.Code(carrying: APIError.Code.forbidden.rawValue)
    /// The sync client's 400, carried for the review calls to word.
    fileprivate static let serverBadRequest = AppError.Code(carrying: APIError.Code.badRequest.rawValue)
}
