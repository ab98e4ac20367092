//! The probe's summary for people: latencies in cycles and nanoseconds,
//! inferred sizes, throughput peaks, and S-L1's parameters with why.

use std::fmt::Write;

use super::profile::Profile;
use super::units::size;

/// Nanoseconds of `cycles` at `clock_khz` (None without a clock).
fn ns(cycles: f64, clock_khz: u32) -> Option<f64> {
    (clock_khz > 0).then(|| cycles * 1e6 / f64::from(clock_khz))
}

fn latency(cycles: f64, clock_khz: u32) -> String {
    match ns(cycles, clock_khz) {
        Some(ns) => format!("{cycles:.0} cycles ({ns:.1} ns)"),
        None => format!("{cycles:.0} cycles"),
    }
}

fn or_unknown(v: Option<String>) -> String {
    v.unwrap_or_else(|| "not inferred".into())
}

pub fn text(profile: &Profile) -> String {
    let d = &profile.device;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} (sm_{}{}), {} SMs at {} MHz, L2 {}, shared memory {} per SM, {} per block ({} opt-in); {} run",
        d.name,
        d.compute_capability.0,
        d.compute_capability.1,
        d.sm_count,
        d.clock_khz / 1000,
        size(d.l2_bytes),
        size(d.shared_per_sm),
        size(d.shared_per_block),
        size(d.shared_per_block_optin),
        profile.data.mode
    );
    for c in &profile.inferred.caches {
        let levels: Vec<String> = c.levels.iter().map(|l| format!("{l:.0}")).collect();
        let _ = writeln!(out, "{}:", c.path.label());
        let _ = writeln!(
            out,
            "  hit latency {}; latency levels seen: {} cycles",
            latency(c.hit_cycles, d.clock_khz),
            levels.join(", ")
        );
        let _ = writeln!(
            out,
            "  capacity {}; fill unit {}; line {}; {}; replacement {}",
            c.capacity.describe(),
            or_unknown(c.fill_bytes.map(size)),
            or_unknown(c.line_bytes.map(size)),
            match (c.ways, c.sets) {
                (Some(w), Some(s)) => format!("{w} ways x {s} sets"),
                _ => "associativity not inferred".into(),
            },
            match c.lru {
                Some(true) => "LRU (periodic misses)",
                Some(false) => "not LRU (aperiodic misses)",
                None => "not inferred",
            }
        );
    }
    if let Some(s) = &profile.inferred.shared {
        let _ = writeln!(
            out,
            "shared memory: latency {}; {} banks of {}",
            latency(s.latency_cycles, d.clock_khz),
            or_unknown(s.banks.map(|b| b.to_string())),
            or_unknown(s.bank_bytes.map(|b| format!("{b} B")))
        );
        let worst = s.conflict_ways.iter().max_by(|a, b| a.2.total_cmp(&b.2));
        if let Some((word, stride, slowdown)) = worst {
            let _ = writeln!(
                out,
                "  worst stride: {stride} words of {word} B, {slowdown:.1}x the conflict-free latency"
            );
        }
    }
    for t in &profile.inferred.throughput {
        let _ = writeln!(
            out,
            "{} throughput ({}-way coalesced): peak {:.0} GB/s at {}x{}{}",
            t.target.label(),
            t.coalescing,
            t.peak_gbps,
            t.peak_blocks,
            t.peak_threads,
            match t.saturating_threads {
                Some(n) => format!("; 90% of it from {n} threads per block"),
                None => String::new(),
            }
        );
    }
    let p = &profile.sl1;
    let _ = writeln!(
        out,
        "S-L1: lines {}-{} B, shared-memory budget {}",
        p.line_size,
        p.max_line_size,
        size(p.shared_budget_bytes)
    );
    for why in &p.why {
        let _ = writeln!(out, "  {why}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_latencies_read_well() {
        assert_eq!(size(256 * 1024), "256 KiB");
        assert_eq!(size(50 * 1024 * 1024), "50 MiB");
        assert_eq!(size(32), "32 B");
        assert_eq!(size(48 * 1024 + 512), "48.5 KiB");
        assert_eq!(latency(33.0, 1_980_000), "33 cycles (16.7 ns)");
        assert_eq!(latency(33.0, 0), "33 cycles");
    }
}
