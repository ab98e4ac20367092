//! The S-L1 runtime's account of an executable's launches
//! (`SL1_LAUNCHES=1`, `driver/runtime/launches.c`), one line per kernel with
//! lines, printed when the program exits; read by the executable suite and
//! the corpus runner.

use serde::{Deserialize, Serialize};

/// What the runtime said of one kernel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelLaunches {
    /// The kernel's device name (mangled for C++ kernels).
    pub kernel: String,
    /// Launches that got the kernel's lines.
    pub launches: u64,
    /// The dynamic shared bytes the last of them got.
    pub last_bytes: u64,
    /// Of `launches`, those only the runtime's wrappers sized (the launch
    /// asked for fewer bytes): launches that had no lines before the
    /// runtime existed.
    pub by_runtime: u64,
}

/// The runtime's lines in `stderr`: `sl1: <kernel>: <n> launch(es) with
/// lines, the last with <b> B, <r> sized by the runtime alone`; other lines
/// are left.
pub fn parse(stderr: &str) -> Vec<KernelLaunches> {
    stderr
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("sl1: ")?;
            let (kernel, rest) = rest.split_once(": ")?;
            let (launches, rest) = rest.split_once(" launch(es) with lines, the last with ")?;
            let (bytes, rest) = rest.split_once(" B, ")?;
            let by_runtime = rest.strip_suffix(" sized by the runtime alone")?;
            Some(KernelLaunches {
                kernel: kernel.to_string(),
                launches: launches.parse().ok()?,
                last_bytes: bytes.parse().ok()?,
                by_runtime: by_runtime.parse().ok()?,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runtime_s_lines_are_read_and_others_left() {
        let err = "sl1x: unrelated\n\
                   sl1: mv_rows: 6 launch(es) with lines, the last with 20480 B, 0 sized by the runtime alone\n\
                   sl1: _Z1kPf: 3 launch(es) with lines, the last with 0 B, 2 sized by the runtime alone\n\
                   sl1: bad: x launch(es) with lines, the last with 0 B, 0 sized by the runtime alone\n\
                   sl1: old: 1 launch(es) with lines, the last with 8 B";
        assert_eq!(
            parse(err),
            [
                KernelLaunches {
                    kernel: "mv_rows".into(),
                    launches: 6,
                    last_bytes: 20480,
                    by_runtime: 0
                },
                KernelLaunches {
                    kernel: "_Z1kPf".into(),
                    launches: 3,
                    last_bytes: 0,
                    by_runtime: 2
                }
            ]
        );
    }
}
