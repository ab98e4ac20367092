//! GPU architecture names.

use crate::error::DriverError;

/// Architectures clang 22 and the CUDA 12 ptxas both accept (sm_XX form;
/// `sm_90a` with the Hopper-specific features, `__CUDA_ARCH_FEAT_SM90_ALL`).
pub const KNOWN_ARCHS: [&str; 15] = [
    "sm_50", "sm_52", "sm_60", "sm_61", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87",
    "sm_89", "sm_90", "sm_90a", "sm_100", "sm_120",
];

/// Checks `arch` and returns it unchanged.
pub fn validate(arch: &str) -> Result<&str, DriverError> {
    if KNOWN_ARCHS.contains(&arch) {
        Ok(arch)
    } else {
        Err(DriverError::UnknownArch {
            arch: arch.to_string(),
            known: KNOWN_ARCHS.join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_known_and_rejects_unknown() {
        assert_eq!(validate("sm_90").unwrap(), "sm_90");
        let err = validate("sm_999").unwrap_err().to_string();
        assert!(err.contains("sm_999") && err.contains("sm_90"), "{err}");
        assert!(validate("compute_90").is_err());
    }
}
