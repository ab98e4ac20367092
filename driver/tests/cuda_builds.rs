//! CUDA sources through clang with the plugin: reports, PTX, cubin and full
//! executables, via the driver and via a plain clang command line.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;
use sl1_pass::analysis::Mode;
use sl1_pass::tuning::Rewrite;

#[test]
fn upper_report_lists_restrict_arguments_and_one_loop() {
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("upper.ptx");
    let report = dir.path().join("upper.json");
    run_ok(
        driver()
            .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-o"])
            .arg(&ptx)
            .arg("--report")
            .arg(&report),
    );
    assert_ptxas_accepts(&ptx);
    let report = read_report(&report);
    assert!(report.target.starts_with("nvptx64"));
    assert_eq!(report.kernels.len(), 1);
    let k = &report.kernels[0];
    assert_eq!(
        k.demangled.as_deref(),
        Some("upper(char const*, char*, unsigned long, unsigned long)")
    );
    let ds: Vec<_> = k
        .data_structures
        .iter()
        .map(|d| (d.argument.as_str(), d.restrict, d.mode))
        .collect();
    assert_eq!(
        ds,
        [("in", true, Mode::ReadOnly), ("out", true, Mode::ReadWrite)]
    );
    assert_eq!(k.loops.len(), 1);
    assert!(k.loops[0].main_loop);
}

#[test]
fn with_debug_information_reports_and_remarks_point_at_the_loops_source_line() {
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("upper.ptx");
    let report = dir.path().join("upper.json");
    let out = run_ok(
        driver()
            .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-o"])
            .arg(&ptx)
            .arg("--report")
            .arg(&report)
            .args([
                "--clang-arg=-gline-tables-only",
                "--clang-arg=-Rpass-analysis=sl1",
                "--clang-arg=-Rpass=sl1",
            ]),
    );
    // The loop's `for` is on line 17 of upper.cu, column 3.
    let source = std::fs::read_to_string(testdata("cu/upper.cu")).unwrap();
    assert!(
        source.lines().nth(16).unwrap().starts_with("  for ("),
        "line 17 of upper.cu is no longer its loop"
    );
    let at = read_report(&report).kernels[0].loops[0]
        .location
        .clone()
        .expect("a location with debug information");
    assert!(at.file.ends_with("testdata/cu/upper.cu"), "{at}");
    assert_eq!((at.line, at.column), (17, 3), "{at}");
    let remark = out
        .stderr
        .lines()
        .find(|l| l.contains("remark: loop at for.body"))
        .unwrap_or_else(|| panic!("no loop remark:\n{}", out.stderr));
    assert!(remark.contains("upper.cu:17:3: remark:"), "{remark}");
    // What was sliced, at the loop too (it was at the kernel's line).
    let sliced = out
        .stderr
        .lines()
        .find(|l| l.contains("loop(s) sliced"))
        .unwrap_or_else(|| panic!("no sliced remark:\n{}", out.stderr));
    assert!(sliced.contains("upper.cu:17:3: remark:"), "{sliced}");
    // Without debug information the report has no location.
    let plain = dir.path().join("plain.json");
    run_ok(
        driver()
            .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-o"])
            .arg(dir.path().join("plain.ptx"))
            .arg("--report")
            .arg(&plain),
    );
    assert_eq!(read_report(&plain).kernels[0].loops[0].location, None);
}

#[test]
fn with_debug_information_direct_accesses_name_their_source_line() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("gather.cu");
    // Line 5: the indirect load, which stays direct beside the cached streams.
    std::fs::write(
        &src,
        "__global__ void gather(const char *__restrict__ in, char *__restrict__ out,\n\
         \x20                      const int *__restrict__ idx, unsigned long chunk) {\n\
         \x20 unsigned long begin = (blockIdx.x * blockDim.x + threadIdx.x) * chunk;\n\
         \x20 for (unsigned long i = begin; i < begin + chunk; ++i)\n\
         \x20   out[i] = in[i] + in[idx[i]];\n\
         }\n",
    )
    .unwrap();
    let report = dir.path().join("gather.json");
    run_ok(
        driver()
            .arg("build")
            .arg(&src)
            .args(["--emit", "ptx", "-o"])
            .arg(dir.path().join("gather.ptx"))
            .arg("--report")
            .arg(&report)
            .arg("--clang-arg=-gline-tables-only"),
    );
    let k = &read_report(&report).kernels[0];
    assert!(k.transform.applied, "{:?}", k.transform.reasons);
    let direct = &k.transform.accesses_direct;
    assert!(!direct.is_empty(), "no direct access");
    for d in direct {
        let at = d.location.as_ref().expect("a location");
        assert!(at.file.ends_with("gather.cu") && at.line == 5, "{at}");
    }
}

