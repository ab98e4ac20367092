//! A kernel's line buffer, read from its S-L1 report through the report's
//! types in `sl1-core` (no LLVM on the GPU machine). Launches of a kernel
//! with lines ask for the carveout that holds their blocks
//! (`sl1_core::carveout`), and a launch-sized buffer (`sl1-driver build
//! --line-buffer launch`) lives in dynamic shared memory: each launch gives
//! it `min(per_thread * block threads, most)` bytes. An executable's host
//! compile makes its launches do both (`sl1_pass::launch`).

use sl1_core::report::transform::LaunchBytes;
use sl1_core::report::Report;

/// The line buffer of a kernel S-L1 transformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineBuffer {
    /// Launch-sized: the bytes a launch gives it; `None` for a static
    /// buffer.
    pub sized: Option<LaunchBytes>,
}

impl LineBuffer {
    /// `kernel`'s buffer in an S-L1 report; `None` for a kernel left
    /// alone, or a report without the kernel. A report this version cannot
    /// read (not JSON, or written by another version of the pass) is an
    /// error: its launches would get no bytes.
    pub fn from_report(report: &str, kernel: &str) -> Result<Option<LineBuffer>, String> {
        let report: Report = serde_json::from_str(report)
            .map_err(|e| format!("not an S-L1 report of this version: {e}"))?;
        let Some(k) = report.kernels.iter().find(|k| k.name == kernel) else {
            return Ok(None);
        };
        let sized = k.transform.launch_bytes;
        Ok((k.transform.applied || sized.is_some()).then_some(LineBuffer { sized }))
    }

    /// The dynamic shared memory a launch of `threads` threads a block
    /// gives, with `own` bytes the launch gives anyway.
    pub fn launch_bytes(&self, threads: u64, own: u32) -> u32 {
        let lines = self.sized.map_or(0, |b| b.for_block(threads));
        u32::try_from(lines).unwrap_or(u32::MAX).max(own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use sl1_core::report::KernelReport;

    #[test]
    fn read_from_the_report_static_or_sized_per_block() {
        let mut a = KernelReport {
            name: "a".into(),
            ..KernelReport::default()
        };
        a.transform.launch_bytes = Some(LaunchBytes {
            per_thread: 68,
            most: 20480,
        });
        let mut b = KernelReport {
            name: "b".into(),
            ..KernelReport::default()
        };
        b.transform.applied = true;
        let report = serde_json::to_string(&Report {
            kernels: vec![a, b],
            ..Report::default()
        })
        .unwrap();
        let report = report.as_str();
        let a = LineBuffer::from_report(report, "a").unwrap().unwrap();
        assert_eq!(a.launch_bytes(6, 0), 408);
        assert_eq!(a.launch_bytes(1024, 0), 20480);
        assert_eq!(a.launch_bytes(6, 1000), 1000);
        let b = LineBuffer::from_report(report, "b").unwrap().unwrap();
        assert_eq!(b, LineBuffer { sized: None });
        assert_eq!(b.launch_bytes(1024, 100), 100);
        assert_eq!(LineBuffer::from_report(report, "c"), Ok(None));
        assert!(LineBuffer::from_report("not json", "a").is_err());
        let old = r#"{"kernels": [{"name": "a", "transform": {"reasons": ["text"]}}]}"#;
        assert!(LineBuffer::from_report(old, "a").is_err());
    }
}
