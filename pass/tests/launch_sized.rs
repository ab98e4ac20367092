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
use sl1_core::carveout::{carveout_preference, CarveoutInputs, DRIVER_SPLIT};
use sl1_pass::launch::HostKernel;
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
/// what its stand-ins for the CUDA runtime printed, one line per call
/// (`shared N`: a launch's dynamic shared bytes; `carveout P`: a carveout
/// set).
fn run_host(kernels: &BTreeMap<String, HostKernel>) -> (Vec<String>, launch::SizedLaunches) {
    run_host_text(&host_module(), kernels)
}

fn host_module() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/host/launches.ll");
    std::fs::read_to_string(path).unwrap()
}

fn run_host_text(
    ir: &str,
    kernels: &BTreeMap<String, HostKernel>,
) -> (Vec<String>, launch::SizedLaunches) {
    let context = Context::create();
    let module = context
        .create_module_from_ir(MemoryBuffer::create_from_memory_range_copy(
            ir.as_bytes(),
            "launches.ll",
        ))
        .unwrap();
    let done = launch::size_launches(&module, kernels);
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
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    (lines, done)
}

/// The numbers of the lines that start with `what`.
fn printed(lines: &[String], what: &str) -> Vec<i64> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix(what))
        .map(|n| n.trim().parse().unwrap())
        .collect()
}

fn sized(static_bytes: u64) -> BTreeMap<String, HostKernel> {
    BTreeMap::from([(
        "_Z5sizedv".to_string(),
        HostKernel {
            sized: Some(LaunchBytes {
                per_thread: 68,
                most: 20480,
            }),
            static_bytes,
        },
    )])
}

#[test]
fn launches_of_a_launch_sized_kernel_give_its_lines() {
    let (lines, done) = run_host(&sized(0));
    // 6 threads: 408 B; 1024: the most; a launch that gave 50000 B keeps
    // them (the kernel has no dynamic shared memory of its own); 24 threads
    // and 100 B given: 1632 B; 128 threads: 8704 B (twice); `plain` as it
    // was.
    assert_eq!(
        printed(&lines, "shared"),
        [408, 20480, 50000, 1632, 8704, 8704, 0]
    );
    // One launch call (in the stub).
    assert_eq!(done.sized.get("_Z5sizedv"), Some(&1), "{done:?}");
    assert!(done.skipped.is_empty(), "{done:?}");
}

/// The carveout `sl1_core::carveout` gives a launch of `grid_blocks` blocks
/// of `threads` with `dynamic` bytes, on the stand-in H100 of launches.ll.
fn expected_carveout(grid_blocks: u64, threads: u64, dynamic: u64, static_bytes: u64) -> i64 {
    i64::from(carveout_preference(CarveoutInputs {
        grid_blocks,
        sms: 132,
        most_resident: (2048 / threads).min(32),
        block_bytes: dynamic + static_bytes,
        shared_per_sm: 233_472,
    }))
}

#[test]
fn launches_of_a_kernel_with_lines_ask_for_the_carveout_of_their_resident_blocks() {
    for static_bytes in [0, 40_000] {
        let (lines, done) = run_host(&sized(static_bytes));
        let carveouts = printed(&lines, "carveout");
        // Each launch first clears the preference (for the occupancy
        // query), then sets its own, before it launches.
        let asked: Vec<i64> = carveouts
            .chunks(2)
            .map(|c| {
                assert_eq!(c[0], -1, "{lines:?}");
                c[1]
            })
            .collect();
        let launches = [
            (2, 6, 408),
            (2, 1024, 20480),
            (2, 6, 50000),
            (2, 24, 1632),
            (528, 128, 8704),
            (264_000, 128, 8704),
        ];
        let expected: Vec<i64> = launches
            .iter()
            .map(|&(grid, threads, dynamic)| {
                expected_carveout(grid, threads, dynamic, static_bytes)
            })
            .collect();
        assert_eq!(asked, expected, "{lines:?}");
        // 4 blocks an SM of the 16 that fit ask for 4 blocks' shared
        // memory; a grid that fills every slot leaves the driver's split.
        assert!(expected[4] > 0, "{expected:?}");
        assert_eq!(expected[5], i64::from(DRIVER_SPLIT), "{expected:?}");
        assert_eq!(done.carveouts.get("_Z5sizedv"), Some(&1), "{done:?}");
        assert!(
            lines.iter().position(|l| l.starts_with("carveout"))
                < lines.iter().position(|l| l.starts_with("shared")),
            "{lines:?}"
        );
    }
}

