import Foundation

/// Parses the date formats HTTP allows (RFC 9110, 5.6.7): the IMF-fixdate
/// (`Sun, 06 Nov 1994 08:49:37 GMT`), and the obsolete RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`)
/// and asctime (`Sun Nov  6 08:49:37 1994`) forms, all in GMT.
///
/// A plain parser rather than a `DateFormatter`: no locale or time-zone state, and safe to call
/// from any thread.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date in `string`, or `nil` when it is not one of the three formats.
    static func parse(_ string: String) -> Date? {
        let fields = string.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        // IMF-fixdate: [weekday, day, month, year, time, GMT]
        if fields.count == 6, fields[5] == "GMT", let day = Int(fields[1]), let year = Int(fields[3]) {
            return make(year: year, month: fields[2], day: day, time: fields[4])
        }
        // RFC 850: [weekday, dd-Mon-yy, time, GMT]
        if fields.count == 4, fields[3] == "GMT" {
            let parts = fields[1].split(separator: "-").map(String.init)
            guard parts.count == 3, let day = Int(parts[0]), let shortYear = Int(parts[2]) else { return nil }
            // Two-digit years: 70...99 are 19xx, the rest 20xx (RFC 9110 reads them as the most
            // recent year with those digits; for cache dates the difference does not arise).
            let year = parts[2].count == 2 ? (shortYear >= 70 ? 1900 + shortYear : 2000 + shortYear) : shortYear
            return make(year: year, month: parts[1], day: day, time: fields[2])
        }
        // asctime: [weekday, month, day, time, year]
        if fields.count == 5, let day = Int(fields[2]), let year = Int(fields[4]) {
            return make(year: year, month: fields[1], day: day, time: fields[3])
        }
        return nil
    }

    private static func make(year: Int, month: String, day: Int, time: String) -> Date? {
        guard let monthIndex = months.firstIndex(of: month.lowercased()) else { return nil }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]), (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        let seconds = days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
