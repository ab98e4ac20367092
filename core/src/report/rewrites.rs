//! What the device rewrites report of a module: a count per rewrite
//! (`Rewrite`, `RewriteCounts`) and the loops merged or kept nested.

use serde::{Deserialize, Serialize};

/// A device rewrite that counts what it changed in a module. Its count's
/// key in the report (`key`) is the name the report has always given it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rewrite {
    /// Loops given a copy, behind run-time checks that the ranges their
    /// pointers touch are apart, in which they do not alias.
    AliasChecks,
    /// Loads of what the loop's previous iteration stored, now taking the
    /// stored value from a register.
    ForwardedStores,
    /// Switches that only chose values, now compares and selects.
    SwitchSelects,
    /// Inner loops whose start moves with the enclosing loop, now counted
    /// from zero to a trip count computed before them.
    CountedTrips,
    /// Grid-stride loops (a step known at run time only) given an unroll
    /// count of 4, as nvcc unrolls them.
    UnrolledStrides,
    /// Divisions and remainders frozen for the loops nested below them.
    FrozenDivisions,
    /// Counts of a test on the four bytes of a word, made one test of the
    /// word and one count instead of four.
    ByteLaneCounts,
    /// Operations on vectors of bytes done on the 32-bit words holding them.
    ByteWords,
    /// Range checks on 8- and 16-bit integers made in 32 bits.
    WidenedRangeChecks,
    /// Wide sums whose narrow addends are added in 32 bits first.
    NarrowSums,
    /// `atomicCAS` (a sequentially consistent `cmpxchg` of system scope in
    /// clang) made relaxed of device scope, as nvcc compiles it.
    RelaxedCas,
    /// Atomic adds to an address the same for a whole warp, made once per
    /// warp with the sum of its threads' values.
    WarpAtomics,
    /// Loads moved ahead of stores before them in their block that LLVM
    /// knows they cannot touch (scopes, `noalias` arguments).
    LoadsFirst,
    /// Unrolled loops given a copy that reads adjacent elements 16 bytes at
    /// a time, entered when the first address is aligned.
    VectorLoads,
    /// Loops whose loads wait for stores through another pointer, kept as
    /// LLVM unrolled them (`.pragma "nounroll"` for ptxas).
    KeptRolled,
    /// Inner loops reading one array at three or more run-time distances,
    /// whose addresses stay index arithmetic (no pointer induction
    /// variable per distance).
    IndexedAddresses,
    /// Loops whose exit block now follows their latch in the block order,
    /// so that they end in a branch back, as nvcc's do (which ptxas
    /// unrolls).
    ExitsAfterLatches,
}

impl Rewrite {
    /// Every rewrite, in the report's order.
    pub const ALL: [Rewrite; 17] = [
        Rewrite::AliasChecks,
        Rewrite::ForwardedStores,
        Rewrite::SwitchSelects,
        Rewrite::CountedTrips,
        Rewrite::UnrolledStrides,
        Rewrite::FrozenDivisions,
        Rewrite::ByteLaneCounts,
        Rewrite::ByteWords,
        Rewrite::WidenedRangeChecks,
        Rewrite::NarrowSums,
        Rewrite::RelaxedCas,
        Rewrite::WarpAtomics,
        Rewrite::LoadsFirst,
        Rewrite::VectorLoads,
        Rewrite::KeptRolled,
        Rewrite::IndexedAddresses,
        Rewrite::ExitsAfterLatches,
    ];

    /// The key of its count in the report's JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Rewrite::AliasChecks => "alias_checked_loops",
            Rewrite::ForwardedStores => "forwarded_stores",
            Rewrite::SwitchSelects => "selected_switches",
            Rewrite::CountedTrips => "counted_trips",
            Rewrite::UnrolledStrides => "unrolled_strided_loops",
            Rewrite::FrozenDivisions => "frozen_divisions",
            Rewrite::ByteLaneCounts => "byte_lane_counts",
            Rewrite::ByteWords => "byte_words",
            Rewrite::WidenedRangeChecks => "widened_range_checks",
            Rewrite::NarrowSums => "narrowed_sums",
            Rewrite::RelaxedCas => "relaxed_cas",
            Rewrite::WarpAtomics => "warp_atomics",
            Rewrite::LoadsFirst => "loads_first",
            Rewrite::VectorLoads => "vector_loads",
            Rewrite::KeptRolled => "kept_rolled",
            Rewrite::IndexedAddresses => "indexed_addresses",
            Rewrite::ExitsAfterLatches => "exits_after_latches",
        }
    }

    /// The rewrite whose count `key` names.
    pub fn from_key(key: &str) -> Option<Rewrite> {
        Rewrite::ALL.into_iter().find(|r| r.key() == key)
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// How many places each device rewrite changed. In the report's JSON each
/// rewrite's count is a key of its own (`Rewrite::key`), zeros too, in
/// `Rewrite::ALL`'s order; a count a report lacks reads as 0.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RewriteCounts([usize; Rewrite::ALL.len()]);

impl RewriteCounts {
    /// Adds `other`'s counts to these.
    pub fn absorb(&mut self, other: &RewriteCounts) {
        for r in Rewrite::ALL {
            self[r] += other[r];
        }
    }

    /// Every count, added.
    pub fn total(&self) -> usize {
        self.0.iter().sum()
    }
}

impl std::ops::Index<Rewrite> for RewriteCounts {
    type Output = usize;
    fn index(&self, rewrite: Rewrite) -> &usize {
        &self.0[rewrite.index()]
    }
}

impl std::ops::IndexMut<Rewrite> for RewriteCounts {
    fn index_mut(&mut self, rewrite: Rewrite) -> &mut usize {
        &mut self.0[rewrite.index()]
    }
}

impl Serialize for RewriteCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(Rewrite::ALL.len()))?;
        for r in Rewrite::ALL {
            map.serialize_entry(r.key(), &self[r])?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for RewriteCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Counts;
        impl<'de> serde::de::Visitor<'de> for Counts {
            type Value = RewriteCounts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("the device rewrites' counts")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<RewriteCounts, A::Error> {
                let mut counts = RewriteCounts::default();
                while let Some(key) = map.next_key::<String>()? {
                    match Rewrite::from_key(&key) {
                        Some(r) => counts[r] = map.next_value()?,
                        None => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(counts)
            }
        }
        deserializer.deserialize_map(Counts)
    }
}

/// What the device rewrites changed in a module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewriteReport {
    /// How many places each rewrite changed.
    #[serde(flatten)]
    pub counts: RewriteCounts,
    /// Top-level loops merged with the inner loops whose trip counts depend
    /// on loaded data.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_loops: Vec<MergedLoop>,
    /// Top-level loops with such inner loops kept nested, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept_nested: Vec<KeptLoop>,
}