#[test]
fn report_of_every_cu_case() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["upper", "wc", "patterns"] {
        let report = dir.path().join(format!("{name}.json"));
        run_ok(
            driver()
                .args([
                    "build",
                    &format!("testdata/cu/{name}.cu"),
                    "--emit",
                    "ptx",
                    "-o",
                ])
                .arg(dir.path().join(format!("{name}.ptx")))
                .arg("--report")
                .arg(&report),
        );
        insta::with_settings!({
            snapshot_path => repo().join("snapshots"),
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_json_snapshot!(format!("report__{name}_cu"), read_report(&report));
        });
    }
}

#[test]
fn patterns_build_with_extreme_options() {
    // Threshold 1 and 8-byte lines reach every path of the runtime; 32-byte
    // lines the two-fill one. Each must compile and assemble.
    let dir = tempfile::tempdir().unwrap();
    for (threshold, line) in [("1", "8"), ("7", "16"), ("20", "32"), ("300", "64")] {
        let ptx = dir.path().join(format!("p_{threshold}_{line}.ptx"));
        run_ok(
            driver()
                .args(["build", "testdata/cu/patterns.cu", "--emit", "ptx"])
                .args(["--threshold", threshold, "--line-size", line, "-o"])
                .arg(&ptx),
        );
        assert_ptxas_accepts(&ptx);
    }
}

