import ServerStore

/// The facilities named for each client.
extension SQLStatements {
    public func clientFacilities(userID: String) throws(ServerError) -> [String] {
        try rows(
            "SELECT facility_id FROM client_facilities WHERE user_id = ? ORDER BY facility_id", [.text(userID)]
        ).compactMap { $0.text("facility_id") }
    }

    public func setClientFacilities(userID: String, _ facilityIDs: [String]) throws(ServerError) {
        try run("DELETE FROM client_facilities WHERE user_id = ?", [.text(userID)])
        for id in Set(facilityIDs).sorted() {
            try run(
                "INSERT INTO client_facilities (user_id, facility_id) VALUES (?, ?)", [.text(userID), .text(id)])
        }
    }
}
