//! Sizes as people read them, for the inference and the summary alike.

/// `bytes` in the largest binary unit that keeps it whole-ish.
pub fn size(bytes: u64) -> String {
    const KIB: u64 = 1024;
    if bytes >= KIB * KIB && bytes % (KIB * KIB / 8) == 0 {
        format!("{} MiB", bytes as f64 / (KIB * KIB) as f64)
    } else if bytes >= KIB && bytes % (KIB / 8) == 0 {
        format!("{} KiB", bytes as f64 / KIB as f64)
    } else {
        format!("{bytes} B")
    }
}