#[test]
fn every_suite_app_builds_to_ptx_in_every_bundle_build() {
    let dir = tempfile::tempdir().unwrap();
    let mut apps: Vec<_> = std::fs::read_dir(testdata("apps"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    apps.sort();
    assert!(apps.len() >= 2);
    for app in apps {
        let name = app.file_name().unwrap().to_string_lossy().into_owned();
        // What the app tells the driver about its launches (ci/gpu-bundle
        // passes the same to every build).
        let app_flags: Vec<String> = std::fs::read_to_string(app.join("driver-flags"))
            .map(|f| f.split_whitespace().map(str::to_string).collect())
            .unwrap_or_default();
        for opts in [
            vec![],
            vec!["--no-sl1"],
            vec!["--line-size", "8"],
            vec!["--stats"],
            vec!["--cache-read-only"],
            vec!["--no-vector-loads"],
        ] {
            let ptx = dir.path().join(format!("{name}.ptx"));
            let out = run_ok(
                driver()
                    .arg("build")
                    .arg(app.join(format!("{name}.cu")))
                    .args(["--emit", "ptx", "--print-report"])
                    .args(&opts)
                    .args(&app_flags)
                    .arg("-o")
                    .arg(&ptx),
            );
            let text = bench_ptx(&ptx, &name);
            if opts == ["--stats"] && out.stderr.contains(" loop(s) sliced") {
                assert_stats_counters(&text, &name);
            }
            // k-means keeps its centroids in dynamic shared memory, whose
            // size its flags declare: its points, read once per centroid,
            // are cached, unless the vector loads read them 16 B at a time
            // (the default), which beat the lines.
            if name == "kmeans" && opts.is_empty() {
                assert!(
                    out.stderr.contains("1 unrolled loop(s) given a copy")
                        && !out.stderr.contains(" loop(s) sliced")
                        && out
                            .stderr
                            .contains("which the device rewrite reads 16 B at a time"),
                    "{name}: {}",
                    out.stderr
                );
            } else if name == "kmeans" && opts == ["--no-vector-loads"] {
                for expected in [" loop(s) sliced", "structure `points`", "read again"] {
                    assert!(out.stderr.contains(expected), "{name}: {}", out.stderr);
                }
                // The lines are used: the decision may pick them (not folded
                // away as a read-only companion with no written structure).
                assert!(
                    text.contains(".shared .align 16 .b8 sl1_$_lines_$_kmeans["),
                    "{name}: no line buffer in the PTX"
                );
            } else if opts.is_empty() || opts == ["--no-vector-loads"] {
                // Every app is transformed, or has its read-only structures
                // left to the hardware L1, or none predicted to pay, or its
                // loop left to the loop merge, and says so.
                assert!(
                    out.stderr.contains(" loop(s) sliced")
                        || out
                            .stderr
                            .contains("caches nothing but structures it only reads")
                        || out
                            .stderr
                            .contains("no structure is predicted to pay for a line")
                        || out.stderr.contains("left to the merge"),
                    "{name}: {}",
                    out.stderr
                );
            } else if opts == ["--cache-read-only"] {
                // As the paper, but with static prediction: every app's
                // main loop is sliced unless none of its structures has a
                // prediction (dna's reads, accessed from two loops).
                assert!(
                    out.stderr.contains(" loop(s) sliced")
                        || out
                            .stderr
                            .contains("no structure is predicted to pay for a line"),
                    "{name}: {}",
                    out.stderr
                );
            }
            assert_ptxas_accepts(&ptx);
        }
    }
}

#[test]
fn every_harm_kernel_builds_to_ptx_and_its_counters() {
    // The do-no-harm suite (sl1_gpu::harm): a kernel per testdata/harm
    // folder, named after it, in the builds ci/gpu-bundle makes of it with
    // S-L1: the default, and the statistics build of each kernel the default
    // transforms (of the 23 the default left alone on 2026-11-29, it
    // transformed none). Its `--no-sl1`
    // build is clang's alone (`no_sl1_build_reports_transform_off`).
    let mut kernels: Vec<String> = std::fs::read_dir(testdata("harm"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    kernels.sort();
    let mut listed: Vec<String> = sl1_gpu::harm::all()
        .iter()
        .map(|a| a.kernel().to_string())
        .collect();
    listed.sort();
    assert_eq!(
        kernels, listed,
        "testdata/harm and sl1_gpu::harm::all() differ"
    );
    assert!(kernels.len() >= 22);
    let dir = tempfile::tempdir().unwrap();
    // Two builders: the longest test of the file, 117 s run by itself on a
    // 2-core machine with one builder and ptxas at -O3 (2026-11-29).
    let transformed: usize = std::thread::scope(|scope| {
        let workers: Vec<_> = [0, 1]
            .map(|first| {
                let (kernels, dir) = (&kernels, dir.path());
                scope.spawn(move || {
                    kernels
                        .iter()
                        .skip(first)
                        .step_by(2)
                        .filter(|name| harm_kernel_builds(dir, name))
                        .count()
                })
            })
            .into_iter()
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).sum()
    });
    // The suite exercises the transform, not only its refusals.
    assert!(transformed >= 5, "{transformed} harm kernel(s) transformed");
}

/// Builds harm kernel `name` into `dir` as ci/gpu-bundle does and checks
/// the PTX and the report; returns whether the default build transformed it.
fn harm_kernel_builds(dir: &Path, name: &str) -> bool {
    let mut transformed = false;
    for opts in [vec![], vec!["--stats"]] {
        let ptx = dir.join(format!("{name}.{}.ptx", opts.len()));
        let report = dir.join(format!("{name}.{}.json", opts.len()));
        let out = run_ok(
            driver()
                .arg("build")
                .arg(testdata("harm").join(name).join(format!("{name}.cu")))
                .args(["--emit", "ptx", "--print-report"])
                .args(&opts)
                .arg("-o")
                .arg(&ptx)
                .arg("--report")
                .arg(&report),
        );
        let text = bench_ptx(&ptx, name);
        let report = read_report(&report);
        assert_eq!(report.kernels.len(), 1, "{name}");
        let k = &report.kernels[0];
        assert_eq!(k.name, name);
        // Transformed, or the report says why not.
        assert!(
            k.transform.applied != out.stderr.contains("not transformed: "),
            "{name} {opts:?}: {}",
            out.stderr
        );
        assert_ptxas_accepts(&ptx);
        if opts.is_empty() {
            if !k.transform.applied {
                break;
            }
            transformed = true;
        } else if k.transform.applied {
            // (A statistics build may leave a loop whose line runs it
            // cannot count.)
            assert_stats_counters(&text, name);
        }
    }
    transformed
}

/// The PTX at `ptx`, which has the kernel `name` as an entry: kernels are
/// extern "C", and the bench finds them by their plain name.
fn bench_ptx(ptx: &Path, name: &str) -> String {
    let text = std::fs::read_to_string(ptx).unwrap();
    assert!(
        text.contains(&format!(".entry {name}(")),
        "{name}: no entry `{name}`"
    );
    text
}

/// Asserts that a statistics build's PTX has kernel `name`'s counters,
/// which the bench reads back by name.
fn assert_stats_counters(ptx_text: &str, name: &str) {
    let global = format!(".visible .global .align 8 .b8 sl1_stats_{name}[");
    assert!(ptx_text.contains(&global), "{name}: no `{global}`");
}

#[test]
fn kmeans_without_its_dynamic_shared_memory_declared_stays_untransformed() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        driver()
            .args(["build", "testdata/apps/kmeans/kmeans.cu", "--emit", "ptx"])
            .arg("--print-report")
            .arg("-o")
            .arg(dir.path().join("kmeans.ptx")),
    );
    for expected in [
        "not transformed: kernel uses dynamic shared memory",
        "--dynamic-shared BYTES",
    ] {
        assert!(out.stderr.contains(expected), "{}", out.stderr);
    }
}

#[test]
fn cu_emits_cubin_ll_and_bc() {
    let dir = tempfile::tempdir().unwrap();
    for (emit, magic) in [
        ("cubin", b"\x7fELF".as_slice()),
        ("ll", b"target triple = \"nvptx64".as_slice()),
        ("bc", b"BC\xc0\xde".as_slice()),
    ] {
        let out = dir.path().join(format!("wc.{emit}"));
        run_ok(
            driver()
                .args([
                    "build",
                    "testdata/cu/wc.cu",
                    "--emit",
                    emit,
                    "-O2",
                    "-DUNUSED=1",
                    "-I",
                ])
                .arg(repo().join("testdata/cu"))
                .arg("-o")
                .arg(&out),
        );
        let bytes = std::fs::read(&out).unwrap();
        assert!(
            bytes.windows(magic.len()).any(|w| w == magic),
            "--emit {emit}"
        );
    }
}

#[test]
fn verbose_build_shows_every_phase_and_makes_an_executable() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("upper");
    let out = run_ok(
        driver()
            .args(["build", "testdata/cu/upper.cu", "-v", "-o"])
            .arg(&exe),
    );
    for phase in [
        "--cuda-device-only",
        "-fpass-plugin=",
        "-fno-jump-tables",
        "-scev-cheap-expansion-budget=6",
        "-slp-vectorize-hor=false",
        "ptxas",
        "fatbinary",
        "--cuda-host-only",
        "-lcudart_static",
    ] {
        assert!(
            out.stderr.contains(phase),
            "phase `{phase}` not shown:\n{}",
            out.stderr
        );
    }
    let bytes = std::fs::read(&exe).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF");
    // The fat binary is embedded in the host executable's .nv_fatbin section.
    assert!(
        bytes.windows(10).any(|w| w == b".nv_fatbin"),
        "no fat binary section"
    );
}

