import Foundation
import Models
import Storage

/// What the commands, the menu, the runner and the exports read: the
/// reference data on this device, a report's photos and issues, where the
/// runner stopped. Each is one read of the store.
extension Workspace {
    // MARK: Reference data

    /// The templates on this device.
    public func templates() throws(AppError) -> [Template] {
        try storage { () throws(StorageError) in try store.templates() }
    }

    /// The facilities on this device.
    public func facilities() throws(AppError) -> [Facility] {
        try storage { () throws(StorageError) in try store.facilities() }
    }

    /// One facility, or nil when it is not on this device.
    public func facility(id: String) throws(AppError) -> Facility? {
        try storage { () throws(StorageError) in try store.facility(id: id) }
    }

    /// The areas of a facility.
    public func areas(facilityID: String) throws(AppError) -> [Area] {
        try storage { () throws(StorageError) in try store.areas(facilityID: facilityID) }
    }

    /// The assignments on this device.
    public func assignments() throws(AppError) -> [Assignment] {
        try storage { () throws(StorageError) in try store.assignments() }
    }

    /// Empties the reference cache but the templates of reports not yet
    /// synced; returns how many templates were kept.
    public func clearReferenceCache() throws(AppError) -> Int {
        try storage { () throws(StorageError) in try store.clearReferenceCache() }
    }

    /// A template's name, for a label; nil when it is not on this device
    /// (or cannot be read: a name is never worth failing a listing).
    public func templateName(_ id: String) -> String? {
        ((try? store.template(id: id)) ?? nil)?.name
    }

    /// A facility's name, for a label; nil when it is not on this device (or cannot be read).
    public func facilityName(_ id: String) -> String? {
        ((try? store.facility(id: id)) ?? nil)?.name
    }

    /// An area's name, for a label; nil when the facility has no such area here (or it cannot be read).
    public func areaName(_ id: String, facilityID: String) -> String? {
        ((try? store.areas(facilityID: facilityID)) ?? []).first { $0.id == id }?.name
    }

    // MARK: A report's photos and issues

    /// The photos of a report, in the order they were added.
    public func photos(of report: Report) throws(AppError) -> [Photo] {
        try storage { () throws(StorageError) in try store.photos(ofReport: report.localID) }
    }

    /// The bytes a report's stored photos take.
    public func photoBytes(of report: Report) throws(AppError) -> Int64 {
        try storage { () throws(StorageError) in try store.photoBytes(ofReport: report.localID) }
    }

    /// The issues of a report.
    public func issues(of report: Report) throws(AppError) -> [Issue] {
        try storage { () throws(StorageError) in try store.issues(ofReport: report.localID) }
    }

    /// How many issues there are on this device.
    public func issueCount() throws(AppError) -> Int {
        try storage { () throws(StorageError) in try store.allIssues() }.count
    }

    /// The profile's photo files, for reading them (exports).
    public var storedPhotos: StoredPhotos? { store.photoFiles.map(StoredPhotos.init) }

    // MARK: The runner's place

    /// The field where the runner stopped on this report, if any.
    public func resumeField(of report: Report) throws(AppError) -> FieldID? {
        try storage { () throws(StorageError) in try store.resumeField(of: report.localID) }
    }

    /// Remembers where the runner is on this report (nil: start over next time).
    public func setResumeField(of report: Report, to field: FieldID?) throws(AppError) {
        try storage { () throws(StorageError) in try store.setResumeField(report.localID, field) }
    }

    // MARK: Settings

    /// Changes one setting of the profile to the value typed (a whole number
    /// in the setting's range) and returns the settings as they are now.
    @discardableResult
    public func saveSetting(_ entry: Settings.Entry, typed text: String) throws(AppError) -> Settings {
        guard let value = Int64(text), entry.range.contains(value) else {
            throw AppError.validation(
                "'\(text)' is not a valid \(entry.name): give a whole number from \(entry.range.lowerBound) to \(entry.range.upperBound)."
            )
        }
        return try storage { () throws(StorageError) in
            try Settings.save(entry, value: value, to: store)
            return try Settings.load(from: store)
        }
    }
}
