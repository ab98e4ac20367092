//! What a caught panic says, for the reports of the transform's
//! all-or-nothing attempts and of the plugin's FFI boundary.

/// The message a panic carried, or "unknown panic".
pub(crate) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_string())
}