/// Executables get launch-sized line buffers (the host compile gets the
/// plugin and the device report, whose kernels say their launch bytes);
/// PTX gets a static buffer unless asked. The host compile gets the report
/// with static buffers too: their launches ask for carveouts.
#[test]
fn executables_size_line_buffers_at_launch_unless_asked_for_static_ones() {
    let dir = tempfile::tempdir().unwrap();
    for (line_buffer, launch) in [
        (None, true),
        (Some("static"), false),
        (Some("launch"), true),
    ] {
        let exe = dir.path().join("upper");
        let report = dir.path().join("upper.json");
        let mut cmd = driver();
        cmd.args(["build", "testdata/cu/upper.cu", "-v", "--report"])
            .arg(&report)
            .arg("-o")
            .arg(&exe);
        if let Some(b) = line_buffer {
            cmd.args(["--line-buffer", b]);
        }
        let out = run_ok(&mut cmd);
        let host = out
            .stderr
            .lines()
            .find(|l| l.contains("--cuda-host-only"))
            .unwrap_or_else(|| panic!("no host compile shown:\n{}", out.stderr));
        assert!(host.contains("-sl1-launch-report="), "{host}");
        let k = &read_report(&report).kernels[0];
        assert!(k.transform.applied, "{:?}", k.transform);
        assert_eq!(
            k.transform.launch_bytes.is_some(),
            launch,
            "{:?}",
            k.transform
        );
    }
    // PTX keeps the static buffer unless asked: its launches are not ours.
    for (line_buffer, launch) in [(None, false), (Some("launch"), true)] {
        let ptx = dir.path().join("upper.ptx");
        let mut cmd = driver();
        cmd.args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-o"])
            .arg(&ptx);
        if let Some(b) = line_buffer {
            cmd.args(["--line-buffer", b]);
        }
        run_ok(&mut cmd);
        let text = std::fs::read_to_string(&ptx).unwrap();
        assert_eq!(
            text.contains(".extern .shared .align 16 .b8 sl1_lines_"),
            launch,
            "{text}"
        );
        assert_eq!(text.contains("%dynamic_smem_size"), launch, "{text}");
    }
}

