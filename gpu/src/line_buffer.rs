//! Launch-sized line buffers (`sl1-driver build --line-buffer launch`): a
//! kernel whose report gives `launch_bytes` keeps its lines in dynamic
//! shared memory, and each launch must give it `min(per_thread * block
//! threads, most)` bytes, as an executable's host compile makes its
//! launches do (`sl1_pass::launch`). Read from the report as JSON: this
//! crate runs on the GPU machine without LLVM.

use serde_json::Value;

/// A kernel's launch-sized line buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineBuffer {
    pub per_thread: u64,
    pub most: u64,
}

impl LineBuffer {
    /// `kernel`'s buffer in an S-L1 report; `None` for a static buffer, a
    /// kernel left alone, or a report without it.
    pub fn from_report(report: &str, kernel: &str) -> Option<LineBuffer> {
        let json: Value = serde_json::from_str(report).ok()?;
        let k = json["kernels"]
            .as_array()?
            .iter()
            .find(|k| k["name"] == kernel)?;
        let bytes = &k["transform"]["launch_bytes"];
        Some(LineBuffer {
            per_thread: bytes["per_thread"].as_u64()?,
            most: bytes["most"].as_u64()?,
        })
    }

    /// The dynamic shared memory a launch of `threads` threads a block
    /// gives, with `own` bytes the launch gives anyway.
    pub fn launch_bytes(&self, threads: u64, own: u32) -> u32 {
        let lines = self.per_thread.saturating_mul(threads).min(self.most);
        u32::try_from(lines).unwrap_or(u32::MAX).max(own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn read_from_the_report_and_sized_per_block() {
        let report = r#"{"kernels": [
            {"name": "a", "transform": {"launch_bytes": {"per_thread": 68, "most": 20480}}},
            {"name": "b", "transform": {"applied": true}}]}"#;
        let a = LineBuffer::from_report(report, "a").unwrap();
        assert_eq!(a.launch_bytes(6, 0), 408);
        assert_eq!(a.launch_bytes(1024, 0), 20480);
        assert_eq!(a.launch_bytes(6, 1000), 1000);
        assert_eq!(LineBuffer::from_report(report, "b"), None);
        assert_eq!(LineBuffer::from_report("not json", "a"), None);
    }
}
