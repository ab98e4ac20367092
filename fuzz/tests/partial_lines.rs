//! Lines that go back to memory partly dirty (`sl1.writeback`'s groups,
//! words and bytes), on the CPU with `lli-22`: threads whose chunks end
//! inside lines write each line partly, the next thread the rest, so every
//! write-back of such a line must store exactly its own bytes. Runs of
//! bytes, every other byte and 2-byte elements, in lines from 8 to 128
//! bytes, padded and packed, each compared byte for byte with the plain
//! build.

use sl1_driver::build_ir::compile_text;
use sl1_fuzz::case::differences;
use sl1_fuzz::cpu::{run, CpuRun, Order};
use sl1_fuzz::launches::CaseRun;
use sl1_fuzz::modes::Mode;
use sl1_gpu::device::GridLaunch;

const KERNELS: [&str; 3] = ["bytes", "every_other", "halves"];

/// The test kernels built as `mode` builds.
fn built(mode: &Mode) -> String {
    let path = format!("{}/tests/data/partial_lines.ll", env!("CARGO_MANIFEST_DIR"));
    let ir = std::fs::read_to_string(&path).expect("the test kernels");
    compile_text(&ir, "partial_lines", &mode.args, true)
        .expect("the kernels build")
        .text
}

/// `in` and `out` after `kernel` ran with chunks of `chunk` elements of
/// `n`, 2 blocks of 64 threads; `out` starts with bytes no thread writes.
fn outputs(ir: &str, kernel: &str, (n, chunk): (u64, u64)) -> Vec<Vec<u8>> {
    let bytes = 2 * 128 * 64;
    let input: Vec<u8> = (0..bytes).map(|i| (i * 7 + i / 251) as u8).collect();
    let output: Vec<u8> = (0..bytes).map(|i| 0x80 ^ (i % 253) as u8).collect();
    let case = CaseRun {
        launches: vec![GridLaunch {
            kernel: kernel.to_string(),
            grid: (2, 1),
            block: (64, 1),
            dynamic_shared: 0,
        }],
        arg_offsets: vec![0, 0],
        scalars: vec![n, chunk],
    };
    run(
        &CpuRun {
            ir,
            case: &case,
            buffer_of_arg: &[0, 1],
            order: Order::Forward,
            shared_fill: 0xA5,
        },
        &[input, output],
    )
    .expect("lli-22 runs the kernel")
}

#[test]
fn partly_dirty_lines_write_back_only_their_own_bytes() {
    let plain = built(&Mode::plain());
    // Chunks that start at every offset of a line, and a grid that ends
    // inside the last thread's chunk.
    let shapes = [(128 * 37 - 5, 37), (128 * 45 - 3, 45), (128 * 13, 13)];
    for options in [
        "",
        "--no-line-padding",
        "--line-size 8",
        "--line-size 32",
        "--no-warp-copies --no-full-runs",
    ] {
        let sl1 = built(&Mode::new("partial_lines", options).expect("valid options"));
        assert!(
            sl1.contains("@sl1.lines.bytes") && sl1.contains("@sl1.lines.halves"),
            "{options:?}: S-L1 gives the kernels lines"
        );
        for kernel in KERNELS {
            for shape in shapes {
                let want = outputs(&plain, kernel, shape);
                let got = outputs(&sl1, kernel, shape);
                let (listed, count) = differences(&want, &got, 8);
                assert_eq!(
                    count, 0,
                    "{kernel} {shape:?} {options:?}: bytes differ (buffer, offset, plain, S-L1): {listed:?}"
                );
            }
        }
    }
}
