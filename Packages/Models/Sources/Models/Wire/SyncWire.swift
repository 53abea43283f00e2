import Foundation

/// An issue as sent inside a report.
public struct WireIssue: Sendable, Hashable, Codable {
    public var localID: UUID
    public var severity: IssueSeverity
    public var description: String
    public var photoLocalIDs: [UUID]

    public init(localID: UUID, severity: IssueSeverity, description: String, photoLocalIDs: [UUID] = []) {
        self.localID = localID
        self.severity = severity
        self.description = description
        self.photoLocalIDs = photoLocalIDs
    }

    enum CodingKeys: String, CodingKey {
        case severity, description
        case localID = "local_id"
        case photoLocalIDs = "photo_local_ids"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        localID = try c.decode(UUID.self, forKey: .localID)
        severity = try c.decode(IssueSeverity.self, forKey: .severity)
        description = try c.decode(String.self, forKey: .description)
        photoLocalIDs = try c.decodeIfPresent([UUID].self, forKey: .photoLocalIDs) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(localID, forKey: .localID)
        try c.encode(severity, forKey: .severity)
        try c.encode(description, forKey: .description)
        try c.encodeUUIDs(photoLocalIDs, forKey: .photoLocalIDs)
    }
}

/// The `payload` of a report on the wire.
public struct WirePayload: Sendable, Hashable, Codable {
    public var answers: JSONValue
    public var score: Double?
    public var followUpRequired: Bool

    public init(answers: JSONValue, score: Double?, followUpRequired: Bool) {
        self.answers = answers
        self.score = score
        self.followUpRequired = followUpRequired
    }

    enum CodingKeys: String, CodingKey {
        case answers, score
        case followUpRequired = "follow_up_required"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        answers = try c.decodeIfPresent(JSONValue.self, forKey: .answers) ?? .object([:])
        score = try c.decodeIfPresent(Double.self, forKey: .score)
        followUpRequired = try c.decodeIfPresent(Bool.self, forKey: .followUpRequired) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(answers, forKey: .answers)
        try c.encode(score, forKey: .score)
        try c.encode(followUpRequired, forKey: .followUpRequired)
    }
}

/// One report in `POST /reports/sync`.
public struct WireReport: Sendable, Hashable, Codable {
    public var localID: UUID
    public var serverID: String?
    public var baseRevision: Int?
    public var assignmentID: String?
    public var templateID: String
    /// The template version the report was filled on (contract 1.1); nil means the server's current one.
    public var templateVersion: Int?
    public var facilityID: String
    public var areaID: String?
    public var parentLocalID: UUID?
    public var parentServerID: String?
    /// RFC 3339 device time; diagnostic only.
    public var completedAtDevice: String?
    public var payload: WirePayload
    public var issues: [WireIssue]

    public init(
        localID: UUID, serverID: String? = nil, baseRevision: Int? = nil, assignmentID: String? = nil,
        templateID: String, templateVersion: Int? = nil, facilityID: String, areaID: String? = nil,
        parentLocalID: UUID? = nil, parentServerID: String? = nil, completedAtDevice: String? = nil,
        payload: WirePayload, issues: [WireIssue] = []
    ) {
        self.localID = localID
        self.serverID = serverID
        self.baseRevision = baseRevision
        self.assignmentID = assignmentID
        self.templateID = templateID
        self.templateVersion = templateVersion
        self.facilityID = facilityID
        self.areaID = areaID
        self.parentLocalID = parentLocalID
        self.parentServerID = parentServerID
        self.completedAtDevice = completedAtDevice
        self.payload = payload
        self.issues = issues
    }