/// Several sources make one executable, as nvcc links them: each CUDA
/// source through S-L1, host sources through clang++, objects as they are.
#[test]
fn several_sources_and_objects_link_into_one_executable() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("linked");
    let report = dir.path().join("linked.json");
    let out = run_ok(
        driver()
            .args([
                "build",
                "testdata/cu/linked/kernels.cu",
                "testdata/cu/linked/main.cpp",
                "-v",
                "--report",
            ])
            .arg(&report)
            .arg("-o")
            .arg(&exe),
    );
    assert!(out.stderr.contains("-x c++"), "{}", out.stderr);
    assert_eq!(&std::fs::read(&exe).unwrap()[..4], b"\x7fELF");
    let report = read_report(&report);
    assert_eq!(report.kernels.len(), 1);
    assert!(
        report.kernels[0].transform.applied,
        "{:?}",
        report.kernels[0]
    );

    // -c, then the object linked with the host source.
    let object = dir.path().join("kernels.o");
    run_ok(
        driver()
            .args(["build", "testdata/cu/linked/kernels.cu", "-c", "-o"])
            .arg(&object),
    );
    let linked = dir.path().join("linked2");
    run_ok(
        driver()
            .args(["build", "testdata/cu/linked/main.cpp"])
            .arg(&object)
            .arg("-o")
            .arg(&linked),
    );
    assert_eq!(&std::fs::read(&linked).unwrap()[..4], b"\x7fELF");

    // Several inputs make an executable, nothing else.
    let refused = driver()
        .args([
            "build",
            "testdata/cu/linked/kernels.cu",
            "testdata/cu/linked/main.cpp",
            "--emit",
            "ptx",
        ])
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("2 inputs make one executable"), "{err}");
}

#[test]
fn cudart_shared_links_the_runtime_library() {
    // Many executables carried to a GPU machine (the corpus runner) share one
    // libcudart.so instead of a copy each.
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("upper");
    let out = run_ok(
        driver()
            .args([
                "build",
                "testdata/cu/upper.cu",
                "--cudart",
                "shared",
                "-v",
                "-o",
            ])
            .arg(&exe),
    );
    assert!(out.stderr.contains("-lcudart "), "{}", out.stderr);
    assert!(!out.stderr.contains("-lcudart_static"), "{}", out.stderr);
    let bytes = std::fs::read(&exe).unwrap();
    assert!(
        bytes.windows(15).any(|w| w == b"libcudart.so.12"),
        "no dynamic libcudart dependency"
    );
    assert!(
        bytes.len() < 600_000,
        "{} bytes: the runtime linked in?",
        bytes.len()
    );
}

#[test]
fn device_tuning_can_be_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        driver()
            .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-v"])
            .arg("--no-device-tuning")
            .arg("-o")
            .arg(dir.path().join("upper.ptx")),
    );
    assert!(out.stderr.contains("--cuda-device-only"), "{}", out.stderr);
    for option in ["-scev-cheap-expansion-budget", "-slp-vectorize-hor"] {
        assert!(!out.stderr.contains(option), "{}", out.stderr);
    }
}

