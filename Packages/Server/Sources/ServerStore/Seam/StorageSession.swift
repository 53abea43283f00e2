import Foundation
import Models

/// The intent-named operations on the server's database, valid inside
/// `ServerStorage.read` or `write`. Each store implements them its own way;
/// the rules above call only these.
public protocol StorageSession {
    // MARK: Settings

    /// A server setting (the token key, the demo mark), if set.
    func setting(_ key: String) throws(ServerError) -> String?
    /// Sets a server setting.
    func setSetting(_ key: String, _ value: String) throws(ServerError)

    // MARK: Users and sessions

    /// The user signing in with `username`.
    func user(username: String) throws(ServerError) -> StoredUser?
    /// The user with this id.
    func user(id: String) throws(ServerError) -> StoredUser?
    /// Every user of a role, by user name.
    func users(role: UserRole) throws(ServerError) -> [StoredUser]
    /// The facilities an admin named for a client, by id.
    func clientFacilities(userID: String) throws(ServerError) -> [String]
    /// Names exactly these facilities for a client.
    func setClientFacilities(userID: String, _ facilityIDs: [String]) throws(ServerError)
    /// Adds a user, or updates the password, role and name of an existing one.
    func upsertUser(id: String, username: String, passwordHash: String, role: UserRole, displayName: String)
        throws(ServerError)
    /// Starts a session with its first refresh token; returns the session id.
    func createSession(userID: String, refreshHash: String, now: Date) throws(ServerError) -> String
    /// Spends a live refresh token and issues its successor in the same
    /// session; nil when the token is unknown, spent, expired or its session
    /// revoked. A spent token presented again means it was copied: the whole
    /// session is revoked. A token unused for `idleLifetime`, or a session
    /// older than `maximumAge`, ends the session too.
    func rotateRefreshToken(
        presentedHash: String, nextHash: String, now: Date, idleLifetime: TimeInterval,
        maximumAge: TimeInterval
    ) throws(ServerError) -> (StoredUser, String)?
    /// Whether session `id` is live and belongs to user `userID`.
    func isSessionLive(_ id: String, userID: String) throws(ServerError) -> Bool
    /// Ends one session: its refresh tokens and access tokens stop working.
    func revokeSession(id: String, now: Date) throws(ServerError)
    /// Ends every session of a user (after a password change).
    func revokeSessions(userID: String, now: Date) throws(ServerError)
    /// In a PostgreSQL write, locks every user's row until commit, so that
    /// changes of people are decided one at a time (of two admins demoting
    /// each other at once, the second sees the first's change); nothing on
    /// SQLite, whose writer holds the whole database.
    func lockUsers() throws(ServerError)
    /// Revokes the session a refresh token belongs to, when it is the user's own.
    func revokeSession(refreshHash: String, userID: String) throws(ServerError)
    /// Adds `adding` failed sign-ins to `key` (a window of `window` seconds
    /// starts afresh once the last one is over) and returns the failures in
    /// the current window and the Unix second it began: the count every
    /// instance on the database shares.
    func countSignInFailures(key: String, adding: Int, now: Date, window: TimeInterval) throws(ServerError) -> (
        Int, Int64
    )
    /// Forgets the failures of `key` (a right password), and entries idle since `staleBefore`.
    func clearSignInFailures(key: String, staleBefore: Date) throws(ServerError)

    // MARK: Reference data

    /// Every facility devices see (not retired), in the order they were added.
    func facilities() throws(ServerError) -> [Facility]
    /// Whether a facility devices see exists (not retired).
    func facilityExists(_ id: String) throws(ServerError) -> Bool
    /// The areas of one facility that devices see (not retired).
    func areas(facilityID: String) throws(ServerError) -> [Area]
    /// One area, retired or not.
    func area(id: String) throws(ServerError) -> Area?
    /// Every template devices see (not retired).
    func templates() throws(ServerError) -> [Template]
    /// One template, retired or not (reports made offline on it are still judged).
    func template(id: String) throws(ServerError) -> Template?
    /// A version the template published (contract 1.1: reports are judged against the version they name).
    func templateVersion(id: String, version: Int) throws(ServerError) -> Template?
    /// Adds or replaces a facility.
    func insertFacility(_ facility: Facility, position: Int) throws(ServerError)
    /// Adds or replaces an area.
    func insertArea(_ area: Area, position: Int) throws(ServerError)
    /// Adds or replaces a template, and bumps the template revision.
    func insertTemplate(_ template: Template, position: Int) throws(ServerError)
    /// A number that changes whenever a template is added or replaced, by any
    /// process: how a template cache knows it is stale.
    func templateRevision() throws(ServerError) -> Int64