    enum CodingKeys: String, CodingKey {
        case payload, issues
        case localID = "local_id"
        case serverID = "server_id"
        case baseRevision = "base_revision"
        case assignmentID = "assignment_id"
        case templateID = "template_id"
        case templateVersion = "template_version"
        case facilityID = "facility_id"
        case areaID = "area_id"
        case parentLocalID = "parent_local_id"
        case parentServerID = "parent_server_id"
        case completedAtDevice = "completed_at_device"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        localID = try c.decode(UUID.self, forKey: .localID)
        serverID = try c.decodeIDIfPresent(forKey: .serverID)
        baseRevision = try c.decodeIfPresent(Int.self, forKey: .baseRevision)
        assignmentID = try c.decodeIDIfPresent(forKey: .assignmentID)
        templateID = try c.decodeID(forKey: .templateID)
        templateVersion = try c.decodeIfPresent(Int.self, forKey: .templateVersion)
        facilityID = try c.decodeID(forKey: .facilityID)
        areaID = try c.decodeIDIfPresent(forKey: .areaID)
        parentLocalID = try c.decodeIfPresent(UUID.self, forKey: .parentLocalID)
        parentServerID = try c.decodeIDIfPresent(forKey: .parentServerID)
        completedAtDevice = try c.decodeIfPresent(String.self, forKey: .completedAtDevice)
        payload = try c.decode(WirePayload.self, forKey: .payload)
        issues = try c.decodeIfPresent([WireIssue].self, forKey: .issues) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(localID, forKey: .localID)
        try c.encode(serverID, forKey: .serverID)
        try c.encode(baseRevision, forKey: .baseRevision)
        try c.encode(assignmentID, forKey: .assignmentID)
        try c.encode(templateID, forKey: .templateID)
        try c.encodeIfPresent(templateVersion, forKey: .templateVersion)
        try c.encode(facilityID, forKey: .facilityID)
        try c.encode(areaID, forKey: .areaID)
        try c.encodeUUID(parentLocalID, forKey: .parentLocalID)
        try c.encode(parentServerID, forKey: .parentServerID)
        try c.encode(completedAtDevice, forKey: .completedAtDevice)
        try c.encode(payload, forKey: .payload)
        try c.encode(issues, forKey: .issues)
    }
}

/// `POST /reports/sync` body.
public struct SyncRequest: Sendable, Hashable, Codable {
    public var deviceID: UUID
    public var appVersion: String
    public var schemaVersion: Int
    public var reports: [WireReport]
    /// `"fields"` asks a 1.1 server to merge disjoint edits instead of answering CONFLICT.
    public var merge: String?

    public init(deviceID: UUID, appVersion: String, schemaVersion: Int, reports: [WireReport], merge: String? = nil) {
        self.deviceID = deviceID
        self.appVersion = appVersion
        self.schemaVersion = schemaVersion
        self.reports = reports
        self.merge = merge
    }

    /// The value of `merge` that asks for merging by field.
    public static let mergeFields = "fields"

    /// The contract's largest batch.
    public static let maximumBatch = 100

    enum CodingKeys: String, CodingKey {
        case reports, merge
        case deviceID = "device_id"
        case appVersion = "app_version"
        case schemaVersion = "schema_version"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(deviceID, forKey: .deviceID)
        try c.encode(appVersion, forKey: .appVersion)
        try c.encode(schemaVersion, forKey: .schemaVersion)
        try c.encode(reports, forKey: .reports)
        try c.encodeIfPresent(merge, forKey: .merge)
    }
}

/// The server's verdict on one report.
public enum SyncStatus: String, Sendable, Hashable, Codable {
    case accepted = "ACCEPTED"
    case conflict = "CONFLICT"
    case rejected = "REJECTED"
}

/// One result of `POST /reports/sync`, in request order.
public struct SyncResult: Sendable, Hashable, Codable {
    public var localID: UUID
    public var status: SyncStatus
    public var serverID: String?
    public var revision: Int?
    public var serverPayload: JSONValue?
    public var serverRevision: Int?
    public var errorCode: String?
    public var error: String?
    /// Contract 1.1 merge: true when `serverPayload` and `serverIssues` are a merged revision the device adopts.
    public var merged: Bool?
    /// The merged issues (with `merged`).
    public var serverIssues: [WireIssue]?
    /// What came from the server's side of a merge (`follow_up_required` and `issue:<local_id>` included).
    public var mergedFields: [String]?
    /// With a CONFLICT to a merge request: exactly the fields both sides changed, or those a merged revision failed on.
    public var conflictingFields: [String]?

    public init(
        localID: UUID, status: SyncStatus, serverID: String? = nil, revision: Int? = nil,
        serverPayload: JSONValue? = nil, serverRevision: Int? = nil, errorCode: String? = nil,
        error: String? = nil, merged: Bool? = nil, serverIssues: [WireIssue]? = nil,
        mergedFields: [String]? = nil, conflictingFields: [String]? = nil
    ) {
        self.localID = localID
        self.status = status
        self.serverID = serverID
        self.revision = revision
        self.serverPayload = serverPayload
        self.serverRevision = serverRevision
        self.errorCode = errorCode
        self.error = error
        self.merged = merged
        self.serverIssues = serverIssues
        self.mergedFields = mergedFields
        self.conflictingFields = conflictingFields
    }

