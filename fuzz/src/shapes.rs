//! Which seeds a run builds: all of them, or only those whose module has
//! the shapes a change is about, so that a device call spends its builds
//! on them (issue 56's aliasing shapes are a fifth of the seeds). A seed
//! left out is counted as skipped and as done for `--seeds` resumption.

use clap::ValueEnum;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Shapes {
    /// Every seed.
    #[default]
    All,
    /// Seeds with a broadcast read beside an argument without noalias, or
    /// with a twin shifted into the next thread's elements
    /// (`sl1_kernelgen::KernelSpec::has_alias_shapes`).
    Alias,
    /// Seeds with a loop that only counts bytes
    /// (`sl1_kernelgen::KernelSpec::has_byte_counts`).
    Counts,
    /// Seeds with a loop mapping bytes to bytes, `upper`'s shape
    /// (`sl1_kernelgen::KernelSpec::has_byte_maps`).
    Maps,
    /// Seeds with arguments loaded and stored atomically
    /// (`sl1_kernelgen::KernelSpec::has_atomic_accesses`).
    Atomics,
}

impl Shapes {
    /// The name `--shapes` takes.
    pub fn name(self) -> &'static str {
        match self {
            Shapes::All => "all",
            Shapes::Alias => "alias",
            Shapes::Counts => "counts",
            Shapes::Maps => "maps",
            Shapes::Atomics => "atomics",
        }
    }

    /// Whether a run with these shapes builds `seed`. A seed whose
    /// generation panics is built, so that the build reports the panic.
    pub fn admits(self, seed: u64) -> bool {
        match self {
            Shapes::All => true,
            Shapes::Alias => Self::generated_has(seed, |k| k.spec.has_alias_shapes()),
            Shapes::Counts => Self::generated_has(seed, |k| k.spec.has_byte_counts()),
            Shapes::Maps => Self::generated_has(seed, |k| k.spec.has_byte_maps()),
            Shapes::Atomics => Self::generated_has(seed, |k| k.spec.has_atomic_accesses()),
        }
    }

    fn generated_has(seed: u64, has: impl Fn(&sl1_kernelgen::Kernel) -> bool) -> bool {
        std::panic::catch_unwind(|| sl1_kernelgen::generate(seed)).map_or(true, |k| has(&k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alias_admits_exactly_the_modules_with_the_shapes() {
        let seeds = 720_000..720_200;
        let admitted: Vec<u64> = seeds.clone().filter(|&s| Shapes::Alias.admits(s)).collect();
        let expected: Vec<u64> = seeds
            .clone()
            .filter(|&s| sl1_kernelgen::generate(s).spec.has_alias_shapes())
            .collect();
        assert_eq!(admitted, expected);
        assert!(!admitted.is_empty() && admitted.len() < seeds.clone().count());
        assert!(seeds.clone().all(|s| Shapes::All.admits(s)));
    }

    /// The seeds of 0..400 `shapes` admits, which must be those `has`
    /// finds, some and not all.
    fn admits_exactly(shapes: Shapes, has: impl Fn(&sl1_kernelgen::KernelSpec) -> bool) {
        let seeds = 0..400;
        let admitted: Vec<u64> = seeds.clone().filter(|&s| shapes.admits(s)).collect();
        let expected: Vec<u64> = seeds
            .clone()
            .filter(|&s| has(&sl1_kernelgen::generate(s).spec))
            .collect();
        assert_eq!(admitted, expected);
        assert!(!admitted.is_empty() && admitted.len() < seeds.count());
    }

    #[test]
    fn counts_admit_exactly_the_modules_with_a_byte_count_loop() {
        admits_exactly(Shapes::Counts, |s| s.has_byte_counts());
    }

    #[test]
    fn maps_admit_exactly_the_modules_with_a_byte_map() {
        admits_exactly(Shapes::Maps, |s| s.has_byte_maps());
    }

    #[test]
    fn atomics_admit_exactly_the_modules_with_atomic_loads_and_stores() {
        admits_exactly(Shapes::Atomics, |s| s.has_atomic_accesses());
    }
}