#[test]
fn device_rewrites_report_what_they_changed() {
    // patterns.cu's `tuned` kernel has a ?: chain clang makes a switch and a
    // remainder its inner loop builds on, its `matmul` an unrolled row
    // read; the driver rewrites them by
    // default (with or without S-L1) and the report counts them; a build
    // without them has no entry.
    let dir = tempfile::tempdir().unwrap();
    let build = |extra: &[&str]| {
        let report = dir.path().join("patterns.json");
        run_ok(
            driver()
                .args(["build", "testdata/cu/patterns.cu", "--emit", "ptx"])
                .args(extra)
                .arg("-o")
                .arg(dir.path().join("patterns.ptx"))
                .arg("--report")
                .arg(&report),
        );
        read_report(&report)
    };
    let tuned = build(&[]).device_rewrites.expect("a tuning entry");
    assert!(tuned.count(Rewrite::SwitchSelects) >= 1, "{tuned:?}");
    assert!(tuned.count(Rewrite::FrozenDivisions) >= 1, "{tuned:?}");
    // `matmul` reads its row a[row * n + k] in a loop clang unrolls by 4.
    assert!(tuned.count(Rewrite::VectorLoads) >= 1, "{tuned:?}");
    let kept = build(&["--no-vector-loads"])
        .device_rewrites
        .expect("a tuning entry");
    assert_eq!(kept.count(Rewrite::VectorLoads), 0, "{kept:?}");
    assert_eq!(
        kept.count(Rewrite::SwitchSelects),
        tuned.count(Rewrite::SwitchSelects)
    );
    assert!(build(&["--no-sl1"]).device_rewrites.is_some());
    assert!(build(&["--no-device-rewrites"]).device_rewrites.is_none());
    assert!(build(&["--no-device-tuning"]).device_rewrites.is_none());
    // The IR path does the same: the early rewrite before LLVM's pipeline,
    // the freeze after it.
    let report = dir.path().join("tuning.json");
    run_ok(
        driver()
            .args(["build", "testdata/ll/device_tuning.ll", "-o"])
            .arg(dir.path().join("tuning.ptx"))
            .arg("--report")
            .arg(&report),
    );
    let tuned = read_report(&report)
        .device_rewrites
        .expect("a tuning entry");
    assert_eq!(
        (
            tuned.count(Rewrite::SwitchSelects),
            tuned.count(Rewrite::FrozenDivisions)
        ),
        (1, 1),
        "{tuned:?}"
    );
}

#[test]
fn no_sl1_build_reports_transform_off() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    run_ok(
        driver()
            .args([
                "build",
                "testdata/cu/upper.cu",
                "--no-sl1",
                "--emit",
                "ptx",
                "-o",
            ])
            .arg(dir.path().join("u.ptx"))
            .arg("--report")
            .arg(&report),
    );
    let report = read_report(&report);
    assert!(!report.options.transform);
    assert!(report.kernels.iter().all(|k| !k.transform.applied));
    // What changed is the device rewrites' alone, which run with --no-sl1
    // too (upper's range check on a byte).
    let tuning = report.device_rewrites.expect("device rewrites on");
    assert!(tuning.count(Rewrite::WidenedRangeChecks) > 0, "{tuning:?}");
    assert!(report.transformed);
}

fn plain_clang_upper(out: &std::path::Path, extra: &[&str]) -> Command {
    let mut cmd = readme_clang(&clang(), &plugin(), "testdata/cu/upper.cu");
    cmd.args(extra).arg("-o").arg(out);
    cmd
}

#[test]
fn plain_clang_with_the_plugin_builds_an_executable() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("upper");
    let report = dir.path().join("upper.json");
    let link = cudart_static_link();
    let mut extra: Vec<&str> = link.iter().map(String::as_str).collect();
    let report_arg = format!("-sl1-report={}", report.display());
    extra.extend(["-mllvm", &report_arg, "-Rpass-analysis=sl1", "-Rpass=sl1"]);
    let out = run_ok(&mut plain_clang_upper(&exe, &extra));
    assert_eq!(&std::fs::read(&exe).unwrap()[..4], b"\x7fELF");
    // The host compilation loads the plugin too; only the device module reports.
    let report = read_report(&report);
    assert!(report.target.starts_with("nvptx64"), "{}", report.target);
    assert!(
        out.stderr.contains("remark: ") && out.stderr.contains("main loop"),
        "no S-L1 analysis remarks:\n{}",
        out.stderr
    );
    assert!(
        out.stderr
            .lines()
            .any(|l| l.contains("S-L1: 1 loop(s) sliced")
                && l.contains("2 access(es) through the cache")
                && l.ends_with("[-Rpass=sl1]")),
        "no S-L1 pass remark:\n{}",
        out.stderr
    );
}

#[test]
fn a_panic_in_the_pass_is_a_clang_error_not_a_crash() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(&mut plain_clang_upper(
        &dir.path().join("upper.ptx"),
        &[
            "--cuda-device-only",
            "-S",
            "-mllvm",
            "-sl1-panic-for-testing",
        ],
    ));
    assert_eq!(
        out.code,
        Some(1),
        "clang must fail cleanly:\n{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("error: sl1: internal error"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("PLEASE submit a bug report"),
        "{}",
        out.stderr
    );
}