    enum CodingKeys: String, CodingKey {
        case status, revision, error, merged
        case localID = "local_id"
        case serverID = "server_id"
        case serverPayload = "server_payload"
        case serverRevision = "server_revision"
        case errorCode = "error_code"
        case serverIssues = "server_issues"
        case mergedFields = "merged_fields"
        case conflictingFields = "conflicting_fields"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        localID = try c.decode(UUID.self, forKey: .localID)
        status = try c.decode(SyncStatus.self, forKey: .status)
        serverID = try c.decodeIDIfPresent(forKey: .serverID)
        revision = try c.decodeIfPresent(Int.self, forKey: .revision)
        serverPayload = try c.decodeIfPresent(JSONValue.self, forKey: .serverPayload)
        serverRevision = try c.decodeIfPresent(Int.self, forKey: .serverRevision)
        errorCode = try c.decodeIfPresent(String.self, forKey: .errorCode)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        merged = try c.decodeIfPresent(Bool.self, forKey: .merged)
        serverIssues = try c.decodeIfPresent([WireIssue].self, forKey: .serverIssues)
        mergedFields = try c.decodeIfPresent([String].self, forKey: .mergedFields)
        conflictingFields = try c.decodeIfPresent([String].self, forKey: .conflictingFields)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeUUID(localID, forKey: .localID)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(serverID, forKey: .serverID)
        try c.encodeIfPresent(revision, forKey: .revision)
        try c.encodeIfPresent(serverPayload, forKey: .serverPayload)
        try c.encodeIfPresent(serverRevision, forKey: .serverRevision)
        try c.encodeIfPresent(errorCode, forKey: .errorCode)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(merged, forKey: .merged)
        try c.encodeIfPresent(serverIssues, forKey: .serverIssues)
        try c.encodeIfPresent(mergedFields, forKey: .mergedFields)
        try c.encodeIfPresent(conflictingFields, forKey: .conflictingFields)
    }
}

/// `POST /reports/sync` response data.
public struct SyncResponse: Sendable, Hashable, Codable {
    public var results: [SyncResult]
    public var minSupportedAppVersion: String
    public var serverSchemaVersion: Int
    /// `"1.1"` from a server of contract 1.1 (which routes of 1.1 to use); nil from a 1.0 server.
    public var contractVersion: String?
    /// Changes only when the server's data was restored from a backup (contract 1.1).
    public var serverGeneration: String?

    public init(
        results: [SyncResult], minSupportedAppVersion: String, serverSchemaVersion: Int,
        contractVersion: String? = nil, serverGeneration: String? = nil
    ) {
        self.results = results
        self.minSupportedAppVersion = minSupportedAppVersion
        self.serverSchemaVersion = serverSchemaVersion
        self.contractVersion = contractVersion
        self.serverGeneration = serverGeneration
    }

    /// True when the server speaks contract 1.1 or later.
    public var speaksContract11: Bool { Self.speaksContract11(contractVersion) }

    /// True when `contractVersion` (a sync answer's `contract_version`) is 1.1 or later.
    public static func speaksContract11(_ contractVersion: String?) -> Bool {
        speaks(contractVersion, atLeast: (1, 1))
    }

    /// True when `contractVersion` is 1.2 or later: the server has corrective actions.
    public static func speaksContract12(_ contractVersion: String?) -> Bool {
        speaks(contractVersion, atLeast: (1, 2))
    }

    private static func speaks(_ contractVersion: String?, atLeast least: (Int, Int)) -> Bool {
        guard let contractVersion else { return false }
        let parts = contractVersion.split(separator: ".").map { Int($0) }
        guard parts.count >= 2, let major = parts[0], let minor = parts[1] else { return false }
        return (major, minor) >= least
    }

    enum CodingKeys: String, CodingKey {
        case results
        case minSupportedAppVersion = "min_supported_app_version"
        case serverSchemaVersion = "server_schema_version"
        case contractVersion = "contract_version"
        case serverGeneration = "server_generation"
    }
}

/// `POST /reports/{server_id}/photos` response data.
public struct PhotoUploadResponse: Sendable, Hashable, Codable {
    public struct UploadedPhoto: Sendable, Hashable, Codable {
        public var localID: UUID
        public var url: String
        public var byteSize: Int64
        public init(localID: UUID, url: String, byteSize: Int64) {
            self.localID = localID
            self.url = url
            self.byteSize = byteSize
        }
        enum CodingKeys: String, CodingKey {
            case url
            case localID = "local_id"
            case byteSize = "byte_size"
        }
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeUUID(localID, forKey: .localID)
            try c.encode(url, forKey: .url)
            try c.encode(byteSize, forKey: .byteSize)
        }
    }
    public var photo: UploadedPhoto
    public init(photo: UploadedPhoto) { self.photo = photo }
}