    // MARK: Administration

    /// Every facility, retired ones included, in the order they were added.
    func managedFacilities() throws(ServerError) -> [ManagedFacility]
    /// One facility, retired or not.
    func managedFacility(id: String) throws(ServerError) -> ManagedFacility?
    /// Retires a facility (`at`) or brings it back (nil).
    func setFacilityRetired(id: String, at: String?) throws(ServerError)
    /// Every area (of one facility, or all), retired ones included.
    func managedAreas(facilityID: String?) throws(ServerError) -> [ManagedArea]
    /// Retires an area (`at`) or brings it back (nil).
    func setAreaRetired(id: String, at: String?) throws(ServerError)
    /// Every template, retired ones included, with the versions it published.
    func managedTemplates() throws(ServerError) -> [ManagedTemplate]
    /// Makes `template` the current version of its id and keeps it among the
    /// published versions; bumps the template revision.
    func publishTemplate(_ template: Template, publishedBy: String, now: Date) throws(ServerError)
    /// Retires a template (`at`) or brings it back (nil); bumps the template revision.
    func setTemplateRetired(id: String, at: String?) throws(ServerError)
    /// Every assignment (of one inspector, or all), closed and cancelled ones included.
    func managedAssignments(inspectorID: String?) throws(ServerError) -> [ManagedAssignment]
    /// One assignment.
    func managedAssignment(id: String) throws(ServerError) -> ManagedAssignment?
    /// Cancels an assignment: closed for devices, the cursor moves.
    func cancelAssignment(id: String, at: String) throws(ServerError)
    /// Every user, disabled ones included, by user name.
    func allUsers() throws(ServerError) -> [StoredUser]
    /// Disables a user (`at`) or enables them again (nil).
    func setUserDisabled(id: String, at: String?) throws(ServerError)
    /// Appends an event to the administration log.
    func recordAdminEvent(_ event: AdminEvent) throws(ServerError)
    /// The newest `limit` events of the administration log, oldest first,
    /// those before `before` when it is given.
    func adminEvents(limit: Int, before: Int64?) throws(ServerError) -> [AdminEvent]

    // MARK: Assignments

    /// Adds or replaces an assignment of an inspector.
    func insertAssignment(_ assignment: Assignment, inspectorID: String) throws(ServerError)
    /// Assignments of one inspector (nil: all); open ones without `since`,
    /// every one changed after it with. Also the sequence to use as the next cursor.
    func assignments(inspectorID: String?, since: Int64?) throws(ServerError) -> ([Assignment], Int64)
    /// Closes an inspector's open assignment once a report for it is accepted.
    func closeAssignment(id: String, inspectorID: String) throws(ServerError)

    // MARK: Schedules

    /// Every schedule, by id.
    func schedules() throws(ServerError) -> [StoredSchedule]
    /// One schedule; in a PostgreSQL write its row stays locked until commit.
    func schedule(id: String) throws(ServerError) -> StoredSchedule?
    /// Adds a schedule, or replaces the one of its id.
    func saveSchedule(_ schedule: StoredSchedule) throws(ServerError)
    /// Deletes a schedule (its visits stay, for coverage); whether there was one.
    func deleteSchedule(id: String) throws(ServerError) -> Bool
    /// Up to `limit` running schedules whose visits are made to before
    /// `horizon` (RFC 3339) only, locked for this transaction; on PostgreSQL
    /// those another instance holds are skipped, never waited for.
    func schedulesToMake(horizon: String, limit: Int) throws(ServerError) -> [StoredSchedule]
    /// Makes visits into open assignments under one change number; a visit
    /// whose id exists already is left as it is. How many were new.
    func insertVisits(_ visits: [ScheduledVisit]) throws(ServerError) -> Int
    /// Records how far a schedule's visits are made.
    func setScheduleMade(id: String, until: String, count: Int) throws(ServerError)
    /// Cancels a schedule's open visits whose window starts after `after`; how many.
    func cancelVisits(scheduleID: String, startingAfter after: String, at: String) throws(ServerError) -> Int
    /// Visits whose window starts in [`from`, `to`), with what became of each, by window.
    func visits(from: String, to: String, facilityID: String?) throws(ServerError) -> [VisitRecord]
    /// Open visits whose window ended after `after` (its end, then its id)
    /// and by `upTo`, in that order: those a pass of the mail outbox says are missed.
    func visitsFallingMissed(after: (windowEnd: String, id: String), upTo: String, limit: Int) throws(ServerError)
        -> [ScheduledVisit]
    /// How many inspections were accepted in [`from`, `to`) for each facility and area (nil: none named).
    func inspectionCounts(from: String, to: String, facilityID: String?) throws(ServerError)
        -> [(facilityID: String, areaID: String?, count: Int)]

