public import LucidModel

/// The public page of a share link: a small, accessible HTML page of the shared dreams'
/// cards, with no script at all. Everything a user wrote is escaped; the page names no
/// owner, no journal, nothing but what was shared.
public enum SharePage {
    /// The page for `dreams`, whose cards are at `cardPath(n)` (n from 0).
    public static func html(_ dreams: [Dream], cardPath: (Int) -> String) -> String {
        let title = dreams.count == 1 ? "A dream shared from Lucid" : "\(dreams.count) dreams shared from Lucid"
        let summary = XML.escaped(TextWrap.truncated(SafeText.plain(dreams.first?.description ?? ""), width: 200))
        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(title)</title>
            <meta property="og:type" content="article">
            <meta property="og:title" content="\(title)">
            <meta property="og:description" content="\(summary)">
            <style>
            body { margin: 0 auto; max-width: 760px; padding: 16px; font-family: system-ui, sans-serif; background: #f7f3ea; color: #222; }
            h1 { font-size: 1.3rem; font-weight: 600; }
            ol { list-style: none; padding: 0; }
            li { margin: 0 0 24px; }
            img { display: block; width: 100%; height: auto; }
            p { margin: 8px 0 0; overflow-wrap: anywhere; }
            </style>
            </head>
            <body>
            <main>
            <h1>\(title)</h1>
            <ol>

            """
        for (index, dream) in dreams.enumerated() {
            let text = XML.escaped(SafeText.plain(dream.description))
            let about = XML.escaped("\(dream.creature.displayName) ×\(dream.numberOfCreatures), dreamt on \(dream.dreamtOn.iso8601)")
            page += "<li><figure><img src=\"\(XML.escaped(cardPath(index)))\" alt=\"\(text)\" width=\"720\">"
            page += "<figcaption><p>\(text)</p><p><small>\(about)</small></p></figcaption></figure></li>\n"
        }
        page += "</ol>\n</main>\n</body>\n</html>\n"
        return page
    }

    /// The headers every share page goes with: nothing may run, nothing loads but the page's
    /// own cards, nothing is sniffed, no referrer leaks the link.
    public static let headers: [(name: String, value: String)] = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        ("Cache-Control", "private, no-store"),
    ]
}
