//! The vector loads' checks taken out of the loop around the checked loop
//! (`llvm/unswitch.cpp`), on the CPU with `lli-22`: kmeans's loop nest
//! (`tests/data/nearest.ll`), whose loop over a point's coordinates gets a
//! vector copy and a short-trip twin, checked once per point instead of once
//! per centre, and whose guards (no coordinates, fewer than 4, a remainder)
//! then leave the loop over centres too. Points aligned and not, none or
//! fewer coordinates than a vector, as few as a twin runs and more, and
//! counts that leave a remainder, each compared with the plain build.

use sl1_driver::build_ir::compile_text;
use sl1_fuzz::cpu::{run, CpuRun, Order};
use sl1_fuzz::launches::CaseRun;
use sl1_fuzz::modes::Mode;
use sl1_gpu::device::GridLaunch;

const CENTRES: u64 = 5;
const THREADS: u64 = 2 * 64;
const CHUNK: u64 = 3;

fn built(mode: &Mode) -> String {
    let path = format!("{}/tests/data/nearest.ll", env!("CARGO_MANIFEST_DIR"));
    let ir = std::fs::read_to_string(&path).expect("the test kernel");
    compile_text(&ir, "nearest", &mode.args, true)
        .expect("the kernel builds")
        .text
}

/// Each point's nearest centre, as `ir` computes it for points of `dims`
/// coordinates starting `skew` bytes into their buffer.
fn nearest(ir: &str, dims: u64, skew: u64) -> Vec<u8> {
    let n = THREADS * CHUNK;
    let values = |count: u64, seed: u64| -> Vec<u8> {
        (0..count)
            .flat_map(|i| (((i * 2654435761 + seed) >> 7) % 2001).to_le_bytes()[..4].to_vec())
            .collect()
    };
    let mut points = vec![0u8; skew as usize];
    points.extend(values(n * dims, 17));
    let centres = values(CENTRES * dims, 91);
    let out = vec![0xEEu8; 4 * n as usize];
    let case = CaseRun {
        launches: vec![GridLaunch {
            kernel: "nearest".to_string(),
            grid: (2, 1),
            block: (64, 1),
            dynamic_shared: (4 * CENTRES * dims) as u32,
        }],
        arg_offsets: vec![skew, 0, 0],
        scalars: vec![n, CHUNK, CENTRES, dims],
    };
    let buffers = run(
        &CpuRun {
            ir,
            case: &case,
            buffer_of_arg: &[0, 1, 2],
            order: Order::Forward,
            shared_fill: 0xA5,
        },
        &[points, centres, out],
    )
    .expect("lli-22 runs the kernel");
    buffers[2].clone()
}

#[test]
fn the_loop_copied_for_its_checks_computes_what_the_plain_build_does() {
    let plain = built(&Mode::plain());
    let tuned = built(&Mode::new("nearest", "").expect("valid options"));
    assert!(
        tuned.contains(".unswitched") && tuned.contains("load <4 x i32>"),
        "the loop over centres is copied for the vector loads' checks"
    );
    for dims in [0, 1, 3, 4, 5, 8, 12, 16, 20, 6] {
        for skew in [0, 4, 8] {
            let want = nearest(&plain, dims, skew);
            let got = nearest(&tuned, dims, skew);
            assert_ne!(want, vec![0xEE; want.len()], "the kernel writes its output");
            assert_eq!(want, got, "{dims} coordinates, points {skew} bytes in");
        }
    }
}