    // MARK: Reports

    /// The report a device made with this local id.
    func report(localID: UUID) throws(ServerError) -> StoredReport?
    /// The report with this server id.
    func report(serverID: String) throws(ServerError) -> StoredReport?
    /// One revision, read alone.
    func revision(serverID: String, revision: Int) throws(ServerError) -> StoredRevision?
    /// The stored issues (JSON text) of each named report's current revision, by server id; one read.
    func currentIssues(serverIDs: [String]) throws(ServerError) -> [String: String]
    /// The first revision accepted from a device with this base and this
    /// canonical payload as sent (a replay; a merged revision by the payload
    /// the device sent, not the merged one), found without reading the others.
    func deviceRevision(serverID: String, baseRevision: Int?, payloadJSON: String) throws(ServerError) -> Int?
    /// Marks a revision just appended as a merge (contract 1.1): the payload
    /// the device sent, by which a replay finds it, and what came from the server's side.
    func recordMerge(serverID: String, revision: Int, sentPayloadJSON: String, mergedFields: [String])
        throws(ServerError)
    /// Stores a new report at revision 1; returns its server id.
    func insertReport(
        _ report: WireReport, ownerID: String, payloadJSON: String, issuesJSON: String, grade: ReportGrade,
        now: Date
    ) throws(ServerError) -> String
    /// Adds the next revision of a report and makes it current; returns its
    /// number. Refused past `limit` revisions. A payload that asks for a
    /// follow-up raises the flag again, even if a re-inspection had cleared it.
    /// Nil `issuesJSON` keeps the current revision's issues.
    func appendRevision(
        serverID: String, baseRevision: Int?, payload: WirePayload, issuesJSON: String?, grade: ReportGrade,
        source: String, authorID: String?, limit: Int, now: Date
    ) throws(ServerError) -> Int
    /// Reports whose current revision has no grade yet (kept from before
    /// grades were), at most `limit`.
    func ungradedReports(limit: Int) throws(ServerError) -> [UngradedReport]
    /// Gives a report's current revision `revision` its grade, on the report too.
    func setGrade(serverID: String, revision: Int, _ grade: ReportGrade) throws(ServerError)
    /// The sums of each group of reports a roll-up asks for.
    func gradeRollup(_ query: RollupQuery) throws(ServerError) -> [RollupSums]
    /// Marks the parent's follow-up as done by `childServerID`, once.
    func clearFollowUp(parentServerID: String, childServerID: String) throws(ServerError)

    // MARK: Reviews and events

    /// The review of a report's current revision (inside a write, the report stays locked until commit).
    func review(serverID: String) throws(ServerError) -> StoredReview?
    /// Saves these reviews (one per report), giving each the next position in
    /// the order of review changes, in the order given; positions become
    /// visible in order (a reader never later sees a lower one). Returns them with their positions.
    func saveReviews(_ reviews: [StoredReview]) throws(ServerError) -> [StoredReview]
    /// At most `limit` current reviews with a position after `after`, in position order; of `ownerID`'s reports only when given.
    func reviews(after: Int64, ownerID: String?, limit: Int) throws(ServerError) -> [StoredReview]
    /// Appends an event to a report's record.
    func recordReportEvent(_ event: StoredReportEvent) throws(ServerError)
    /// A report's events, oldest first.
    func reportEvents(serverID: String) throws(ServerError) -> [StoredReportEvent]

    // MARK: Corrective actions