impl RewriteReport {
    /// How many places `rewrite` changed.
    pub fn count(&self, rewrite: Rewrite) -> usize {
        self.counts[rewrite]
    }

    /// Adds what the rewrites did in another module (`other`) to this
    /// report: the counts added, the loops listed after these.
    pub fn absorb(&mut self, other: RewriteReport) {
        self.counts.absorb(&other.counts);
        self.merged_loops.extend(other.merged_loops);
        self.kept_nested.extend(other.kept_nested);
    }
}

/// One top-level loop merged with inner loops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedLoop {
    pub kernel: String,
    /// The top-level loop's header block.
    pub outer: String,
    /// Header blocks of the inner loops merged into it.
    pub inner: Vec<String>,
    /// Whether the loop's own iterations run in rounds: a thread back from
    /// its inner loops waits while others of its warp are still in theirs,
    /// so that the iterations that enter no inner loop (a search for the
    /// next line start) run for the whole warp at once.
    #[serde(default)]
    pub rounds: bool,
    /// Headers of the loops nested in the inner loops whose first
    /// iteration was taken out in front of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub peeled: Vec<String>,
}

/// A top-level loop kept nested although an inner loop's trip count depends
/// on loaded data, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptLoop {
    pub kernel: String,
    pub outer: String,
    pub reason: String,
    /// The merge was tried and failed (`NO_MERGING_HINT` skips it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

/// The option that skips loop merging.
pub const NO_MERGING_HINT: crate::option_list::Hint = crate::option_list::Hint {
    option: "no-loop-merging",
    value: None,
    effect: "skips it",
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_count_is_a_key_of_its_own_in_the_report_order() {
        let mut report = RewriteReport::default();
        report.counts[Rewrite::SwitchSelects] = 2;
        report.counts[Rewrite::VectorLoads] = 1;
        assert_eq!(
            serde_json::to_string(&report).unwrap(),
            "{\"alias_checked_loops\":0,\"forwarded_stores\":0,\"selected_switches\":2,\"counted_trips\":0,\"unrolled_strided_loops\":0,\"frozen_divisions\":0,\"byte_lane_counts\":0,\
             \"byte_words\":0,\"widened_range_checks\":0,\"narrowed_sums\":0,\
             \"relaxed_cas\":0,\"warp_atomics\":0,\"loads_first\":0,\"vector_loads\":1,\"kept_rolled\":0,\
             \"indexed_addresses\":0,\"exits_after_latches\":0}"
        );
        let back: RewriteReport =
            serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!(back, report);
    }

    #[test]
    fn missing_counts_read_as_zero_and_unknown_keys_are_skipped() {
        let report: RewriteReport = serde_json::from_str(
            r#"{"selected_switches": 3, "frozen_divisions": 1, "later_rewrite": 7,
                "merged_loops": [{"kernel": "k", "outer": "a", "inner": ["b"]}]}"#,
        )
        .unwrap();
        assert_eq!(report.count(Rewrite::SwitchSelects), 3);
        assert_eq!(report.count(Rewrite::FrozenDivisions), 1);
        assert_eq!(report.count(Rewrite::ByteWords), 0);
        assert_eq!(report.counts.total(), 4);
        assert_eq!(report.merged_loops.len(), 1);
    }

    #[test]
    fn absorbing_adds_counts_and_lists_loops() {
        let mut a = RewriteReport::default();
        a.counts[Rewrite::NarrowSums] = 2;
        let mut b = a.clone();
        b.counts[Rewrite::WarpAtomics] = 1;
        b.kept_nested.push(KeptLoop {
            kernel: "k".into(),
            outer: "l".into(),
            reason: "r".into(),
            failed: false,
        });
        a.absorb(b);
        assert_eq!(a.count(Rewrite::NarrowSums), 4);
        assert_eq!(a.count(Rewrite::WarpAtomics), 1);
        assert_eq!(a.kept_nested.len(), 1);
    }
}
