//! Launch-sized line buffers (`Options::launch_sized`): the buffer lives in
//! dynamic shared memory, each launch gives it what its block needs, and the
//! kernel caches for as many threads as the launch gave lines for. A static
//! buffer for 1024 threads cost blocks of a few threads most of an SM's
//! blocks (HeCBench `p4`: blocks of 6 threads, 20 KiB a block, 0.84x of the
//! build without S-L1 on the H100).

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::Command;

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::transform::LaunchBytes;
use sl1_pass::{launch, Options};

fn launch_sized() -> Options {
    Options {
        launch_sized: true,
        ..Options::default()
    }
}

#[test]
fn the_buffer_is_dynamic_shared_memory_and_the_report_gives_its_bytes() {
    let t = common::transform_case("two_loops", &launch_sized());
    let k = t.kernel("two_loops");
    assert!(k.applied, "{k:?}");
    // Two structures, lines of up to 32 B and 4 B of padding each: 72 B a
    // thread; at most what the static buffer for 1024 threads would be.
    assert_eq!(
        k.launch_bytes,
        Some(LaunchBytes {
            per_thread: 72,
            most: k.shared_bytes
        }),
        "{k:?}"
    );
    let text = t.text("two_loops");
    assert!(
        text.contains("@llvm.nvvm.read.ptx.sreg.dynamic_smem_size()"),
        "{text}"
    );
    assert!(text.contains("@sl1_lines_two_loops"), "{text}");
    assert!(!text.contains("@sl1.lines.two_loops"), "{text}");
}

#[test]
fn a_static_buffer_reads_no_launch_size() {
    let t = common::transform_case("two_loops", &Options::default());
    let k = t.kernel("two_loops");
    assert!(k.applied, "{k:?}");
    assert_eq!(k.launch_bytes, None);
    let text = t.text("two_loops");
    assert!(!text.contains("dynamic_smem_size"), "{text}");
    assert!(text.contains("@sl1.lines.two_loops"), "{text}");
}

#[test]
fn a_kernel_with_dynamic_shared_memory_of_its_own_keeps_a_static_buffer() {
    let options = Options {
        dynamic_shared: Some(1024),
        ..launch_sized()
    };
    let t = common::transform_case("dynamic_shared", &options);
    let k = t.kernel("dynamic_shared");
    assert!(k.applied, "{k:?}");
    assert_eq!(k.launch_bytes, None, "{k:?}");
    assert!(!t.text("dynamic_shared").contains("dynamic_smem_size"));
}

#[test]
fn a_block_needs_its_threads_lines_up_to_the_static_size() {
    let b = LaunchBytes {
        per_thread: 68,
        most: 20480,
    };
    assert_eq!(b.for_block(6), 408);
    assert_eq!(b.for_block(1024), 20480);
}

/// `testdata/host/launches.ll` after `launch::size_launches`, run by lli:
/// the dynamic shared bytes each launch gives, one per line.
fn run_host(bytes: &BTreeMap<String, LaunchBytes>) -> (Vec<u64>, launch::SizedLaunches) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/host/launches.ll");
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_file(&path).unwrap())
        .unwrap();
    let done = launch::size_launches(&module, bytes);
    module.verify().unwrap();
    let text = module.print_to_string().to_string();
    let mut child = Command::new("lli-22")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("lli-22 runs (package llvm-22-runtime, which ci/setup installs)");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "lli-22 failed: {}\n{text}",
        String::from_utf8_lossy(&out.stderr)
    );
    let given = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    (given, done)
}

#[test]
fn launches_of_a_launch_sized_kernel_give_its_lines() {
    let bytes = BTreeMap::from([(
        "_Z5sizedv".to_string(),
        LaunchBytes {
            per_thread: 68,
            most: 20480,
        },
    )]);
    let (given, done) = run_host(&bytes);
    // 6 threads: 408 B; 1024: the most; a launch that gave 50000 B keeps
    // them (the kernel has no dynamic shared memory of its own); 24 threads
    // and 100 B given: 1632 B; `plain` as it was.
    assert_eq!(given, [408, 20480, 50000, 1632, 0]);
    assert_eq!(done.sized.get("_Z5sizedv"), Some(&1), "{done:?}");
    assert!(done.skipped.is_empty(), "{done:?}");
}

#[test]
fn without_launch_sized_kernels_the_host_module_is_unchanged() {
    let (given, done) = run_host(&BTreeMap::new());
    assert_eq!(given, [0, 0, 50000, 100, 0]);
    assert!(done.sized.is_empty());
}