    /// An action by its id (inside a write, on PostgreSQL, locked until commit).
    func action(id: String) throws(ServerError) -> StoredAction?
    /// The action a `POST /actions` with this `id` made, if any.
    func action(requestID: String) throws(ServerError) -> StoredAction?
    /// The action made from this issue of this report, if any.
    func action(reportServerID: String, issueLocalID: String) throws(ServerError) -> StoredAction?
    /// A recorded update, by the id its sender gave it.
    func actionUpdate(id: String) throws(ServerError) -> StoredActionUpdate?
    /// An action's updates, oldest first.
    func actionUpdates(actionID: String) throws(ServerError) -> [StoredActionUpdate]
    /// Stores a new action at the next position in the order of action
    /// changes (positions become visible in order), and lets `viewers`
    /// (user ids) see it; returns it with its position.
    func insertAction(_ action: StoredAction, viewers: [String]) throws(ServerError) -> StoredAction
    /// Records an update and the action as it now stands, at the next
    /// position, and lets `viewers` see it; returns the action with its position.
    func recordActionUpdate(_ update: StoredActionUpdate, action: StoredAction, viewers: [String])
        throws(ServerError) -> StoredAction
    /// At most `limit` actions whose position is after `after`, in position
    /// order; only those `viewerID` may see (assigned to them now or before,
    /// or from their reports) when given.
    func actions(after: Int64, viewerID: String?, limit: Int) throws(ServerError) -> [StoredAction]
    /// Whether `userID` is among those who may see an action (besides supervisors and admins).
    func isActionViewer(actionID: String, userID: String) throws(ServerError) -> Bool
    /// The actions a client sees (not internal, at their facilities) changed after `after`, in order of change.
    func clientActions(after: Int64, clientID: String, limit: Int) throws(ServerError) -> [StoredAction]
    /// One page of the actions `query` matches, the soonest due first (none due last), then in order of change.
    func actionList(_ query: ActionListQuery, limit: Int, offset: Int) throws(ServerError) -> [StoredAction]
    /// How many actions `query` matches in each state (its own state filter left out).
    func actionStateCounts(_ query: ActionListQuery) throws(ServerError) -> [ActionState: Int]
    /// The actions made from a report's issues, in order of their making.
    func actions(reportServerID: String) throws(ServerError) -> [StoredAction]
    /// The photo of an action or of its update a device made with this local id.
    func actionPhoto(localID: UUID) throws(ServerError) -> StoredActionPhoto?
    /// An action's photos and its updates', in the order they were stored.
    func actionPhotos(actionID: String) throws(ServerError) -> [StoredActionPhoto]
    /// Records a photo of an action and moves the action to the next
    /// position (its `change`), as an update does; returns the action with it.
    func insertActionPhoto(_ photo: StoredActionPhoto, uploadedBy: String, action: StoredAction)
        throws(ServerError) -> StoredAction

    // MARK: Photos

    /// The photo a device made with this local id.
    func photo(localID: UUID) throws(ServerError) -> StoredPhoto?
    /// The photos of one report, in upload order.
    func photos(serverID: String) throws(ServerError) -> [StoredPhoto]
    /// How many photos one report holds (what the per-report photo limit counts).
    func photoCount(serverID: String) throws(ServerError) -> Int
    /// Records an uploaded photo.
    func insertPhoto(_ photo: StoredPhoto, uploadedBy: String) throws(ServerError)
    /// The unexpired resumable upload of photo `localID` by `userID`, as its
    /// row stands (`UploadStore.checked` says whether its bytes are still held):
    /// read with the other checks of a `POST /uploads`, in their transaction.
    func unexpiredUpload(localID: UUID, userID: String, now: Date) throws(ServerError) -> StoredUpload?
    /// The unexpired resumable upload `id` of `userID`, as its row stands: read
    /// with what storing its photo checks, when one `PATCH` brings every byte.
    func unexpiredUpload(id: String, userID: String, now: Date) throws(ServerError) -> StoredUpload?
    /// Marks the resumable upload `id` finished at `at`, in the transaction
    /// that records its photo, and drops any of its bytes the database holds;
    /// bytes kept elsewhere are let go of by `UploadStore.release` after.
    func finishUpload(_ id: String, at: Date) throws(ServerError)

    // MARK: Webhooks