#[test]
fn missed_remarks_say_why_a_loop_was_left_alone() {
    let out = run_ok(
        Command::new("opt-22")
            .arg(format!("-load-pass-plugin={}", plugin().display()))
            .args(["-passes=sl1", "-disable-output", "-pass-remarks-missed=sl1"])
            .arg(testdata("ll/no_loop.ll")),
    );
    assert!(
        out.stderr
            .contains("not transformed: no main loop with data-structure accesses"),
        "{}",
        out.stderr
    );
    assert!(
        !out.stderr.contains("data structure 0"),
        "analysis remarks leaked:\n{}",
        out.stderr
    );
}

#[test]
fn opt_runs_the_pass_by_name() {
    let out = run_ok(
        Command::new("opt-22")
            .arg(format!("-load-pass-plugin={}", plugin().display()))
            .args([
                "-passes=sl1",
                "-disable-output",
                "-pass-remarks-analysis=sl1",
            ])
            .arg(testdata("ll/nested_loops.ll")),
    );
    assert!(
        out.stderr.contains("loop at cols (depth 1)"),
        "{}",
        out.stderr
    );
}

#[test]
fn the_line_copy_micro_benchmark_builds_with_its_kernels() {
    let dir = tempfile::tempdir().unwrap();
    let source = repo().join("gpu/micro/line_copies.cu");
    let ptx = dir.path().join("line_copies.ptx");
    run_ok(
        driver()
            .arg("build")
            .arg(&source)
            .args(["--emit", "ptx", "--no-sl1"])
            .arg("-o")
            .arg(&ptx),
    );
    let text = std::fs::read_to_string(&ptx).unwrap();
    // Each thread's own lines, lane groups of 2, 4 and 8, and the roof.
    for kernel in [
        "per_thread",
        "groupedILi2E",
        "groupedILi4E",
        "groupedILi8E",
        "coalesced",
    ] {
        assert!(text.contains(kernel), "no kernel `{kernel}`");
    }
}

/// The `.entry NAME(` parameter list of a PTX text, one entry per line.
fn entry_params(ptx: &str, name: &str) -> usize {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("no entry `{name}`"));
    let list = &ptx[start..ptx[start..].find(')').unwrap() + start];
    list.matches(".param").count()
}

#[test]
fn expert_builds_are_the_apps_kernels_and_their_byte_rules_hold() {
    let dir = tempfile::tempdir().unwrap();
    // The four-byte rules against the apps' byte rules, on the host.
    let check = dir.path().join("check");
    run_ok(
        Command::new(clang())
            .args(["-std=c++17", "-O2"])
            .arg(testdata("expert/check.cpp"))
            .arg("-o")
            .arg(&check),
    );
    let out = run_ok(&mut Command::new(&check));
    assert!(out.stdout.contains("PASS: 0 failure(s)"), "{}", out.stdout);
    // Each expert kernel builds, and has the name and parameters of the
    // app's, so that the bench launches it with the app's arguments.
    for app in ["upper", "wc"] {
        let expert = dir.path().join(format!("{app}.expert.ptx"));
        let plain = dir.path().join(format!("{app}.ptx"));
        for (source, ptx) in [
            (testdata(&format!("expert/{app}.cu")), &expert),
            (testdata(&format!("apps/{app}/{app}.cu")), &plain),
        ] {
            run_ok(
                driver()
                    .arg("build")
                    .arg(&source)
                    .args(["--no-sl1", "--emit", "ptx", "-o"])
                    .arg(ptx),
            );
        }
        assert_ptxas_accepts(&expert);
        let expert = std::fs::read_to_string(&expert).unwrap();
        let plain = std::fs::read_to_string(&plain).unwrap();
        assert_eq!(entry_params(&expert, app), entry_params(&plain, app));
        assert!(
            expert.contains("ld.global.cs.v4.u32"),
            "{app}: the expert build reads 16 B at a time"
        );
    }
}

