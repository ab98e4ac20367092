//! The do-no-harm suite: small kernels of patterns CUDA programmers commonly
//! write and the ten apps do not cover (aliasing in-place updates, stencils,
//! indirect accesses, rows per thread, atomics, scans, element sizes from 1
//! to 16 bytes, short and long chunks, grid-stride loops, barriers in loops,
//! 2-D launches, and rows, columns, updates and sweeps of dense linear
//! algebra with and without `__restrict__` and with overlapping arguments). Each is an [`App`] whose kernel is
//! `testdata/harm/<name>/<name>.cu`, with deterministic inputs and a CPU
//! reference, so that `sl1-bench --suite harm` checks and times S-L1's build
//! of every one against the plain build: S-L1 should make none of them slower
//! or wrong.
//!
//! Inputs scale with the `bytes` a case is asked for: a kernel's buffers
//! (inputs and outputs) take about that much, less where a cap keeps a
//! matrix or an atomic-bound run reasonable. Results are exact: integer
//! arithmetic, or floats that hold small integers.

mod aliasing;
mod cases;
mod chunks;
mod elements;
mod grids;
mod indirect;
mod rows;

pub use aliasing::{InplaceScale, InplaceShift, Saxpy};
pub use chunks::{
    ChunkScan, CopyIf, GridStride, LongChunks, MergeBins, ReduceChunk, ShortChunks, SyncInLoop,
};
pub use elements::{Aos, BytesU8, DoublesF64, HalvesU16, Soa, U64Lcg, Vec16};
pub use grids::{ColSums, Matvec, Stencil2d, Stencil2dTiled, Stencil3, Stencil3d, Transpose};
pub use indirect::{CasAdd, Gather, Histogram, Lut, Scatter, SpmvCoo, SpmvCsr, SpmvEll};
pub use rows::{Layout, RowKernel, RowShape, ROW_KERNELS};

use crate::apps::App;

/// Every kernel of the suite.
pub fn all() -> Vec<&'static dyn App> {
    let mut kernels: Vec<&'static dyn App> = vec![
        &InplaceShift,
        &InplaceScale,
        &Saxpy,
        &Stencil3,
        &Stencil2d,
        &Stencil2dTiled,
        &Stencil3d,
        &Transpose,
        &Gather,
        &Scatter,
        &Lut,
        &Matvec,
        &SpmvCsr,
        &SpmvEll,
        &SpmvCoo,
        &ColSums,
        &Histogram,
        &CasAdd,
        &ChunkScan,
        &ReduceChunk,
        &CopyIf,
        &Aos,
        &Soa,
        &BytesU8,
        &HalvesU16,
        &DoublesF64,
        &U64Lcg,
        &Vec16,
        &ShortChunks,
        &LongChunks,
        &GridStride,
        &MergeBins,
        &SyncInLoop,
    ];
    kernels.extend(ROW_KERNELS.iter().map(|k| k as &dyn App));
    kernels
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::cases::elements;
    use super::*;
    use crate::apps::{check, check_args, le, Case, Fill};
    use crate::sweep::{configs, Config};

    fn harm_dir() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/harm")
    }

    #[test]
    fn the_suite_has_a_source_per_kernel_and_a_kernel_per_source() {
        assert!(all().len() >= 22);
        for app in all() {
            let name = app.name();
            assert_eq!(app.kernel(), name);
            let source = harm_dir().join(name).join(format!("{name}.cu"));
            let text = std::fs::read_to_string(&source)
                .unwrap_or_else(|e| panic!("{}: {e}", source.display()));
            assert!(
                text.contains(&format!("extern \"C\" __global__ void {name}(")),
                "{name}: no extern \"C\" kernel named after it"
            );
            assert!(
                text.starts_with(&format!("// {name} (")),
                "{name}: the source starts with a comment naming its pattern"
            );
        }
        let mut dirs: Vec<String> = std::fs::read_dir(harm_dir())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        dirs.sort();
        let mut names: Vec<String> = all().iter().map(|a| a.name().to_string()).collect();
        names.sort();
        assert_eq!(dirs, names, "testdata/harm and harm::all() differ");
    }

    fn flip_each_output(case: &Case, name: &str) {
        for (k, want) in case.expected.iter().enumerate() {
            for at in [0, want.len() / 2, want.len() - 1] {
                let mut got = case.expected.clone();
                got[k][at] ^= 0x10;
                let err = check(case, &got).expect_err(name);
                assert!(err.contains(&format!("first at {at}")), "{name}: {err}");
            }
        }
    }

    #[test]
    fn every_reference_passes_its_check_and_a_changed_byte_fails_it() {
        for app in all() {
            let name = app.name();
            for bytes in [4099, 100_003] {
                let case = app.case(bytes, 1);
                assert_eq!(case.outputs.len(), case.expected.len(), "{name}");
                for (o, want) in case.outputs.iter().zip(&case.expected) {
                    assert_eq!(o.bytes, want.len(), "{name}");
                }
                assert_eq!(check(&case, &case.expected), Ok(()), "{name}");
                flip_each_output(&case, name);
                // The kernel changes something: its expected outputs are not
                // what the buffers hold before the run.
                assert!(
                    case.outputs
                        .iter()
                        .zip(&case.expected)
                        .any(|(o, want)| o.initial(&case.inputs) != *want),
                    "{name}: the reference changes nothing"
                );
            }
        }
    }

    #[test]
    fn arguments_fit_the_buffers_at_every_configuration() {
        for app in all() {
            let case = app.case(100_003, 3);
            let sweep = configs(false).into_iter().chain([Config {
                blocks: 1,
                threads: 96,
            }]);
            for config in sweep {
                let args = app.args(&case, config.total_threads());
                assert_eq!(check_args(&case, &args), Ok(()), "{}", app.name());
                assert_eq!(
                    app.shape(config).total_threads(),
                    config.total_threads(),
                    "{}",
                    app.name()
                );
            }
        }
    }

    #[test]
    fn inputs_are_deterministic_and_about_the_budget() {
        let bytes = 1 << 20;
        for app in all() {
            let a = app.case(bytes, 5);
            assert_eq!(a.inputs, app.case(bytes, 5).inputs, "{}", app.name());
            let footprint: usize = a.inputs.iter().map(Vec::len).sum::<usize>()
                + a.outputs
                    .iter()
                    .filter(|o| matches!(o.fill, Fill::Byte(_)))
                    .map(|o| o.bytes)
                    .sum::<usize>();
            assert!(
                (bytes / 2..=bytes * 5 / 4).contains(&footprint),
                "{}: {footprint} bytes",
                app.name()
            );
        }
    }

    #[test]
    fn little_endian_values() {
        assert_eq!(le(&[1u16, 0x0203]), [1, 0, 3, 2]);
        assert_eq!(le(&[-1i64]), [0xff; 8]);
        assert_eq!(le(&[1.0f32]), [0, 0, 0x80, 0x3f]);
        assert_eq!(elements(10, 4), 2);
        assert_eq!(elements(3, 4), 1);
    }
}