#[test]
fn a_static_buffer_asks_for_carveouts_and_keeps_its_launches_bytes() {
    let kernels = BTreeMap::from([(
        "_Z5sizedv".to_string(),
        HostKernel {
            sized: None,
            static_bytes: 49152,
        },
    )]);
    let (lines, done) = run_host(&kernels);
    assert_eq!(printed(&lines, "shared"), [0, 0, 50000, 100, 0, 0, 0]);
    assert_eq!(printed(&lines, "carveout").len(), 12, "{lines:?}");
    assert!(done.sized.is_empty(), "{done:?}");
    assert_eq!(done.carveouts.get("_Z5sizedv"), Some(&1), "{done:?}");
}

#[test]
fn without_kernels_with_lines_the_host_module_is_unchanged() {
    let (lines, done) = run_host(&BTreeMap::new());
    assert_eq!(printed(&lines, "shared"), [0, 0, 50000, 100, 0, 0, 0]);
    assert!(printed(&lines, "carveout").is_empty());
    assert!(done.sized.is_empty() && done.carveouts.is_empty());
}

#[test]
fn a_program_that_sets_carveouts_keeps_them() {
    let ir = host_module().replace(
        "  call void @__cuda_register_globals(ptr null)\n",
        "  call void @__cuda_register_globals(ptr null)\n  \
         %set = call i32 @cudaFuncSetAttribute(ptr @_Z20__device_stub__sizedv, i32 9, i32 50)\n",
    );
    let (lines, done) = run_host_text(&ir, &sized(0));
    assert_eq!(printed(&lines, "carveout"), [50], "{lines:?}");
    assert_eq!(
        printed(&lines, "shared"),
        [408, 20480, 50000, 1632, 8704, 8704, 0]
    );
    assert!(done.carveouts.is_empty(), "{done:?}");
    assert!(
        done.skipped[0].contains("sets carveouts itself"),
        "{done:?}"
    );
}

#[test]
fn a_launch_of_the_kernels_last_shape_asks_nothing_more() {
    let last =
        "  call void @_Z20__device_stub__sizedv(i64 4295231296, i64 4294967424, i32 1, i64 0)\n";
    let module = host_module();
    assert!(module.contains(last));
    let ir = module.replace(last, &last.repeat(3));
    let (lines, _) = run_host_text(&ir, &sized(0));
    assert_eq!(
        printed(&lines, "shared"),
        [408, 20480, 50000, 1632, 8704, 8704, 8704, 8704, 0]
    );
    // Six shapes, each asked for once (twice: the default first).
    assert_eq!(printed(&lines, "carveout").len(), 12, "{lines:?}");
}

#[test]
fn a_launch_in_a_function_that_destroys_objects_is_sized_too() {
    // clang inlines the stub into a function that owns C++ objects (a
    // `std::vector` around the launch): the launch is an `invoke`, whose
    // unwind edge runs the destructors. Such launches gave the kernel no
    // lines (every held-out C++ program, H200, 2026-11-28).
    let plain = "  call void @_Z20__device_stub__plainv(i64 4294967302, i32 1, i64 0)\n";
    let module = host_module();
    assert!(module.contains(plain));
    let mut ir = module.replace(plain, &format!("{plain}  call void @with_vector()\n"));
    ir.push_str(
        "\ndeclare i32 @__gxx_personality_v0(...)\n\n\
         define void @with_vector() personality ptr @__gxx_personality_v0 {\n\
         entry:\n  \
         %r = invoke i32 @cudaLaunchKernel(ptr @_Z20__device_stub__sizedv, i64 4294967298, \
         i32 1, i64 4294967360, i32 1, ptr null, i64 0, ptr null)\n          \
         to label %done unwind label %cleanup\n\
         done:\n  ret void\n\
         cleanup:\n  %lp = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %lp\n}\n",
    );
    let (lines, done) = run_host_text(&ir, &sized(0));
    // sized<<<2, 64>>> from `with_vector`: 64 threads' lines, 4352 B.
    assert_eq!(
        printed(&lines, "shared"),
        [408, 20480, 50000, 1632, 8704, 8704, 0, 4352]
    );
    assert_eq!(done.sized.get("_Z5sizedv"), Some(&2), "{done:?}");
    assert_eq!(done.carveouts.get("_Z5sizedv"), Some(&2), "{done:?}");
}

