import ArkivatorCore

/// What an opening of a share link keeps of the client: the kind of device and the browser's
/// family, read from `User-Agent` (`mobile · Safari`), never an address or the whole header, so
/// the owner can tell a desk's computer from a phone without the log knowing who.
enum ShareClientHint {
    /// `device · browser`, both from short fixed lists (see ``shown(_:language:)``).
    static func of(userAgent: String?) -> String {
        guard let agent = userAgent?.lowercased(), !agent.isEmpty else { return "unknown · other" }
        let device = if agent.contains("ipad") || agent.contains("tablet") || (agent.contains("android") && !agent.contains("mobile")) {
            "tablet"
        } else if agent.contains("mobile") || agent.contains("iphone") || agent.contains("android") {
            "mobile"
        } else if ["bot", "crawl", "spider", "preview", "curl/", "python", "go-http", "wget"].contains(where: agent.contains) {
            "robot"
        } else {
            "computer"
        }
        let browser = if agent.contains("edg/") {
            "Edge"
        } else if agent.contains("firefox/") || agent.contains("fxios/") {
            "Firefox"
        } else if agent.contains("chrome/") || agent.contains("crios/") || agent.contains("chromium/") {
            "Chrome"
        } else if agent.contains("safari/") {
            "Safari"
        } else {
            "other"
        }
        return "\(device) · \(browser)"
    }

    /// The hint in words: «Mobil · Safari», «Datamaskin · annen nettleser».
    static func shown(_ hint: String, language: UILanguage) -> String {
        let parts = hint.components(separatedBy: " · ")
        let device = switch parts.first ?? "" {
        case "mobile": language.text("Mobil", "Phone")
        case "tablet": language.text("Nettbrett", "Tablet")
        case "computer": language.text("Datamaskin", "Computer")
        case "robot": language.text("Program eller forhåndsvisning", "Program or link preview")
        default: language.text("Ukjent enhet", "Unknown device")
        }
        let browser = parts.count > 1 && parts[1] != "other" ? parts[1] : language.text("annen nettleser", "other browser")
        return "\(device) · \(browser)"
    }
}
