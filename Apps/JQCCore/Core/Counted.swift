/// `count` and the noun that goes with it, in English: "1 template", "3 templates",
/// "1 facility", "2 facilities" (the plural given when adding an s is wrong).
public func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}