    /// Every webhook, enabled or not, in the order they were added.
    func webhooks() throws(ServerError) -> [StoredWebhook]
    /// Adds a webhook.
    func insertWebhook(_ webhook: StoredWebhook) throws(ServerError)
    /// Removes a webhook and its deliveries; false when there was none.
    func deleteWebhook(id: String) throws(ServerError) -> Bool
    /// Disables a webhook (`at`, with why) or enables it again (nil).
    func setWebhookDisabled(id: String, at: String?, reason: String?) throws(ServerError)
    /// The enabled webhooks and each one's cursors in the report events' and the action changes' order
    /// (on PostgreSQL, locked until commit; those another transaction holds are left out).
    func webhooksForFanOut() throws(ServerError) -> [FanOutHook]
    /// Deliveries of a webhook not yet delivered or failed.
    func pendingWebhookDeliveries(webhookID: String) throws(ServerError) -> Int
    /// Moves a webhook's cursor to `change`.
    func setWebhookCursor(id: String, change: Int64) throws(ServerError)
    /// Moves a webhook's cursor in the order of action changes to `change`.
    func setWebhookActionCursor(id: String, change: Int64) throws(ServerError)
    /// Records an action as it stood after a change, for webhooks.
    func recordActionEvent(_ event: StoredActionEvent) throws(ServerError)
    /// At most `limit` action events after position `afterChange`, in order.
    func actionEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [StoredActionEvent]
    /// At most `limit` report events recorded after position `afterChange`, in order.
    func reportEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [StoredReportEvent]
    /// Writes each event, in order, as a pending delivery due at `dueAt`
    /// (ms since 1970) to each of `webhooks` (ids) that is sent its type.
    func enqueueWebhookEvents(
        _ events: [WebhookEvent], to webhooks: [(id: String, events: [WebhookEventType])],
        dueAt: Int64) throws(ServerError)
    /// Takes at most `limit` deliveries that are due, whose hook is enabled,
    /// that no other sender holds (or whose lease ran out), whose hook has no
    /// other delivery under a live lease (one sender per hook at a time), and
    /// that no earlier pending delivery of the same report to the same hook
    /// precedes; each is held under `lease` until `leaseUntil` (ms since 1970).
    /// On a shared database two instances never take the same one at once.
    func claimWebhookDeliveries(now: Int64, leaseUntil: Int64, lease: String, limit: Int) throws(ServerError)
        -> [ClaimedDelivery]
    /// Records an attempt of a delivery still held under `lease` (and
    /// disables its hook when the record says so); false when the lease was
    /// lost to another sender, whose record counts instead.
    func finishWebhookDelivery(id: Int64, lease: String, _ record: WebhookAttemptRecord, at: String) throws(ServerError)
        -> Bool
    /// The newest `limit` deliveries (of one hook, or all; failed ones only when asked), newest first.
    func webhookDeliveries(webhookID: String?, failedOnly: Bool, limit: Int) throws(ServerError) -> [WebhookDelivery]
    /// One delivery.
    func webhookDelivery(id: Int64) throws(ServerError) -> WebhookDelivery?
    /// Makes a delivery pending again with no attempts, due at `dueAt`; false when there is none.
    func replayWebhookDelivery(id: Int64, dueAt: Int64) throws(ServerError) -> Bool
    /// Forgets at most `limit` deliveries delivered before `before` (RFC 3339); how many went.
    func pruneWebhookDeliveries(deliveredBefore before: String, limit: Int) throws(ServerError) -> Int

    // MARK: Mail

