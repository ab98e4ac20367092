//! The memory floor: the least time an app can take on a GPU whose memory
//! moves bytes no faster than a device-to-device copy does.
//!
//! An app must read each input it is given once and write each output once
//! (an output updated in place is read once and written once). The copy
//! measured in the same run says how fast the device moves bytes (a copy of
//! N bytes moves 2N: it reads and writes them), so the floor of an app is its
//! bytes over that rate, and `time / floor` says how far a build is from it.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::apps::{Arg, Case, Fill};

/// The copy the floor comes from, and every app's bytes and floor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Floor {
    /// Bytes of the buffer copied device to device.
    pub copy_bytes: u64,
    /// Median time of the copy.
    pub copy_ms: f32,
    /// Bytes moved (read plus written) per second by the copy.
    pub bytes_per_second: f64,
    pub apps: Vec<AppFloor>,
}

/// What one app must move and the least time that takes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AppFloor {
    pub app: String,
    /// Bytes read once plus bytes written once.
    pub bytes: u64,
    pub floor_ms: f64,
}

impl Floor {
    /// The rate of a copy of `copy_bytes` that took `copy_ms`.
    pub fn from_copy(copy_bytes: u64, copy_ms: f32) -> Floor {
        Floor {
            copy_bytes,
            copy_ms,
            bytes_per_second: 2.0 * copy_bytes as f64 / (f64::from(copy_ms) / 1e3),
            apps: Vec::new(),
        }
    }

    /// Adds `app`, which must move `bytes`.
    pub fn add(&mut self, app: &str, bytes: u64) {
        let floor_ms = bytes as f64 / self.bytes_per_second * 1e3;
        self.apps.push(AppFloor {
            app: app.into(),
            bytes,
            floor_ms,
        });
    }

    /// `ms` of `app` over its floor (None for an app without one).
    pub fn times_floor(&self, app: &str, ms: f32) -> Option<f64> {
        self.apps
            .iter()
            .find(|a| a.app == app)
            .filter(|a| a.floor_ms > 0.0)
            .map(|a| f64::from(ms) / a.floor_ms)
    }

    /// One line on the copy and one per app.
    pub fn text(&self) -> String {
        let mut out = format!(
            "memory floor: a device-to-device copy of {} MiB took {:.3} ms ({:.0} GB/s read + written)\n",
            self.copy_bytes >> 20,
            self.copy_ms,
            self.bytes_per_second / 1e9
        );
        for a in &self.apps {
            out += &format!(
                "  {:<14} moves {:>9.1} MiB at least: floor {:.3} ms\n",
                a.app,
                a.bytes as f64 / f64::from(1u32 << 20),
                a.floor_ms
            );
        }
        out
    }
}

/// Bytes a launch with `args` must move at least: each input it is given
/// read once, each output written once, and read once too where it starts
/// as a copy of an input (updated in place). A buffer named by several
/// arguments counts once.
pub fn must_move_bytes(case: &Case, args: &[Arg]) -> u64 {
    let inputs: BTreeSet<usize> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Input(i) => Some(*i),
            _ => None,
        })
        .collect();
    let outputs: BTreeSet<usize> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Output(i) | Arg::OutputAt(i, _) => Some(*i),
            _ => None,
        })
        .collect();
    let read: u64 = inputs.iter().map(|&i| case.inputs[i].len() as u64).sum();
    let written: u64 = outputs
        .iter()
        .map(|&i| {
            let o = &case.outputs[i];
            let bytes = o.bytes as u64;
            match o.fill {
                Fill::Input(_) => 2 * bytes,
                Fill::Byte(_) => bytes,
            }
        })
        .sum();
    read + written
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apps::Output;

    fn case() -> Case {
        Case {
            inputs: vec![vec![0; 1000], vec![0; 24]],
            outputs: vec![
                Output {
                    bytes: 1000,
                    fill: Fill::Byte(0),
                },
                Output {
                    bytes: 24,
                    fill: Fill::Input(1),
                },
            ],
            expected: vec![],
        }
    }

    #[test]
    fn inputs_are_read_and_outputs_written_once() {
        let args = [Arg::Input(0), Arg::Output(0), Arg::U64(5)];
        assert_eq!(must_move_bytes(&case(), &args), 2000);
    }

    #[test]
    fn a_buffer_named_twice_counts_once_and_in_place_reads_too() {
        let args = [
            Arg::Input(0),
            Arg::Input(0),
            Arg::Output(1),
            Arg::OutputAt(1, 8),
        ];
        assert_eq!(must_move_bytes(&case(), &args), 1000 + 48);
    }

    #[test]
    fn the_floor_is_the_bytes_at_the_copy_rate() {
        // 1 GB copied in 1 ms: 2 GB moved per ms.
        let mut floor = Floor::from_copy(1_000_000_000, 1.0);
        assert!((floor.bytes_per_second - 2e12).abs() < 1.0);
        floor.add("upper", 4_000_000_000);
        assert!((floor.apps[0].floor_ms - 2.0).abs() < 1e-9);
        assert_eq!(floor.times_floor("upper", 3.0), Some(1.5));
        assert_eq!(floor.times_floor("wc", 3.0), None);
        assert!(floor.text().contains("upper"), "{}", floor.text());
    }
}
