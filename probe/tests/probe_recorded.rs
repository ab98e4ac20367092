//! The probe's inference on a recorded run: every series of the full probe
//! on an H100 (`testdata/probe/h100-2026-11-23.json.gz`, the measurements of
//! `sl1-probe` on 2026-11-23, docs/probe.md) must give back what was read
//! off that run, so a change to the inference that loses one fails here.

use std::io::Read;
use std::path::Path;

use sl1_probe::data::{ChasePath, ProbeData, ThroughputTarget};
use sl1_probe::infer::{infer, Capacity};

fn recorded() -> ProbeData {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/probe/h100-2026-11-23.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    serde_json::from_value(value["data"].take()).unwrap()
}

#[test]
fn the_recorded_h100_run_gives_its_caches_back() {
    let data = recorded();
    assert_eq!(data.mode, "full");
    let inferred = infer(&data);
    let cache = |path| {
        inferred
            .caches
            .iter()
            .find(|c| c.path == path)
            .unwrap_or_else(|| panic!("no {path:?} in {inferred:#?}"))
    };
    for path in [ChasePath::L1, ChasePath::ReadOnly] {
        let c = cache(path);
        assert_eq!(c.hit_cycles.round(), 38.0, "{c:?}");
        assert_eq!(c.fill_bytes, Some(32), "{c:?}");
        // 16 KiB of recorded latencies and 1 KiB reserved per block leave
        // the next shared-memory carve-out step: about 217 KiB of L1.
        let Capacity::Exact(bytes) = c.capacity else {
            panic!("{c:?}")
        };
        assert!((200 * 1024..=232 * 1024).contains(&bytes), "{c:?}");
    }
    let l2 = cache(ChasePath::L2);
    assert_eq!(l2.hit_cycles.round(), 297.0, "{l2:?}");
    assert_eq!(l2.fill_bytes, Some(64), "{l2:?}");
    // One SM reaches its near half of the 50 MiB L2 at the hit latency.
    let Capacity::Exact(bytes) = l2.capacity else {
        panic!("{l2:?}")
    };
    assert!((20 << 20..=26 << 20).contains(&bytes), "{l2:?}");
    assert!(l2.levels.iter().any(|&l| l > 500.0), "{l2:?}");

    let shared = inferred.shared.as_ref().expect("shared memory inferred");
    assert_eq!(shared.latency_cycles.round(), 29.0, "{shared:?}");
    assert_eq!((shared.banks, shared.bank_bytes), (Some(32), Some(4)));

    let peak = |target, coalescing| {
        inferred
            .throughput
            .iter()
            .find(|t| t.target == target && t.coalescing == coalescing)
            .map(|t| t.peak_gbps)
            .unwrap_or_else(|| panic!("no {target:?} {coalescing}"))
    };
    assert!((2500.0..3400.0).contains(&peak(ThroughputTarget::Dram, 1)));
    assert!(peak(ThroughputTarget::L2, 1) > 2.0 * peak(ThroughputTarget::Dram, 1));
    assert!(peak(ThroughputTarget::Shared, 1) > 3.0 * peak(ThroughputTarget::L2, 1));
}