    /// A person's e-mail address, nil when they have none.
    func email(userID: String) throws(ServerError) -> String?
    /// Sets (or, with nil, clears) a person's e-mail address.
    func setEmail(userID: String, _ email: String?) throws(ServerError)
    /// A person's stored choices; nil while they keep their role's defaults.
    func mailPreferences(userID: String) throws(ServerError) -> MailPreferences?
    /// Stores a person's choices.
    func setMailPreferences(userID: String, _ preferences: MailPreferences, at: String) throws(ServerError)
    /// Everyone mail may reach: enabled accounts with an address, with their
    /// choices (stored, or their role's defaults) and a client's facilities.
    func mailRecipients() throws(ServerError) -> [MailRecipient]
    /// A cursor of the mail outbox (`mail.*` settings), read for update: on
    /// PostgreSQL its row stays locked until commit, so two instances making
    /// messages from the same events take turns.
    func mailCursor(_ key: String) throws(ServerError) -> String?
    /// Inserts each message not already made (by its Message-ID), due at
    /// `dueAt` (ms since 1970); how many were new.
    func enqueueMail(_ messages: [NewMail], dueAt: Int64, at: String) throws(ServerError) -> Int
    /// Takes at most `limit` due messages that no other sender holds (or whose
    /// lease ran out), oldest first, each held under `lease` until `leaseUntil`
    /// (ms since 1970). On a shared database two instances never take the same one at once.
    func claimMail(now: Int64, leaseUntil: Int64, lease: String, limit: Int) throws(ServerError) -> [StoredMail]
    /// Records an attempt of a message still held under `lease`; false when
    /// the lease was lost to another sender, whose record counts instead.
    func finishMail(id: Int64, lease: String, _ record: MailAttemptRecord, at: String) throws(ServerError) -> Bool
    /// Lets go of messages still held under `lease` without an attempt (a batch cut short): due as they were.
    func releaseMail(ids: [Int64], lease: String) throws(ServerError)
    /// The newest `limit` messages (failed ones only when asked), newest first, without their bodies.
    func mailMessages(failedOnly: Bool, limit: Int) throws(ServerError) -> [StoredMail]
    /// One message, with its body.
    func mail(id: Int64) throws(ServerError) -> StoredMail?
    /// Makes a message pending again with no attempts, due at `dueAt`; false when there is none.
    func retryMail(id: Int64, dueAt: Int64) throws(ServerError) -> Bool
    /// Forgets at most `limit` messages sent before `before` (RFC 3339); how many went.
    func pruneMail(sentBefore before: String, limit: Int) throws(ServerError) -> Int
    /// How many messages are in each state.
    func mailCounts() throws(ServerError) -> [MailState: Int]
    /// At most `limit` report events after position `afterChange`, in order,
    /// each with its revision's grade and whether it carries issues.
    func mailReportEvents(afterChange: Int64, limit: Int) throws(ServerError) -> [MailReportEvent]
    /// The position of the latest report event and of the latest action event (0 when none).
    func latestEventChanges() throws(ServerError) -> (reports: Int64, actions: Int64)
    /// The action events of one action before position `change`, the latest first (at most one).
    func actionEvent(actionID: String, before change: Int64) throws(ServerError) -> StoredActionEvent?
    /// Actions not yet done, verified or cancelled whose due time is no later
    /// than `upTo` (RFC 3339) and after the position `after` (a due time and an
    /// action id: ties are ordered by id), at most `limit`, in that order.
    func actionsFallingDue(after: (dueAt: String, id: String), upTo: String, limit: Int) throws(ServerError)
        -> [OverdueAction]

    // MARK: Quotas

    /// What a user has stored: bytes (revision payloads and photos they sent),
    /// and revisions on the UTC day `day` (0 when the count is of another day).
    func usage(userID: String, day: String) throws(ServerError) -> (bytes: Int64, revisions: Int)
    /// Adds to a user's stored bytes and to their revisions of `day` (a new day starts the count afresh).
    func addUsage(userID: String, bytes: Int64, revisions: Int, day: String) throws(ServerError)

    // MARK: History and roll-up

    /// One page of the reports `query` matches, newest first, and how many it matches in all.
    func history(_ query: HistoryQuery, limit: Int, offset: Int) throws(ServerError) -> (
        [(StoredReport, StoredUser)], Int
    )
    /// One page of the reports `query` matches, in its order, without counting them (the console's queue counts by state).
    func reportsPage(_ query: HistoryQuery, limit: Int, offset: Int) throws(ServerError) -> [(StoredReport, StoredUser)]
    /// How many reports `query` matches in each review state (its own `reviewState` left out).
    func reviewStateCounts(_ query: HistoryQuery) throws(ServerError) -> [ReviewState: Int]
    /// Per inspector: completed reports, open follow-ups, average score.
    func rollup() throws(ServerError) -> [RollupLine]
}

/// One inspector's line of the team roll-up.
public struct RollupLine: Sendable, Equatable {
    /// The inspector.
    public var user: StoredUser
    /// Reports accepted from them.
    public var completed: Int
    /// Their reports that ask for a follow-up not yet done.
    public var pendingFollowUp: Int
    /// The mean of their scores, if any report was scored.
    public var averageScore: Double?

    /// Makes a line.
    public init(user: StoredUser, completed: Int, pendingFollowUp: Int, averageScore: Double?) {
        self.user = user
        self.completed = completed
        self.pendingFollowUp = pendingFollowUp
        self.averageScore = averageScore
    }
}