#[test]
fn a_loop_over_sixteen_pointers_without_restrict_builds_to_bounded_code() {
    // Its aliased copy looked up sixteen lines per access: 212,000 PTX
    // lines, 19 s of clang and two minutes of ptxas (2026-11-30). Groups
    // of more than eight stay direct; the copy the alias checks make
    // restrict keeps its lines.
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("k.ptx");
    let report = dir.path().join("k.json");
    run_ok(
        driver()
            .args(["build", "--emit", "ptx", "-o"])
            .arg(&ptx)
            .arg("--report")
            .arg(&report)
            .arg(testdata("cu/many_pointers.cu")),
    );
    let lines = std::fs::read_to_string(&ptx).unwrap().lines().count();
    assert!(lines < 20_000, "{lines} PTX lines");
    let report = read_report(&report);
    let transform = &report.kernels[0].transform;
    assert!(transform.applied);
    assert_eq!(transform.loops_sliced.len(), 1, "{transform:?}");
    let direct = transform
        .predictions
        .iter()
        .filter(|p| format!("{:?}", p.decision).contains("LargeAliasedGroup"))
        .count();
    assert_eq!(direct, 16);
}

#[test]
fn atomic_loads_build_and_stay_out_of_the_lines() {
    // `__atomic_load_n` through a `__restrict__` input the kernel only
    // reads stopped clang in NVPTX's instruction selection, with and
    // without S-L1 (2026-12-01); atomic loads and stores went through the
    // lines like plain ones.
    let dir = tempfile::tempdir().unwrap();
    for (name, extra) in [("sl1", None), ("plain", Some("--no-sl1"))] {
        let ptx = dir.path().join(format!("{name}.ptx"));
        let report = dir.path().join(format!("{name}.json"));
        let mut cmd = driver();
        cmd.args(["build", "--emit", "ptx", "-o"])
            .arg(&ptx)
            .arg("--report")
            .arg(&report)
            .arg(testdata("cu/atomic_flags.cu"));
        cmd.args(extra);
        run_ok(&mut cmd);
        let text = std::fs::read_to_string(&ptx).unwrap();
        assert!(text.contains("ld.relaxed.sys.global"), "{name}");
        assert!(text.contains("ld.acquire.sys.global"), "{name}");
        assert!(text.contains("st.release.sys.global"), "{name}");
        if extra.is_some() {
            continue;
        }
        let report = read_report(&report);
        for kernel in &report.kernels {
            let t = &kernel.transform;
            assert!(t.applied, "{}: {t:?}", kernel.name);
            let atomics: Vec<_> = t
                .accesses_direct
                .iter()
                .filter(|d| d.kind.is_atomic())
                .map(|d| (d.argument.as_str(), format!("{:?}", d.reason)))
                .collect();
            let expected: Vec<(&str, String)> = match kernel.name.as_str() {
                "relaxed_reads" => vec![("in", "Atomic".into())],
                _ => vec![("flags", "Atomic".into()), ("flags", "Atomic".into())],
            };
            assert_eq!(atomics, expected, "{}", kernel.name);
        }
    }
}

#[test]
fn programs_written_for_nvcc_compile_with_the_nvcc_prelude() {
    // nvcc's version macros, min and max in host code, `register` under
    // C++17 and CUDA 12.8's `__nv_atomic_*` stopped clang on 16 HeCBench
    // programs that nvcc builds (2026-12-01); the prelude gives them, and
    // `--no-nvcc-prelude` leaves it out.
    let dir = tempfile::tempdir().unwrap();
    let object = dir.path().join("k.o");
    let build = |extra: &[&str]| {
        let mut cmd = driver();
        cmd.args(["build", "-c", "-o"])
            .arg(&object)
            .args(extra)
            .arg(testdata("cu/nvcc_prelude.cu"));
        cmd
    };
    run_ok(&mut build(&[]));
    assert!(object.exists());
    let without = run(&mut build(&["--no-nvcc-prelude"]));
    assert_ne!(without.code, Some(0));
    for missing in [
        "nvcc's version macros are missing",
        "'register' storage class",
        "undeclared identifier '__NV_ATOMIC_RELAXED'",
    ] {
        assert!(
            without.stderr.contains(missing),
            "{missing}:\n{}",
            without.stderr
        );
    }
    // The device compile and the host compile (whose min and max calls
    // only the prelude declares) each include it.
    let verbose = run_ok(&mut build(&["-v"]));
    let includes = verbose
        .stderr
        .lines()
        .filter(|l| l.contains("-include") && l.contains("sl1_nvcc_prelude.h"))
        .count();
    assert!(
        includes >= 2,
        "device and host compiles:\n{}",
        verbose.stderr
    );
}
