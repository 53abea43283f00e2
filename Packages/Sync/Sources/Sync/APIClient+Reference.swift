import Foundation
import Models

extension APIClient {
    /// `GET /facilities`.
    public func facilities() async throws(APIError) -> [Facility] {
        try await perform(Call(.facilities), as: FacilitiesResponse.self).0.facilities
    }

    /// `GET /facilities/{id}/areas`.
    public func areas(facilityID: String) async throws(APIError) -> [Area] {
        try await perform(Call(.areas, facilityID), as: AreasResponse.self).0.areas
    }

    /// `GET /templates`: each template as raw JSON, so one bad schema can be skipped alone.
    public func templates() async throws(APIError) -> [JSONValue] {
        try await perform(Call(.templates), as: TemplatesResponse.self).0.templates
    }

    /// `GET /assignments?since=`: changes after the server's `cursor`, or everything current without one.
    public func assignments(since cursor: String? = nil) async throws(APIError) -> AssignmentsResponse {
        let query = cursor.map { [("since", $0)] } ?? []
        return try await perform(Call(.assignments, query: query), as: AssignmentsResponse.self).0
    }
}
