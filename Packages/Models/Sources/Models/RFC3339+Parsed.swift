extension RFC3339 {
    /// The fields of an RFC 3339 date-time, read once and checked.
    struct Parsed {
        var year, month, day, hour, minute, second: Int
        /// The fraction of a second, 0 when none was written.
        var fraction: Double
        /// The offset east of UTC in seconds (`+02:00` is 7200).
        var offset: Int

        init?(_ text: String, allowingSpace: Bool) {
            let chars = Array(text.utf8)
            guard chars.count >= 20, let (year, month, day) = RFC3339.dayParts(chars[0..<10]) else { return nil }
            let separators: [UInt8] =
                allowingSpace
                ? [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")]
                : [UInt8(ascii: "T"), UInt8(ascii: "t")]
            guard separators.contains(chars[10]), chars[13] == UInt8(ascii: ":"), chars[16] == UInt8(ascii: ":"),
                let hour = RFC3339.number(chars[11..<13]), let minute = RFC3339.number(chars[14..<16]),
                let second = RFC3339.number(chars[17..<19]), hour < 24, minute < 60, second < 61
            else { return nil }
            var rest = chars[19...]
            var fraction = 0.0
            if rest.first == UInt8(ascii: ".") {
                rest = rest.dropFirst()
                let digits = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
                guard !digits.isEmpty else { return nil }
                fraction = Double("0." + String(decoding: digits, as: UTF8.self)) ?? 0
                rest = rest.dropFirst(digits.count)
            }
            var offset = 0
            if !(rest.elementsEqual("Z".utf8) || rest.elementsEqual("z".utf8)) {
                let sign = rest.first
                guard rest.count == 6, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
                let zone = Array(rest)
                guard zone[3] == UInt8(ascii: ":"), let h = RFC3339.number(zone[1..<3]),
                    let m = RFC3339.number(zone[4..<6]),
                    h < 24, m < 60
                else { return nil }
                offset = (h * 3600 + m * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
            }
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (
                year, month, day, hour, minute, second
            )
            self.fraction = fraction
            self.offset = offset
        }
    }
}
