//! The JSON record of each finding, under `--out`: enough to replay it
//! (seed, mode and its options, the case and its launches, the kernel's
//! spec) and to see its shape (the first difference, up to 256 differing
//! bytes and how many in all).

use std::path::{Path, PathBuf};

use serde_json::json;
use sl1_kernelgen::KernelSpec;

use crate::case::FuzzCase;
use crate::gpu_run::Difference;
use crate::launches::CaseRun;
use crate::modes::Mode;

/// Bytes as hex, in groups of 8 (a double, a `long`).
fn hex(bytes: &[u8]) -> String {
    bytes
        .chunks(8)
        .map(|c| c.iter().map(|b| format!("{b:02x}")).collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes records into a directory made on the first one.
pub struct Recorder {
    pub dir: PathBuf,
}

/// What a record is about.
pub struct Subject<'a> {
    pub what: &'a str,
    pub seed: u64,
    pub mode: &'a Mode,
    pub spec: Option<&'a KernelSpec>,
}

impl Recorder {
    pub fn new(dir: &Path) -> Recorder {
        Recorder { dir: dir.into() }
    }

    /// A mismatch, or the plain build's nondeterminism.
    pub fn difference(
        &self,
        subject: &Subject<'_>,
        case: &FuzzCase,
        run: &CaseRun,
        d: &Difference,
    ) -> std::io::Result<PathBuf> {
        self.write(
            subject,
            json!({
                "case": case,
                "launches": run,
                "buffer": d.buffer,
                "offset": d.offset,
                "plain": d.plain,
                "other": d.other,
                "differing_bytes": d.count,
                "differences": d.listed,
                "window_start": d.window_start,
                "plain_window": hex(&d.plain_window),
                "other_window": hex(&d.other_window),
            }),
        )
    }

    /// A build failure, with its message.
    pub fn failure(&self, subject: &Subject<'_>, message: &str) -> std::io::Result<PathBuf> {
        self.write(subject, json!({ "message": message }))
    }

    /// A launch failure, with its message and what was launched.
    pub fn launch_failure(
        &self,
        subject: &Subject<'_>,
        case: &FuzzCase,
        run: &CaseRun,
        message: &str,
    ) -> std::io::Result<PathBuf> {
        self.write(
            subject,
            json!({ "message": message, "case": case, "launches": run }),
        )
    }

    fn write(&self, s: &Subject<'_>, details: serde_json::Value) -> std::io::Result<PathBuf> {
        let mut record = json!({
            "what": s.what,
            "seed": s.seed,
            "mode": s.mode.name,
            "options": s.mode.options,
        });
        if let (Some(record), serde_json::Value::Object(details)) =
            (record.as_object_mut(), details)
        {
            record.extend(details);
            record.insert("spec".into(), json!(s.spec));
        }
        std::fs::create_dir_all(&self.dir)?;
        let name = format!(
            "{}-k{}-{}.json",
            s.what.replace(' ', "-"),
            s.seed,
            s.mode.name
        );
        let path = self.dir.join(name);
        let text = serde_json::to_string_pretty(&record).map_err(std::io::Error::other)?;
        std::fs::write(&path, text + "\n")?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_carry_what_replays_them() {
        let dir = tempfile::tempdir().unwrap();
        let recorder = Recorder::new(&dir.path().join("out"));
        let kernel = sl1_kernelgen::generate(3);
        let case = crate::case::case(&kernel.spec, 3);
        let run = crate::launches::case_run(&case, &kernel.spec);
        let mode = Mode::new("paper", "--cache-read-only").unwrap();
        let subject = Subject {
            what: "mismatch",
            seed: 3,
            mode: &mode,
            spec: Some(&kernel.spec),
        };
        let d = Difference::between(&[vec![1, 2]], &[vec![1, 7]]).unwrap();
        let path = recorder.difference(&subject, &case, &run, &d).unwrap();
        assert!(path.ends_with("mismatch-k3-paper.json"));
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(v["seed"], 3);
        assert_eq!(v["options"], "--cache-read-only");
        assert_eq!(
            (v["buffer"].clone(), v["offset"].clone()),
            (json!(0), json!(1))
        );
        assert_eq!(v["differences"], json!([[0, 1, 2, 7]]));
        assert_eq!(
            (v["plain_window"].clone(), v["other_window"].clone()),
            (json!("0102"), json!("0107"))
        );
        assert_eq!(v["launches"]["launches"][0]["kernel"], "k3");
        assert!(v["spec"]["args"].is_array());
        let failure = Subject {
            what: "build failure",
            ..subject
        };
        let path = recorder.failure(&failure, "ptxas failed").unwrap();
        assert!(path.ends_with("build-failure-k3-paper.json"));
    }
}
