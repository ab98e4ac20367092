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

/// The architectures `--arch` names, in order and without repeats, `native`
/// replaced by those of this machine's GPUs (`nvidia-smi`), each checked.
pub fn resolve(archs: &[String]) -> Result<Vec<String>, DriverError> {
    let mut out: Vec<String> = Vec::new();
    for arch in archs {
        let named = if arch == "native" {
            native()?
        } else {
            vec![validate(arch)?.to_string()]
        };
        for a in named {
            if !out.contains(&a) {
                out.push(a);
            }
        }
    }
    Ok(out)
}

/// The architectures of this machine's GPUs.
fn native() -> Result<Vec<String>, DriverError> {
    let none = |why: String| DriverError::NoNativeGpu { why };
    let out = std::process::Command::new("nvidia-smi")
        .args(["--query-gpu=compute_cap", "--format=csv,noheader"])
        .output()
        .map_err(|e| none(format!("cannot run nvidia-smi: {e}")))?;
    if !out.status.success() {
        return Err(none(format!(
            "nvidia-smi failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    let archs = from_compute_caps(&String::from_utf8_lossy(&out.stdout))?;
    if archs.is_empty() {
        return Err(none("nvidia-smi lists no GPU".into()));
    }
    Ok(archs)
}

/// `sm_XX` of each line of `nvidia-smi --query-gpu=compute_cap` (`9.0`).
fn from_compute_caps(text: &str) -> Result<Vec<String>, DriverError> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|cap| {
            let arch = format!("sm_{}", cap.replace('.', ""));
            validate(&arch).map(str::to_string)
        })
        .collect()
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

    #[test]
    fn architectures_resolve_in_order_without_repeats() {
        let names = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            resolve(&names(&["sm_80", "sm_90", "sm_80"])).unwrap(),
            ["sm_80", "sm_90"]
        );
        assert!(resolve(&names(&["sm_80", "all"])).is_err());
        assert_eq!(from_compute_caps("9.0\n8.6\n").unwrap(), ["sm_90", "sm_86"]);
        assert!(from_compute_caps("1.0\n").is_err());
    }
}
