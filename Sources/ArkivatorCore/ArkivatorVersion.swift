/// Arkivator's version, printed in documents and `--version`.
public enum ArkivatorVersion {
    public static let current = "0.3.0"
}
