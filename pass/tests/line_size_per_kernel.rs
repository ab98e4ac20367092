//! Threads of one block run different main loops at the same time (no
//! barrier between them), and each loop's decision picks the line size. Lines
//! of two sizes lie at two pitches in the buffer, so the lines of a thread in
//! one loop would overlap those of a thread in another (the race the first
//! GPU fuzz run found, seed 304). In a kernel of several sliced loops every
//! loop must therefore size its lines for the same structures.

mod common;

use sl1_pass::Options;

#[test]
fn every_sliced_loop_of_a_kernel_picks_lines_for_the_same_structures() {
    let t = common::transform_case("two_loops", &Options::default());
    let k = &t.report.kernels[0];
    // `copy` caches `in` and `tmp`, `add` only `tmp`.
    assert_eq!(
        k.transform.loops_sliced,
        ["copy", "add"],
        "{:?}",
        k.transform
    );
    assert_eq!(k.transform.line_pad_bytes, 4);
    let text = t.text("two_loops");
    // Bytes a thread's lines take at 32 B (36 B with the padding): both
    // decisions ask for the kernel's two structures, 72 B per thread; none
    // sizes for one structure (36 B) or for a launch-dependent count.
    let wanted = |per_thread: u32| {
        text.lines()
            .filter(|l| {
                l.contains("= mul i32 %sl1.threads") && l.ends_with(&format!(", {per_thread}"))
            })
            .count()
    };
    assert!(wanted(72) >= 1, "{text}");
    assert_eq!(wanted(36), 0, "{text}");
    assert!(!text.contains("shl nuw nsw i32 %sl1.threads"), "{text}");
}

/// The transformed text of `atomic_in_loop.ll`'s kernel (a loop that only
/// reads its cached structure) under `options`, with its line-runs detail.
fn histogram(options: &Options) -> (String, String) {
    let t = common::transform_case("atomic_in_loop", options);
    let detail = t.kernel("histogram").line_runs[0].detail.clone();
    (t.text("histogram").to_string(), detail)
}

#[test]
fn loops_that_only_read_take_lines_up_to_the_read_only_limit() {
    // The loop streams too: without the stream limit, lines up to 128 B.
    let (text, detail) = histogram(&Options::default());
    assert!(detail.contains("in lines of up to 128 B"), "{detail}");
    assert!(text.contains(".sl1.cached128"), "{text}");
    let read_only = Options {
        stream_max_line_size: 32,
        ..Options::default()
    };
    let (text, detail) = histogram(&read_only);
    assert!(detail.contains("in lines of up to 64 B"), "{detail}");
    // A copy of the loop per line size, 64 B among them.
    assert!(text.contains(".sl1.cached64"), "{text}");
    let limited = Options {
        read_only_max_line_size: 32,
        ..read_only
    };
    let (text, detail) = histogram(&limited);
    assert!(detail.contains("in lines of up to 32 B"), "{detail}");
    assert!(!text.contains(".sl1.cached64"), "{text}");
}
