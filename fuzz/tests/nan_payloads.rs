//! The two H100 "miscompiles" of issue 22 (2026-11-24), replayed on the CPU
//! with `lli-22`: both were NaN payloads. LLVM leaves the sign and payload
//! of a float operation's NaN result unspecified (and may fold `fadd x,
//! 0.0` to `x`, leaving an sNaN unquieted), so two correct builds of one
//! kernel can give different NaN bits; the generated kernels then turned
//! those bits into any value with bit operations. Now every float result
//! of a generated kernel goes through the one quiet NaN
//! (`kernelgen`'s `canonical_nan`), and these fail on the old generator.

use sl1_driver::build_ir::compile_text;
use sl1_fuzz::case::{case, differences};
use sl1_fuzz::cpu::{run, CpuRun, Order};
use sl1_fuzz::launches::case_run;
use sl1_fuzz::modes::Mode;
use sl1_kernelgen::{to_ir, KernelSpec};

/// The kernel the generator drew for `seed` when the H100 run found it
/// (the generator has drawn more features since), kept as its spec.
fn spec(seed: u64) -> KernelSpec {
    let path = format!("{}/tests/data/k{seed}.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("the seed's spec");
    let spec: KernelSpec = serde_json::from_str(&text).expect("a kernel spec");
    spec.validate().expect("a valid spec");
    spec
}

/// The optimised IR of `seed`'s kernel built with `options` (as a line of
/// `modes.txt` gives them).
fn built(seed: u64, options: &str) -> String {
    let mode = Mode::new(&format!("k{seed}"), options).expect("valid options");
    let ir = to_ir(&spec(seed));
    compile_text(&ir, &format!("k{seed}"), &mode.args, true)
        .expect("the kernel builds")
        .text
}

/// Every buffer after running `ir` (the kernel of `seed`) on the seed's
/// case, one thread after another.
fn outputs(seed: u64, ir: &str) -> Vec<Vec<u8>> {
    let spec = spec(seed);
    let c = case(&spec, seed);
    let case = case_run(&c, &spec);
    run(
        &CpuRun {
            ir,
            case: &case,
            buffer_of_arg: &c.buffer_of_arg,
            order: Order::Forward,
            shared_fill: 0xA5,
        },
        &c.buffers,
    )
    .expect("lli-22 runs the kernel")
}

const PLAIN: &str = sl1_fuzz::modes::PLAIN_OPTIONS;

/// `ir` with the operands of every two-operand `fadd` and `fmul` swapped:
/// what LLVM may do to any of them, and did in seed 101708's S-L1 build.
fn commuted(ir: &str) -> String {
    ir.lines()
        .map(|line| {
            for op in ["fadd double ", "fmul double ", "fadd float ", "fmul float "] {
                if let Some(at) = line.find(op) {
                    let (head, operands) = line.split_at(at + op.len());
                    if let Some((a, b)) = operands.split_once(", ") {
                        if !b.contains(',') {
                            return format!("{head}{b}, {a}");
                        }
                    }
                }
            }
            line.to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn seed_101708_gives_the_same_bytes_with_float_operands_commuted() {
    // Paper mode on the H100 wrote 56 other bytes into buffer 1 from byte
    // 39824; the plain build with its float operands commuted writes the
    // same bytes on the CPU (154 bytes differed with the old generator).
    let plain = built(101708, PLAIN);
    assert!(plain.contains("fadd double"), "the kernel adds doubles");
    let swapped = commuted(&plain);
    assert_ne!(swapped, plain, "some operands were swapped");
    let (listed, count) = differences(&outputs(101708, &plain), &outputs(101708, &swapped), 8);
    assert_eq!(count, 0, "NaN payloads reach the outputs: {listed:?}");
}

#[test]
fn seed_101540_gives_the_plain_bytes_with_threshold_1_and_8_byte_lines() {
    // `--threshold 1 --no-static-prediction --line-size 8` on the H100 wrote
    // 6 other bytes into buffer 0 from byte 24604, and so did its CPU run
    // with the old generator (warp copies, whose lanes exchange lines, are
    // off: one thread runs at a time here; so is the loop merge, which takes
    // its main loop, whose inner loop's trip count depends on loaded data).
    let plain = built(101540, PLAIN);
    let sl1 = built(
        101540,
        "--threshold 1 --no-static-prediction --line-size 8 --no-warp-copies --no-loop-merging",
    );
    assert!(sl1.contains("sl1.lines"), "S-L1 transformed the kernel");
    let (listed, count) = differences(&outputs(101540, &plain), &outputs(101540, &sl1), 8);
    assert_eq!(count, 0, "the builds differ: {listed:?}");
}
