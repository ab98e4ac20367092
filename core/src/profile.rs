//! The part of a GPU profile (the JSON file `sl1-driver probe` writes) that
//! the pass reads: the line sizes, the shared-memory budget and the memory
//! rates derived from what the probe measured. Unknown fields (the measurements themselves) are
//! ignored, so the file can grow without breaking older passes.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::options::Options;
use crate::rates::MemoryRates;

/// S-L1's parameters as a probe derived them (`sl1` in the profile).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProfileParameters {
    /// Smallest line size a launch may use, bytes.
    pub line_size: u32,
    /// Largest line size a launch may use, bytes (the memory's fill unit).
    pub max_line_size: u32,
    /// Shared memory the line buffer of a block may take, bytes.
    pub shared_budget_bytes: u64,
    /// The L2's bandwidth, one thread per sector, GB/s (profiles written
    /// before 2026-11-29 have none; the pass then keeps its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_gb_per_s: Option<u32>,
    /// Device memory's bandwidth, one thread per sector, GB/s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_gb_per_s: Option<u32>,
    /// The GPU measured (the profile's `device.name`).
    #[serde(skip)]
    pub gpu: Option<String>,
}

#[derive(Deserialize)]
struct ProfileFile {
    sl1: ProfileParameters,
    #[serde(default)]
    device: Option<ProfileDevice>,
}

#[derive(Deserialize)]
struct ProfileDevice {
    #[serde(default)]
    name: Option<String>,
}

/// Reads the S-L1 parameters of the profile at `path`.
pub fn read_profile(path: &Path) -> Result<ProfileParameters, Error> {
    let bad = |message: String| Error::Profile {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| bad(e.to_string()))?;
    let file: ProfileFile = serde_json::from_str(&text).map_err(|e| {
        bad(format!(
            "{e} (expected the JSON file `sl1-driver probe` writes, with an `sl1` section)"
        ))
    })?;
    let mut parameters = file.sl1;
    parameters.gpu = file.device.and_then(|d| d.name);
    Ok(parameters)
}

/// Which options the user set explicitly, and so keeps over a profile's.
#[derive(Clone, Copy, Debug, Default)]
pub struct Given {
    pub line_sizes: bool,
    pub shared_budget: bool,
}

impl Options {
    /// Takes the line sizes and the shared-memory budget from `profile`,
    /// except those the user gave; records the profile's path.
    pub fn apply_profile(&mut self, path: &Path, profile: &ProfileParameters, given: Given) {
        if !given.line_sizes {
            self.line_size = profile.line_size;
            self.max_line_size = profile.max_line_size;
            self.read_only_max_line_size = profile.max_line_size;
            self.stream_max_line_size = profile.max_line_size;
        }
        if !given.shared_budget {
            self.shared_budget = profile.shared_budget_bytes;
        }
        if let (Some(l2), Some(device)) = (profile.l2_gb_per_s, profile.device_gb_per_s) {
            self.memory_rates = MemoryRates {
                l2_gb_per_s: l2,
                device_gb_per_s: device,
                from: format!(
                    "{} (GPU profile {})",
                    profile.gpu.as_deref().unwrap_or("the GPU"),
                    path.display()
                ),
            };
        }
        self.gpu_profile = Some(path.display().to_string());
    }

    /// Takes the memory rates S-L1 carries for the GPU `name`
    /// (`rates::of_gpu`); its line sizes and budget stay the defaults.
    pub fn apply_known_gpu(&mut self, name: &str, rates: MemoryRates) {
        self.memory_rates = rates;
        self.gpu_profile = Some(name.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str) -> tempfile::NamedTempFile {
        let mut file = tempfile::NamedTempFile::new().unwrap();
        std::io::Write::write_all(&mut file, text.as_bytes()).unwrap();
        file
    }

    #[test]
    fn reads_the_sl1_section_and_ignores_the_rest() {
        let file = write(
            r#"{"device": {"name": "X"}, "sl1": {"line_size": 8, "max_line_size": 16,
               "shared_budget_bytes": 16384, "why": ["fill unit 16 B"]}}"#,
        );
        let p = read_profile(file.path()).unwrap();
        assert_eq!(
            p,
            ProfileParameters {
                line_size: 8,
                max_line_size: 16,
                shared_budget_bytes: 16384,
                l2_gb_per_s: None,
                device_gb_per_s: None,
                gpu: Some("X".into()),
            }
        );
    }

    #[test]
    fn a_file_without_parameters_is_an_error_naming_it() {
        let file = write(r#"{"device": {"name": "X"}}"#);
        let err = read_profile(file.path()).unwrap_err().to_string();
        assert!(err.contains(&file.path().display().to_string()), "{err}");
        assert!(err.contains("sl1"), "{err}");
        let missing = read_profile(Path::new("/nonexistent/profile.json")).unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/profile.json"));
    }

    #[test]
    fn options_given_by_the_user_win_over_the_profile() {
        let p = ProfileParameters {
            line_size: 8,
            max_line_size: 64,
            shared_budget_bytes: 20000,
            l2_gb_per_s: None,
            device_gb_per_s: None,
            gpu: None,
        };
        let path = Path::new("gpu.json");
        let mut all = Options::default();
        all.apply_profile(path, &p, Given::default());
        assert_eq!(
            (all.line_size, all.max_line_size, all.shared_budget),
            (8, 64, 20000)
        );
        assert_eq!(all.gpu_profile.as_deref(), Some("gpu.json"));
        let mut kept = Options::default();
        kept.apply_profile(
            path,
            &p,
            Given {
                line_sizes: true,
                shared_budget: true,
            },
        );
        let d = Options::default();
        assert_eq!(
            (kept.line_size, kept.max_line_size, kept.shared_budget),
            (d.line_size, d.max_line_size, d.shared_budget)
        );
    }

    #[test]
    fn a_profile_s_measured_rates_replace_the_h100_s() {
        let file = write(
            r#"{"device": {"name": "NVIDIA H200"}, "sl1": {"line_size": 16, "max_line_size": 32,
               "shared_budget_bytes": 49152, "l2_gb_per_s": 7500, "device_gb_per_s": 4100}}"#,
        );
        let mut o = Options::default();
        assert_eq!(o.memory_rates, crate::rates::h100());
        o.apply_profile(
            file.path(),
            &read_profile(file.path()).unwrap(),
            Given::default(),
        );
        assert_eq!(
            (o.memory_rates.l2_gb_per_s, o.memory_rates.device_gb_per_s),
            (7500, 4100)
        );
        assert!(
            o.memory_rates.from.contains("NVIDIA H200"),
            "{}",
            o.memory_rates.from
        );
        // A profile without rates (written before they were measured) keeps the H100's.
        let old = write(
            r#"{"sl1": {"line_size": 8, "max_line_size": 16, "shared_budget_bytes": 16384}}"#,
        );
        let mut kept = Options::default();
        kept.apply_profile(
            old.path(),
            &read_profile(old.path()).unwrap(),
            Given::default(),
        );
        assert_eq!(kept.memory_rates, crate::rates::h100());
    }

    #[test]
    fn a_budget_beyond_static_shared_memory_is_rejected() {
        let mut o = Options {
            shared_budget: 100 * 1024,
            ..Options::default()
        };
        assert!(o.validate().unwrap_err().to_string().contains("48 KiB"));
        o.shared_budget = 16 * 1024;
        assert!(o.validate().is_ok());
    }
}