/// A module with kernels with lines registers its sizer, with their
/// handles and names, with the S-L1 runtime when the program starts (a
/// stand-in here, which sizes `sized<<<2, 6>>>` through it and launches
/// through a pointer); a launch through a handle known only at run time is
/// sized too. Launches from another file, `cudaLaunchKernelEx` and
/// cooperative launches reach the sizer through the runtime's wrappers
/// (`driver/runtime/launches.c`); before, they gave the kernel nothing.
#[test]
fn the_sizer_is_registered_and_serves_launches_through_pointers() {
    let mut ir = host_module();
    ir.push_str(
        r#"
@registered = private unnamed_addr constant [19 x i8] c"registered %ld %s\0A\00"

define void @sl1_register_launch_sizer(ptr %sizer, ptr %kernels, i64 %count) {
  %handle = load ptr, ptr %kernels
  %name.at = getelementptr inbounds { ptr, ptr }, ptr %kernels, i64 0, i32 1
  %name = load ptr, ptr %name.at
  %bytes = call i64 %sizer(ptr %handle, i64 4294967298, i32 1, i64 4294967302, i32 1, i64 0)
  %p = call i32 (ptr, ...) @printf(ptr @registered, i64 %bytes, ptr %name)
  %other = call i64 %sizer(ptr null, i64 4294967298, i32 1, i64 4294967302, i32 1, i64 0)
  %q = call i32 (ptr, ...) @printf(ptr @registered, i64 %other, ptr %name)
  call void @through_pointer(ptr %handle)
  ret void
}

define void @through_pointer(ptr %handle) {
  %r = call i32 @cudaLaunchKernel(ptr %handle, i64 4294967298, i32 1, i64 4294967328, i32 1, ptr null, i64 0, ptr null)
  ret void
}
"#,
    );
    let (lines, done) = run_host_text(&ir, &sized(0));
    assert_eq!(done.registered, 1, "{done:?}");
    assert_eq!(done.through_pointers, 1, "{done:?}");
    let registered: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("registered"))
        .collect();
    // 6 threads: 408 B; a handle of no kernel here: -1.
    assert_eq!(
        registered,
        ["registered 408 _Z5sizedv", "registered -1 _Z5sizedv"],
        "{lines:?}"
    );
    // sized<<<2, 32>>> through the pointer (2176 B), then main's launches.
    assert_eq!(
        printed(&lines, "shared"),
        [2176, 408, 20480, 50000, 1632, 8704, 8704, 0]
    );
}

/// Launches the S-L1 runtime cannot see (the driver API, graph nodes made
/// by hand) are warned of, with where they are; before, such a kernel ran
/// without lines, silently.
#[test]
fn launches_that_pass_by_the_runtime_are_warned_of() {
    let mut ir = host_module();
    ir.push_str(
        r#"
define i32 @cuLaunchKernel(ptr %f, i32 %gx, i32 %gy, i32 %gz, i32 %bx, i32 %by, i32 %bz, i32 %shared, ptr %stream, ptr %args, ptr %extra) {
  ret i32 0
}

define i32 @cudaGraphAddKernelNode(ptr %node, ptr %graph, ptr %deps, i64 %count, ptr %params) {
  ret i32 0
}

define void @by_hand(ptr %f) {
  %a = call i32 @cuLaunchKernel(ptr %f, i32 1, i32 1, i32 1, i32 32, i32 1, i32 1, i32 0, ptr null, ptr null, ptr null)
  %b = call i32 @cudaGraphAddKernelNode(ptr null, ptr null, ptr null, i64 0, ptr null)
  ret void
}
"#,
    );
    let (_, done) = run_host_text(&ir, &sized(0));
    let warned: Vec<&String> = done
        .skipped
        .iter()
        .filter(|w| w.contains("gets no line buffer"))
        .collect();
    assert_eq!(warned.len(), 2, "{done:?}");
    assert!(
        warned[0].starts_with("`cuLaunchKernel` at function `by_hand`"),
        "{warned:?}"
    );
    assert!(
        warned[1].starts_with("`cudaGraphAddKernelNode` at function `by_hand`"),
        "{warned:?}"
    );
    // Without kernels with lines, nothing to warn of.
    let (_, done) = run_host_text(&ir, &BTreeMap::new());
    assert!(done.skipped.is_empty(), "{done:?}");
}
